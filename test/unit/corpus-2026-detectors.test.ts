/**
 * Every detector over every document of the second real-world corpus
 * (`../shared/realworld-corpus-2026` beside the repository; SOURCES.tsv names each one's
 * repository, path and commit): AI Catalogs, MCP server cards and registry server.json files, A2A
 * agent cards, RFC 9727 API catalogs, OAuth and OpenID metadata, Agent Skills indexes, Web Bot
 * Auth directories, agents.json, robots.txt with Content Signals, llms.txt at other paths and
 * HTML with WebMCP or schema.org actions. Each is served alone at the path its site publishes it
 * under (the source path with the web root's folder removed), and all seven detectors run. Where
 * our reading says a document leads to an MCP endpoint, a Streamable HTTP server answers there
 * (and nowhere else), so the test shows the route is followed; documents that name no usable
 * endpoint get no server. The expectation beside each is our reading of it against its standard
 * (AI Catalog v0.9, SEP-2127 server cards, the MCP registry's server.json, RFC 9727/9264,
 * llmstxt.org, RFC 9309 with Content Signals, schema.org). Then two sites are put back together.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SIGNAL_DETECTORS } from "../../src/domain/crawling/crawl-site.ts";
import type { ProbeAnswer, ProbeContext, ProbeRequest, SiteFetcher } from "../../src/domain/signals/types.ts";
import { SIGNAL_FIELDS, type SignalField } from "../../src/domain/sites/site-fields.ts";

const CORPUS = new URL("../../../shared/realworld-corpus-2026/", import.meta.url);
const ORIGIN = "https://corpus-2026.example";

interface Case {
  /** The signals this document alone makes present; every other detector must say absent. */
  present: SignalField[];
  /** The MCP endpoint our reading says the document leads to, where a server answers. */
  endpoint?: string;
  /** Where the site serves it, when not its source path less the web root's folder. */
  path?: string;
  reading: string;
}

const none = (reading: string, path?: string): Case => ({ present: [], reading, ...(path ? { path } : {}) });
const mcp = (endpoint: string, reading: string, path?: string): Case => ({
  present: ["has_mcp_server"],
  endpoint,
  reading,
  ...(path ? { path } : {}),
});

