/**
 * Every detector over every document of the shared corpus of real-world documents
 * (`../shared/realworld-corpus` beside the repository, as CI places it; SOURCES.tsv names each
 * one's repository, path and commit). Each document is served alone, at the path its site
 * publishes it under, by a site on the origin its own URLs name, and all seven detectors run
 * over that site. The expectation of each detector is our own reading of the document against its
 * standard, written beside it: llmstxt.org (an H1 title opens the file, in either Markdown form),
 * OpenAI's plugin manifest, OpenAPI 2.0/3.x (a version and at least one path), RFC 9727/9264 (a
 * JSON linkset whose relations are keys), the MCP server-card and discovery shapes, RFC 9309
 * robots.txt with AI crawler tokens or Content-Signal, and schema.org JSON-LD, microdata or RDFa.
 * Then the sites with several documents are put back together, so links between documents
 * (a manifest's api.url, a catalog's service-desc, a card's endpoint) are followed as they are live.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SIGNAL_DETECTORS } from "../../src/domain/crawling/crawl-site.ts";
import { OPENAPI_FRAMEWORK_PATHS } from "../../src/domain/signals/detect-openapi.ts";
import type { ProbeAnswer, ProbeContext, ProbeRequest, SiteFetcher } from "../../src/domain/signals/types.ts";
import { SIGNAL_FIELDS, type SignalField } from "../../src/domain/sites/site-fields.ts";

const CORPUS = new URL("../../../shared/realworld-corpus/", import.meta.url);

interface CorpusCase {
  /** Where the site serves the document. */
  path: string;
  /** The content type it is served with. */
  type: string;
  /** The signals this document alone makes present; every other detector must say absent. */
  present: SignalField[];
  /** What the detectors must report beyond the status. */
  details?: Partial<Record<SignalField, Record<string, unknown>>>;
  /** What the reasons must say, where the reading turns on something a reason should name. */
  reasons?: Partial<Record<SignalField, RegExp>>;
  /** Our reading of the document against its standard: why the expectation is what it is. */
  reading: string;
}

const TEXT = "text/plain; charset=utf-8";
const JSON_TYPE = "application/json";
const YAML = "application/yaml";
const HTML = "text/html; charset=utf-8";
const MARKDOWN = "text/markdown; charset=utf-8";

/** The origin each source repository's site is served on: the one its documents' own URLs name. */
const ORIGINS: Record<string, string> = {
  "110kc3/seo": "https://index.percall.dev",
  "DailybotHQ/deepworkplan-website": "https://deepworkplan.com",
  "LeonMelamud/inspector-agents": "https://inspectagents.com",
  "GUCCI-atlasv/Skillssafe.com": "https://skillssafe.com",
  "APIs-guru/APIs-guru.github.io": "https://apis.guru",
  "ARC-Affiliates/arc-affiliates": "https://arcaffiliates.com",
  "Astrian/arknights-gacha-chatgpt": "https://agc.astrian.moe",
  "Andrewzhuyx/chatgpt-arxiv-plugin": "http://localhost:5001",
  "Coding-Crashkurse/ChatGPT-Plugin": "http://localhost:4444",
  "0xClouds/Etherscan_OpenAI_plugin": "http://localhost:5001",
  "ChatGPTUp/gpt-time-plugin": "http://localhost:1037",
  "openai/plugins-quickstart": "http://localhost:5003",
  "AceDZN/tt-gpt-plugin": "http://localhost:5003",
  "360macky/webrewind": "https://webrewind.app",
  "0000wei/mockupshot": "https://mockupshot.online",
};
const DEFAULT_ORIGIN = "https://corpus-site.example";

/** The MCP endpoint a responder answers on, by origin: the one our reading says the site's cards name. */
const MCP_ENDPOINTS: Record<string, string> = {
  "https://index.percall.dev": "https://index.percall.dev/mcp",
  "https://inspectagents.com": "https://inspectagents.com/api/mcp/",
};