const CASES: Record<string, Case> = {
  // AI Catalogs: MCP entries are leads; the handshake decides.
  "ai-catalog/aic-kulikowski.json": none("its server card is on 127.0.0.1:8787, a development host: nothing to reach"),
  "ai-catalog/aic-agenticresources.json": none("entries of a web page and a dataset: no MCP server, no OpenAPI"),
  "ai-catalog/aic-wallcalculator.json": none("three web pages (text/html): no agent surface"),
  "ai-catalog/aic-wolfejam.json": none(
    "an inline server card with $schema and name but no remotes: it names no endpoint (a locally run server)",
  ),
  "ai-catalog/aic-calebsargeant.json": mcp(
    "https://mcp.calebsargeant.com/",
    "a card at https://mcp.calebsargeant.com/server-card: SEP-2127 serves a card at <endpoint>/server-card, so the endpoint is its parent",
  ),
  "ai-catalog/aic-curtiskrygier.json": none("knowledge entries of its own media type: no MCP server"),
  "ai-catalog/aic-xmr402.json": none("a card at a URL this one-document site does not serve, and a JSON agent card"),
  "ai-catalog/aic-laisky.json": none(
    "a card and an OpenAPI document at URLs this one-document site does not serve (put back together below)",
  ),
  "ai-catalog/aic-councilofai.json": none("its card (a registry server.json) is not served on this one-document site"),
  "ai-catalog/aic-stellar.json": none("its card is not served on this one-document site (put back together below)"),
  "ai-catalog/aic-microlink.json": none(
    "a card typed entry at /.well-known/mcp, not served here; tried as an endpoint",
  ),
  "ai-catalog/aic-yuno-ardjson.json": none("published as /.well-known/ard.json, a name no catalog discovery probes"),
  "ai-catalog/aic-rcsd.json": none("its card sits at /.well-known/server-card.json, which this site does not serve"),
  "ai-catalog/aic-arcis-ard09.json": mcp(
    "https://mcp.arcis.money/mcp",
    "the earlier ARD shape (capabilities, not entries): an application/vnd.mcp+json entry names the endpoint itself",
  ),
  "ai-catalog/aic-schooloffreelancing.json": mcp(
    "https://agents.schooloffreelancing.com/mcp",
    "an application/vnd.mcp+json entry names the endpoint; its OpenAPI entry is not served here",
  ),
  "ai-catalog/aic-botlypro.json": none("a single agent-skill entry: no MCP server"),

  // Server cards, SEP-1649 cards, registry server.json and look-alikes.
  "mcp-server-card/msc-stellar.json": mcp("https://raven.stellar.org/mcp", "SEP-2127 card: remotes[0] streamable-http"),
  "mcp-server-card/msc-qdrant-sep1649.json": mcp(
    `${ORIGIN}/mcp/`,
    "the older SEP-1649 card: transport.endpoint /mcp/, relative to the card",
  ),
  "mcp-server-card/msc-agora-mcpjson.json": mcp("https://mcp.agora.io/", 'url with transport "http" (Streamable HTTP)'),
  "mcp-server-card/msc-jobicy-mcpjson.json": mcp("https://jobicy.com/mcp", "transport.endpoint, streamable-http"),
  "mcp-server-card/msc-arbiter-smithery.json": none("a Smithery stdio server: no remote endpoint"),
  "mcp-server-card/msc-alderpost.json": none("name, tools and prices but no URL: no endpoint"),
  "mcp-server-card/msc-schemastore-ref.json": none("only a $ref to another file: it names no endpoint itself"),
  "mcp-server-card/msc-csoai-cisakev.json": none("package metadata (homepage, repository) without an endpoint"),
  "mcp-server-card/msc-audiopod.json": mcp(
    "https://mcp.audiopod.ai/",
    "transport.endpoint https://mcp.audiopod.ai, streamable-http (served at the well-known card path)",
    "/.well-known/mcp/server-card.json",
  ),
  "mcp-server-card/msc-llmcouncil-stdio.json": none(
    "a v1 card with no remotes (a locally run server)",
    "/.well-known/mcp/server-card.json",
  ),
  "mcp-server-card/msc-1inch-registry.json": mcp(
    "https://api.1inch.com/mcp/protocol",
    "an MCP registry server.json: remotes[0] streamable-http (served where scanners look, /.well-known/mcp.json)",
    "/.well-known/mcp.json",
  ),
  "mcp-server-card/msc-dtmoney-notmcp.json": none(
    "a server.json of another kind (transactions): nothing MCP",
    "/.well-known/mcp.json",
  ),
  "mcp-server-card/msc-laisky.json": mcp("https://mcp.laisky.com/", 'url with transport "streamable-http"'),
  "mcp-server-card/msc-aigen-legacypath.json": none(
    "at /.well-known/mcp-server-card.json, a path no scanner probes, and it names no endpoint",
  ),
  "mcp-server-card/msc-aossie-template-todo.json": none(
    "a template never filled in (https://TODO:project…, not a URL), typed sse: no endpoint",
  ),

  // A2A agent cards: another protocol, no MCP server.
  "a2a-agent-card/a2a-stitch-v03.json": none("an A2A 0.3 agent card"),
  "a2a-agent-card/a2a-azhy-nonstandard.json": none("an agent card of its own shape"),
  "a2a-agent-card/a2a-ahp-namecollision.json": none("another protocol's agent.json"),
  "a2a-agent-card/a2a-telex-legacy.json": none("a legacy A2A agent.json"),
  "a2a-agent-card/a2a-mangesh-v1min.json": none("a minimal A2A v1 card"),
  "a2a-agent-card/a2a-8004-template.json": none("an ERC-8004 template card"),
  "a2a-agent-card/a2a-z2-wrapped.json": none("an agent card wrapped in another object"),
  "a2a-agent-card/a2a-smashmeals-noskills.json": none("an agent card without skills"),
  "a2a-agent-card/a2a-110kc3-informational.json": none("an informational agent card"),
  "a2a-agent-card/a2a-drawio-legacy.json": none("a legacy agent.json"),
  "a2a-agent-card/a2a-michey-ja.json": none("a legacy agent.json in Japanese"),

  // RFC 9727 API catalogs: an anchor with service links, or an item, is an API (our rule, unchanged).
  "api-catalog/apic-bitcoindesign.json": {
    present: ["has_structured_api"],
    reading: "the catalog's item link names search-data.json, declared as an API by the publisher",
  },
  "api-catalog/apic-fairsfair-dummy.json": {
    present: ["has_structured_api"],
    reading: "OAI static repository and Atom anchors with service-doc/service-meta: APIs declared",
  },
  "api-catalog/apic-episciences.json": {
    present: ["has_structured_api"],
    reading: "LDN inbox and OAI-PMH anchors with service links: APIs",
  },
  "api-catalog/apic-agora.json": {
    present: ["has_structured_api"],
    reading: "REST API anchors with service-desc YAML on docs.agora.io (not served here, so no OpenAPI)",
  },
  "api-catalog/apic-lago-jsonext.json": none("published as api-catalog.json: RFC 9727's name has no extension"),
  "api-catalog/apic-http4k-htmldesc.json": none("published as api-catalog.json, and its service-desc is an HTML page"),
  "api-catalog/apic-anthonybible-contactform.json": {
    present: ["has_structured_api"],
    reading: "contact.php anchored with a service-doc describing its POST: a callable endpoint",
  },
  "api-catalog/apic-sabintsev-noapi.json": {
    present: ["has_structured_api"],
    reading:
      "the home page anchored with service-doc and service-desc links: RFC 9727 says an anchor is an API, and we take the publisher at its word (the documents it links are no OpenAPI)",
  },

  // OAuth, OpenID, skills, Web Bot Auth, agents.json: none of the seven signals.
  "oauth-metadata/oauth-prm-csoai-yaml.yaml": none("RFC 9728 metadata in YAML"),
  "oauth-metadata/oauth-prm-pocketmc.json": none("RFC 9728 protected-resource metadata"),
  "oauth-metadata/oauth-prm-telnyx.json": none("RFC 9728 protected-resource metadata"),
  "oauth-metadata/oauth-prm-osticket-php.php": none("PHP source at a well-known path"),
  "oauth-metadata/oauth-as-calfitness.json": none("RFC 8414 metadata"),
  "oauth-metadata/oauth-as-stibarc.json": none("RFC 8414 metadata"),
  "oauth-metadata/oidc-azure-workloadid.json": none("OpenID discovery"),
  "oauth-metadata/oauth-as-atproto-prank.json": none("RFC 8414 metadata"),
  "oauth-metadata/oidc-naver-thirdparty.json": none("OpenID discovery"),
  "oauth-metadata/oidc-pylonwiki-static.json": none("OpenID discovery"),
  "oauth-metadata/oauth-prm-pylonwiki.json": none("RFC 9728 metadata"),
  "agent-skills-index/skills-stellar-v020.json": none("an Agent Skills index"),
  "agent-skills-index/skills-mollie-legacy.json": none("an Agent Skills index at the older path"),
  "agent-skills-index/skills-dstack-legacy.json": none("an Agent Skills index at the older path"),
  "agent-skills-index/skills-mikedorian-mcpish.json": none(
    "a skills index with MCP-like fields: no endpoint is probed from it",
  ),
  "web-bot-auth/wba-mikedorian.json": none("a Web Bot Auth key directory"),
  "web-bot-auth/wba-applehealth-minimal.json": none("a Web Bot Auth key directory"),
  "web-bot-auth/wba-ilang-wellformed.json": none("a Web Bot Auth key directory"),
  "web-bot-auth/wba-apievangelist-algname.json": none("a Web Bot Auth key directory"),
  "web-bot-auth/wba-optikal-labelkid.json": none("a Web Bot Auth key directory"),
  "agents-json/agentsjson-bellsplumbing.json": none("an agents.json"),
  "agents-json/agentsjson-aivillage-array.json": none("an agents.json array"),

  // robots.txt, llms.txt, HTML.
  "robots-txt/robots-laisky.txt": { present: ["has_robots_ai"], reading: "a Content-Signal line" },
  "robots-txt/robots-stellar.txt": { present: ["has_robots_ai"], reading: "a Content-Signal line" },
  "robots-txt/robots-mikedorian-splitsignals.txt": {
    present: ["has_robots_ai"],
    reading: "Content Signals split over three lines",
  },
  "llms-txt/llms-pkgdown-geovizr.txt": {
    present: ["has_llms_txt"],
    reading: "pkgdown's llms.txt: an ATX H1 with an image after the title",
  },
  "llms-txt/llms-laisky-section.txt": none("a section's llms.txt under /docs/, not at the site's root"),
  "llms-txt/llmsfull-pravesh-wellknown.txt": none("an llms-full.txt, which is not an llms.txt"),
  "html-webmcp/html-webmcp-bistro-decl.html": none("WebMCP form attributes, no schema.org", "/"),
  "html-webmcp/html-webmcp-forest-both.html": none("WebMCP declarative and imperative, no schema.org", "/"),
  "html-webmcp/html-mikedorian-linkrel-only.html": none("link rels only, no schema.org", "/"),
  "html-webmcp/html-webmcp-spa-shell.html": none("an app shell", "/"),
  "html-jsonld-action/html-pokerhud-mcp-noaction.html": {
    present: ["has_schema_org"],
    path: "/",
    reading: "JSON-LD with a schema.org context (no action)",
  },
  "html-jsonld-action/html-blade-searchaction-template.html": {
    present: ["has_schema_org"],
    path: "/",
    reading: "JSON-LD WebSite with a SearchAction inside a Blade template: the markup is there as written",
  },
  "html-jsonld-action/html-webmcp-result-jsonld-message.html": {
    present: ["has_schema_org"],
    path: "/",
    reading: "JSON-LD with a schema.org context",
  },
  "html-jsonld-action/html-istio-searchaction.html": {
    present: ["has_schema_org"],
    path: "/",
    reading: "JSON-LD with an http://schema.org context and a SearchAction",
  },
};

interface Source {
  file: string;
  repo: string;
  sourcePath: string;
}

function readSources(): Source[] {
  if (!existsSync(CORPUS))
    throw new Error(`the 2026 corpus is missing at ${CORPUS.pathname}: it sits beside the repository`);
  return readFileSync(new URL("SOURCES.tsv", CORPUS), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [file = "", repo = "", sourcePath = ""] = line.split("\t");
      return { file, repo, sourcePath };
    });
}

const SOURCES = readSources();

/** Where a site serves a document: its case's path, else its source path less the web root's folder. */
function servedPath(file: string): string {
  const explicit = CASES[file]?.path;
  if (explicit) return explicit;
  const source = SOURCES.find((entry) => entry.file === file)!.sourcePath;
  return `/${source.replace(/^(?:public|static|docs)\//, "")}`;
}

function typeOf(file: string): string {
  if (file.endsWith(".html")) return "text/html; charset=utf-8";
  if (file.endsWith(".json")) return "application/json";
  if (file.endsWith(".yaml")) return "application/yaml";
  return "text/plain; charset=utf-8";
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
    const result = { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "corpus-2026" } };
    return answer(url, 200, "application/json", JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
  }
  if (message.method === "tools/list") {
    return answer(
      url,
      200,
      "application/json",
      JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { tools: [] } }),
    );
  }
  return answer(url, 202, "text/plain", "");
}