const llms = (title: string, reading: string): CorpusCase => ({
  path: "/llms.txt",
  type: MARKDOWN,
  present: ["has_llms_txt"],
  details: { has_llms_txt: { title } },
  reading,
});
const robots = (present: boolean, reading: string): CorpusCase => ({
  path: "/robots.txt",
  type: TEXT,
  present: present ? ["has_robots_ai"] : [],
  reading,
});
const home = (present: boolean, reading: string): CorpusCase => ({
  path: "/",
  type: HTML,
  present: present ? ["has_schema_org"] : [],
  reading,
});
const openApi = (path: string, version: string, reading: string): CorpusCase => ({
  path,
  type: path.endsWith(".json") ? JSON_TYPE : YAML,
  present: ["has_openapi"],
  details: { has_openapi: { version, found_via: "common path" } },
  reading,
});
const manifest = (apiUrl: string | null, reading: string): CorpusCase => ({
  path: "/.well-known/ai-plugin.json",
  type: JSON_TYPE,
  present: apiUrl === null ? [] : ["has_ai_plugin"],
  details: apiUrl === null ? {} : { has_ai_plugin: { api_url: apiUrl } },
  reading,
});

const CASES: Record<string, CorpusCase> = {
  "apicatalog/apicatalog-110kc3-seo.json": {
    path: "/.well-known/api-catalog",
    type: "application/linkset+json",
    present: ["has_structured_api"],
    reading:
      "a linkset whose catalog anchor lists seven API endpoints as item links, and anchors with service-desc: it declares APIs; the openapi.yaml it names is not served on this one-document site",
  },
  "apicatalog/apicatalog-deepworkplan.json": {
    path: "/.well-known/api-catalog",
    type: "application/linkset+json",
    present: [],
    reading:
      "its relations sit in a `links` list of {rel, href} rather than as keys of the context object, so it is not RFC 9264's JSON linkset and declares nothing (the site says it has no REST API)",
  },
  "apicatalog/apicatalog-inspector-agents.json": {
    path: "/.well-known/api-catalog",
    type: "application/linkset+json",
    present: ["has_structured_api"],
    reading: "RFC 9727's item links name the REST API's description and the MCP discovery documents: APIs declared",
  },

  "html/html-0-sandy.html": home(false, "a personal page with no JSON-LD, microdata or RDFa"),
  "html/html-110kc3-seo.html": home(true, "JSON-LD with @context https://schema.org and @type WebSite"),
  "html/html-arc-affiliates.html": home(false, "a short page without structured data"),
  "html/html-csoai.html": home(true, "JSON-LD Article with a schema.org context"),
  "html/html-fetraining-rdfa.html": home(true, 'RDFa: typeof="AboutPage" under vocab="https://schema.org/"'),
  "html/html-itdepends.html": home(false, "no schema.org markup of any kind"),
  "html/html-jamesoncodes.html": home(true, "JSON-LD Person with a schema.org context"),
  "html/html-janherbst84.html": home(true, "JSON-LD with Person, WebPage and organisations"),
  "html/html-joeboylson.html": home(false, "a single-page-app shell with no structured data"),
  "html/html-laisky-blog.html": home(false, "a single-page-app shell; an RSS link is not schema.org"),
  "html/html-mockupshot.html": home(true, "JSON-LD WebApplication with an Offer and an Organization"),
  "html/html-openxlsx2.html": home(false, "package documentation without structured data"),
  "html/html-shamtours.html": home(false, "no schema.org markup"),
  "html/html-syncpack.html": home(false, "a meta-refresh redirect page"),
  "html/html-webrewind.html": home(false, "no schema.org markup"),

  "llms/llms-110kc3-seo.txt": llms("AI Product Index", "opens with the H1 `# AI Product Index` and a summary"),
  "llms/llms-answerdotai.txt": llms("llms.txt", "the proposal's own file: H1 `# llms.txt`, the project's name"),
  "llms/llms-arc-affiliates.txt": llms("ARC Affiliates", "opens with an ATX H1"),
  "llms/llms-christerhagen.txt": llms("Christer Hagen", "opens with an ATX H1 and prose without a summary quote"),
  "llms/llms-csoai.txt": llms(
    "llms.txt — https://www.csoai.org",
    "comment-like lines written as H1s: in Markdown the first line is an H1 all the same",
  ),
  "llms/llms-deepworkplan.txt": llms("Deep Work Plan", "opens with an ATX H1"),
  "llms/llms-inspector-agents.txt": llms("InspectAgents", "opens with an ATX H1"),
  "llms/llms-jamesfrost.txt": llms("James Frost", "opens with an ATX H1"),
  "llms/llms-jamesoncodes.txt": llms(
    "LLM Index for jamesoncodes.github.io",
    "the title is underlined with ===: Markdown's setext H1, as valid as `# Title`",
  ),
  "llms/llms-jan9103.txt": {
    path: "/llms.txt",
    type: TEXT,
    present: [],
    reading: "robots.txt directives served as llms.txt: the first block is a paragraph, not an H1",
  },
  "llms/llms-janherbst84.txt": llms("llms.txt", "comment-like H1 lines; the first is an H1 in Markdown"),
  "llms/llms-jbarbeau.txt": llms("Jonathan Barbeau", "opens with an ATX H1"),
  "llms/llms-joeboylson.txt": llms("Joe Boylson - Full-Stack Developer", "opens with an ATX H1"),
  "llms/llms-mockupshot.txt": llms("MockupShot — Free Online Device Mockup Generator", "opens with an ATX H1"),
  "llms/llms-openxlsx2.txt": llms("openxlsx2", "opens with an ATX H1"),
  "llms/llms-shamtours.txt": llms("Sham Tours", "opens with an ATX H1"),
  "llms/llms-syncpack.txt": llms("Syncpack", "opens with an ATX H1"),

  "mcp/mcp-110kc3-seo-card.json": {
    path: "/.well-known/mcp/server-card.json",
    type: JSON_TYPE,
    present: ["has_mcp_server"],
    details: {
      has_mcp_server: {
        endpoint: "https://index.percall.dev/mcp",
        discovery_url: "https://index.percall.dev/.well-known/mcp/server-card.json",
      },
    },
    reading: "a server card whose remotes list one streamable-http URL (the stdio package is not a remote)",
  },
  "mcp/mcp-110kc3-seo-mcpjson.json": {
    path: "/.well-known/mcp.json",
    type: JSON_TYPE,
    present: ["has_mcp_server"],
    details: {
      has_mcp_server: {
        endpoint: "https://index.percall.dev/mcp",
        discovery_url: "https://index.percall.dev/.well-known/mcp.json",
      },
    },
    reading: "the same server card served as mcp.json: remotes name the streamable-http endpoint",
  },
  "mcp/mcp-deepworkplan-card.json": {
    path: "/.well-known/mcp/server-card.json",
    type: JSON_TYPE,
    present: [],
    details: { has_mcp_server: { endpoint: "https://deepworkplan.com/" } },
    reading:
      "transport.endpoint names the home page, and the card describes WebMCP in the browser, not a Streamable HTTP server: no handshake can succeed there",
  },
  "mcp/mcp-inspector-agents-card.json": {
    path: "/.well-known/mcp/server-card.json",
    type: JSON_TYPE,
    present: ["has_mcp_server"],
    details: { has_mcp_server: { endpoint: "https://inspectagents.com/api/mcp/" } },
    reading: 'serverUrl with transport "streamable-http"',
  },
  "mcp/mcp-inspector-agents-mcpjson.json": {
    path: "/.well-known/mcp.json",
    type: JSON_TYPE,
    present: ["has_mcp_server"],
    details: { has_mcp_server: { endpoint: "https://inspectagents.com/api/mcp/" } },
    reading: 'a top-level url with transport "streamable-http"',
  },
  "mcp/mcp-skillssafe-card.json": {
    path: "/.well-known/mcp/server-card.json",
    type: JSON_TYPE,
    present: [],
    details: { has_mcp_server: { endpoint: "https://skillssafe.com/mcp", discovery_url: null } },
    reading: "serverInfo and tools, but no URL at all: it names no endpoint, so the conventional /mcp is tried",
  },
  "mcp/mcp-skillssafe-mcpjson.json": {
    path: "/.well-known/mcp.json",
    type: JSON_TYPE,
    present: [],
    details: { has_mcp_server: { endpoint: "https://mcp.skillssafe.com/sse" } },
    reading: 'its only endpoint is typed "sse": the legacy transport, which does not count',
  },

  "openapi/openapi-110kc3-seo.yaml": openApi("/openapi.yaml", "3.1.0", "OpenAPI 3.1.0 with paths"),
  "openapi/openapi-apis-guru-ai.yaml": {
    path: "/.well-known/ai-openapi.yaml",
    type: YAML,
    present: [],
    reading:
      "a valid OpenAPI 3.0.0 document, but at a path no common list holds; alone on its site nothing names it (its plugin manifest does, below)",
  },
  "openapi/openapi-etherscan.yaml": openApi("/openapi.yaml", "3.0.1", "OpenAPI 3.0.1 with three paths"),
  "openapi/openapi-gpt-time.yaml": openApi("/.well-known/openapi.yaml", "3.0.1", "OpenAPI 3.0.1 with /time"),
  "openapi/openapi-inspector-agents.json": openApi("/api/openapi.json", "3.1.0", "OpenAPI 3.1.0 JSON with paths"),
  "openapi/openapi-oai-v2-petstore-expanded-yaml.yaml": openApi("/openapi.yaml", "2.0", "Swagger 2.0 YAML"),
  "openapi/openapi-oai-v2-petstore-json.json": openApi("/openapi.json", "2.0", "Swagger 2.0 JSON"),
  "openapi/openapi-oai-v2-petstore-minimal.json": openApi("/openapi.json", "2.0", "Swagger 2.0, one path"),
  "openapi/openapi-oai-v2-uber-json.json": openApi("/openapi.json", "2.0", "Swagger 2.0 JSON"),
  "openapi/openapi-oai-v2-uber-yaml.yaml": openApi("/openapi.yaml", "2.0", "Swagger 2.0 YAML with comments"),
  "openapi/openapi-oai-v3-callback-json.json": openApi("/openapi.json", "3.0.0", "OpenAPI 3.0.0 with callbacks"),
  "openapi/openapi-oai-v3-link-yaml.yaml": openApi("/openapi.yaml", "3.0.0", "OpenAPI 3.0.0 with links"),
  "openapi/openapi-oai-v3-petstore-yaml.yaml": openApi("/openapi.yaml", "3.0.0", "OpenAPI 3.0.0"),
  "openapi/openapi-oai-v3-uspto-json.json": openApi("/openapi.json", "3.0.1", "OpenAPI 3.0.1 JSON"),
  "openapi/openapi-oai-v31-nonoauth-json.json": openApi("/openapi.json", "3.1.0", "OpenAPI 3.1.0 with one path"),
  "openapi/openapi-oai-v31-webhook-yaml.yaml": {
    path: "/openapi.yaml",
    type: YAML,
    present: [],
    reasons: { has_openapi: /describes webhooks only/ },
    reading:
      "valid OpenAPI 3.1 that describes only webhooks (calls the provider makes): no path an agent can call, so no API by our rule",
  },
  "openapi/openapi-openai-quickstart.yaml": openApi("/openapi.yaml", "3.0.1", "OpenAPI 3.0.1 with /todos"),
  "openapi/openapi-tt-gpt.yaml": openApi("/openapi.yaml", "3.0.1", "OpenAPI 3.0.1 with /hello/{name}"),
  "openapi/openapi-webrewind.yaml": openApi("/openapi.yaml", "3.0.1", "OpenAPI 3.0.1 with one path"),

  "plugin/plugin-110kc3-seo.json": manifest("https://index.percall.dev/openapi.yaml", "every required field"),
  "plugin/plugin-apis-guru.json": manifest("https://apis.guru/.well-known/ai-openapi.yaml", "every required field"),
  "plugin/plugin-arc-affiliates.json": manifest(null, 'api is {"type": "none"}: no url, so no API to call'),
  "plugin/plugin-arknights.json": manifest(
    "https://agc.astrian.moe/.well-known/ai-plugin-api.yaml",
    "user_http auth is an auth type like any other",
  ),
  "plugin/plugin-arxiv.json": manifest(
    "http://localhost:5001/openapi.yaml",
    "complete; its api.url points at a development host",
  ),
  "plugin/plugin-azure-fastapi.json": {
    ...manifest(
      null,
      "api.url is `$host/.well-known/openapi.yaml`: a template the sample fills in when serving; as published, no client can follow it",
    ),
    reasons: { has_ai_plugin: /template placeholder that was never filled in/ },
  },
  "plugin/plugin-crashkurse.json": manifest("http://localhost:4444/openapi.yaml", "complete"),
  "plugin/plugin-etherscan.json": manifest("http://localhost:5001/openapi.yaml", "complete"),
  "plugin/plugin-gpt-time.json": manifest("http://localhost:1037/.well-known/openapi.yaml", "complete"),
  "plugin/plugin-inspector-agents.json": manifest("https://inspectagents.com/api/openapi.json", "complete"),
  "plugin/plugin-mockupshot.json": manifest(
    null,
    "a product description of another format (name, url, tools): none of the manifest's fields",
  ),
  "plugin/plugin-openai-quickstart.json": manifest(
    "http://localhost:5003/openapi.yaml",
    "api.url is `localhost:5003/openapi.yaml`, host and port without a scheme: read with the manifest's own scheme",
  ),
  "plugin/plugin-tt-gpt.json": manifest("http://localhost:5003/openapi.yaml", "complete"),
  "plugin/plugin-webrewind.json": manifest("https://webrewind.app/openapi.yaml", "complete"),

  "robots/robots-110kc3-seo.txt": robots(true, "a group of AI crawlers (GPTBot, ClaudeBot…) and a Content-Signal line"),
  "robots/robots-ai-robots-txt.txt": robots(true, "the ai.robots.txt list: a group of AI crawler tokens"),
  "robots/robots-apis-guru.txt": robots(false, "only a `User-agent: *` group"),
  "robots/robots-arc-affiliates.txt": robots(true, "groups naming GPTBot, ClaudeBot, PerplexityBot…"),
  "robots/robots-beunconventional.txt": robots(false, "only a `User-agent: *` group"),
  "robots/robots-deepworkplan.txt": robots(true, "Content-Signal and groups of AI crawlers"),
  "robots/robots-inspector-agents.txt": robots(true, "groups of AI crawlers"),
  "robots/robots-jamesfrost.txt": robots(true, "a Content-Signal line in each AI crawler's group"),
  "robots/robots-jan9103.txt": robots(true, "`Content-Signal: ai-train=no, search=no, ai-input=no`"),
  "robots/robots-janherbst84.txt": robots(false, "only `User-agent: *`; the rest is comments"),
  "robots/robots-joeboylson.txt": robots(false, "only a `User-agent: *` group"),
  "robots/robots-mockupshot.txt": robots(false, "only a `User-agent: *` group"),
  "robots/robots-shamtours.txt": robots(false, "only a `User-agent: *` group"),
  "robots/robots-syncpack.txt": robots(false, "only a `User-agent: *` group"),
  "robots/robots-teleschmiede.txt": robots(false, "only a `User-agent: *` group"),
};