function corpusSite(documents: { path: string; type: string; body: string }[], endpoints: string[]): ProbeContext {
  const routes = new Map(documents.map((document) => [new URL(document.path, ORIGIN).href, document]));
  const fetch: SiteFetcher = async (url, request = {}) => {
    const method = request.method ?? "GET";
    if (endpoints.includes(url) && method === "POST") return mcpReply(url, request);
    const served = method === "GET" ? routes.get(url) : undefined;
    return served ? answer(url, 200, served.type, served.body) : answer(url, 404, "text/plain", "Not found");
  };
  return { origin: ORIGIN, fetch };
}

async function runDetectors(context: ProbeContext) {
  const findings = await Promise.all(SIGNAL_FIELDS.map((field) => SIGNAL_DETECTORS[field](context)));
  return Object.fromEntries(SIGNAL_FIELDS.map((field, i) => [field, findings[i]!]));
}

const readDocument = (file: string) => readFileSync(new URL(file, CORPUS), "utf8");

describe("the 2026 corpus", () => {
  it("has a reading for every document it holds, and every document is listed in SOURCES.tsv", () => {
    const onDisk = readdirSync(CORPUS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((directory) =>
        readdirSync(new URL(`${directory.name}/`, CORPUS)).map((name) => `${directory.name}/${name}`),
      )
      .sort();
    expect(onDisk).toEqual(SOURCES.map((source) => source.file).sort());
    expect(Object.keys(CASES).sort()).toEqual(onDisk);
  });

  it.each(Object.keys(CASES))("%s", async (file) => {
    const expectation = CASES[file]!;
    const site = corpusSite(
      [{ path: servedPath(file), type: typeOf(file), body: readDocument(file) }],
      expectation.endpoint ? [expectation.endpoint] : [],
    );
    const findings = await runDetectors(site);
    const statuses = Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, findings[field]!.status]));
    const expected = Object.fromEntries(
      SIGNAL_FIELDS.map((field) => [field, expectation.present.includes(field) ? "present" : "absent"]),
    );
    const reasons = SIGNAL_FIELDS.map((field) => `${field}: ${findings[field]!.reason}`).join("\n");
    expect(statuses, `${expectation.reading}\n${reasons}`).toEqual(expected);
    if (expectation.endpoint) {
      expect(findings.has_mcp_server!.details).toMatchObject({ endpoint: expectation.endpoint, outcome: "compliant" });
    }
  });
});