interface Source {
  file: string;
  repo: string;
}

function readSources(): Source[] {
  if (!existsSync(CORPUS)) {
    throw new Error(`the real-world corpus is missing at ${CORPUS.pathname}: it sits beside the repository`);
  }
  const lines = readFileSync(new URL("SOURCES.tsv", CORPUS), "utf8").trim().split("\n").slice(1);
  return lines.map((line) => {
    const [file = "", repo = ""] = line.split("\t");
    return { file, repo };
  });
}

const SOURCES = readSources();
const originOf = (file: string) =>
  ORIGINS[SOURCES.find((source) => source.file === file)?.repo ?? ""] ?? DEFAULT_ORIGIN;

interface Served {
  path: string;
  type: string;
  body: string;
}

function answer(url: string, status: number, type: string, body: string): ProbeAnswer {
  return {
    ok: true,
    url,
    finalUrl: url,
    redirects: [],
    status,
    headers: new Headers({ "content-type": type }),
    contentType: type.split(";")[0]!.trim(),
    body,
  };
}

/** A minimal Streamable HTTP MCP server answering in JSON, without sessions. */
function mcpReply(url: string, request: ProbeRequest): ProbeAnswer {
  const message = JSON.parse(request.body ?? "{}") as { id?: number; method?: string };
  if (message.method === "initialize") {
    const result = { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "corpus" } };
    return answer(url, 200, JSON_TYPE, JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
  }
  if (message.method === "tools/list") {
    return answer(url, 200, JSON_TYPE, JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { tools: [] } }));
  }
  return answer(url, 202, TEXT, "");
}

/**
 * A site serving these documents and 404 for everything else; with `mcpServer`, an MCP server
 * answers at the endpoint our reading says the site's cards name (and nowhere else).
 */
function corpusSite(origin: string, documents: Served[], mcpServer = false): ProbeContext {
  const routes = new Map(documents.map((document) => [new URL(document.path, origin).href, document]));
  const mcpEndpoint = mcpServer ? MCP_ENDPOINTS[origin] : undefined;
  const fetch: SiteFetcher = async (url, request = {}) => {
    const method = request.method ?? "GET";
    if (url === mcpEndpoint && method === "POST") return mcpReply(url, request);
    const served = method === "GET" ? routes.get(url) : undefined;
    return served ? answer(url, 200, served.type, served.body) : answer(url, 404, TEXT, "Not found");
  };
  return { origin, fetch };
}

const readDocument = (file: string) => readFileSync(new URL(file, CORPUS), "utf8");

async function runDetectors(context: ProbeContext) {
  const findings = await Promise.all(SIGNAL_FIELDS.map((field) => SIGNAL_DETECTORS[field](context)));
  return Object.fromEntries(SIGNAL_FIELDS.map((field, i) => [field, findings[i]!]));
}

describe("the real-world corpus", () => {
  it("has an expectation for every document it holds, and every document is listed in SOURCES.tsv", () => {
    const onDisk = readdirSync(CORPUS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((directory) =>
        readdirSync(new URL(`${directory.name}/`, CORPUS)).map((name) => `${directory.name}/${name}`),
      )
      .sort();
    expect(onDisk).toEqual(SOURCES.map((source) => source.file).sort());
    expect(Object.keys(CASES).sort()).toEqual(onDisk);
  });
});

describe("every detector over every corpus document, served alone", () => {
  it.each(Object.keys(CASES))("%s", async (file) => {
    const expectation = CASES[file]!;
    const origin = originOf(file);
    const findings = await runDetectors(
      corpusSite(
        origin,
        [{ path: expectation.path, type: expectation.type, body: readDocument(file) }],
        expectation.present.includes("has_mcp_server"),
      ),
    );
    const statuses = Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, findings[field]!.status]));
    const expected = Object.fromEntries(
      SIGNAL_FIELDS.map((field) => [field, expectation.present.includes(field) ? "present" : "absent"]),
    );
    const reasons = SIGNAL_FIELDS.map((field) => `${field}: ${findings[field]!.reason}`).join("\n");
    expect(statuses, `${expectation.reading}\n${reasons}`).toEqual(expected);
    for (const [field, details] of Object.entries(expectation.details ?? {})) {
      expect(findings[field]!.details, `${field} of ${file}`).toMatchObject(details);
    }
    for (const [field, reason] of Object.entries(expectation.reasons ?? {})) {
      expect(findings[field]!.reason, `${field} of ${file}`).toMatch(reason);
    }
  });
});