describe("2026 corpus sites put back together", () => {
  it("laisky: catalog → card → mcp.laisky.com, Content Signals in robots.txt", async () => {
    const files = SOURCES.filter((source) => source.repo === "Laisky/laisky-blog").map((source) => source.file);
    const documents = files.map((file) => ({ path: servedPath(file), type: typeOf(file), body: readDocument(file) }));
    const findings = await runDetectors(corpusSite(documents, ["https://mcp.laisky.com/"]));
    expect(findings.has_mcp_server!.status, findings.has_mcp_server!.reason).toBe("present");
    // The catalog names the card at blog.laisky.com, another origin than this site's: the card
    // served here at the well-known path is the one that leads to the endpoint.
    expect(findings.has_robots_ai!.status).toBe("present");
    expect(findings.has_llms_txt!.status).toBe("absent");
  });

  it("stellar: the card at the well-known path → raven.stellar.org, robots.txt Content Signals", async () => {
    const files = SOURCES.filter((source) => source.repo === "stellar/stellar-docs").map((source) => source.file);
    const documents = files.map((file) => ({ path: servedPath(file), type: typeOf(file), body: readDocument(file) }));
    const findings = await runDetectors(corpusSite(documents, ["https://raven.stellar.org/mcp"]));
    expect(findings.has_mcp_server!.status, findings.has_mcp_server!.reason).toBe("present");
    expect(findings.has_mcp_server!.details).toMatchObject({ endpoint: "https://raven.stellar.org/mcp" });
    expect(findings.has_robots_ai!.status).toBe("present");
  });
});