describe("OpenAPI documents at web frameworks' default paths, linked from nowhere", () => {
  it.each(OPENAPI_FRAMEWORK_PATHS)("finds a corpus document at %s", async (path) => {
    const file =
      path === "/q/openapi" ? "openapi/openapi-oai-v3-petstore-yaml.yaml" : "openapi/openapi-oai-v3-uspto-json.json";
    const type = path === "/q/openapi" ? YAML : JSON_TYPE;
    const site = corpusSite(DEFAULT_ORIGIN, [{ path, type, body: readDocument(file) }]);
    const finding = await SIGNAL_DETECTORS.has_openapi(site);
    expect(finding.status, finding.reason).toBe("present");
    expect(finding.details).toMatchObject({ url: `${DEFAULT_ORIGIN}${path}`, found_via: "framework default" });
  });
});

/** A site's documents served together, each at the path its expectation above gives. */
interface Reassembled {
  repo: string;
  present: SignalField[];
  details?: Partial<Record<SignalField, Record<string, unknown>>>;
  reading: string;
}

const REASSEMBLED: Reassembled[] = [
  {
    repo: "110kc3/seo",
    present: SIGNAL_FIELDS.filter(() => true),
    details: {
      has_openapi: { url: "https://index.percall.dev/openapi.yaml" },
      has_mcp_server: { endpoint: "https://index.percall.dev/mcp" },
    },
    reading: "every signal: llms.txt, manifest, OpenAPI, a catalog of APIs, an MCP server card, AI rules, JSON-LD",
  },
  {
    repo: "LeonMelamud/inspector-agents",
    present: ["has_llms_txt", "has_ai_plugin", "has_openapi", "has_structured_api", "has_mcp_server", "has_robots_ai"],
    details: { has_mcp_server: { endpoint: "https://inspectagents.com/api/mcp/" } },
    reading: "all but schema.org: the corpus holds no home page of this site",
  },
  {
    repo: "APIs-guru/APIs-guru.github.io",
    present: ["has_ai_plugin", "has_openapi"],
    details: {
      has_openapi: { url: "https://apis.guru/.well-known/ai-openapi.yaml", found_via: "ai-plugin" },
    },
    reading: "the manifest's api.url is the only way to the OpenAPI document; robots.txt speaks to * only",
  },
  {
    repo: "openai/plugins-quickstart",
    present: ["has_ai_plugin", "has_openapi"],
    details: { has_ai_plugin: { api_url: "http://localhost:5003/openapi.yaml" } },
    reading: "OpenAI's own quickstart: a scheme-less api.url that names the site's /openapi.yaml",
  },
  {
    repo: "DailybotHQ/deepworkplan-website",
    present: ["has_llms_txt", "has_robots_ai"],
    reading: "its catalog is not a JSON linkset and its card names a WebMCP page, so neither counts",
  },
];

describe("corpus sites put back together", () => {
  it.each(REASSEMBLED)("$repo", async ({ repo, present, details, reading }) => {
    const files = SOURCES.filter((source) => source.repo === repo).map((source) => source.file);
    const documents = files.map((file) => ({ ...CASES[file]!, body: readDocument(file) }));
    const findings = await runDetectors(corpusSite(ORIGINS[repo] ?? DEFAULT_ORIGIN, documents, true));
    const statuses = Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, findings[field]!.status]));
    const expected = Object.fromEntries(
      SIGNAL_FIELDS.map((field) => [field, present.includes(field) ? "present" : "absent"]),
    );
    const reasons = SIGNAL_FIELDS.map((field) => `${field}: ${findings[field]!.reason}`).join("\n");
    expect(statuses, `${reading}\n${reasons}`).toEqual(expected);
    for (const [field, fieldDetails] of Object.entries(details ?? {})) {
      expect(findings[field]!.details, field).toMatchObject(fieldDetails);
    }
  });
});
