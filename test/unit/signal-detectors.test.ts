import { describe, expect, it } from "vitest";
import {
  combineStatus,
  decideVerdict,
  describeBlock,
  isBlockedAnswer,
  isHtmlAnswer,
  siteUrl,
} from "../../src/domain/signals/blocking.ts";
import { detectAiPlugin, readAiPluginManifest } from "../../src/domain/signals/detect-ai-plugin.ts";
import { detectLlmsTxt, readLlmsTitle } from "../../src/domain/signals/detect-llms-txt.ts";
import {
  detectOpenApi,
  OPENAPI_FRAMEWORK_PATHS,
  readOpenApiDocument,
  readServiceDescLinks,
} from "../../src/domain/signals/detect-openapi.ts";
import {
  AI_USER_AGENTS,
  detectRobotsAi,
  matchAiUserAgent,
  parseContentSignal,
  parseRobotsTxt,
} from "../../src/domain/signals/detect-robots-ai.ts";
import { detectSchemaOrg, findSchemaOrgMarkup } from "../../src/domain/signals/detect-schema-org.ts";
import {
  detectStructuredApi,
  listDeclaredApis,
  readApiCatalog,
} from "../../src/domain/signals/detect-structured-api.ts";
import type {
  FetchFailureKind,
  ProbeAnswer,
  ProbeContext,
  ProbeRequest,
  ProbeResponse,
  SignalDetector,
} from "../../src/domain/signals/types.ts";

const ORIGIN = "https://site.example";

interface FakeAnswer {
  status?: number;
  /** The content-type header; null for none. Defaults to text/plain. */
  type?: string | null;
  body?: string;
  headers?: Record<string, string>;
}

type FakeRoute = FakeAnswer | { failure: FetchFailureKind };

interface FakeCall {
  url: string;
  request: ProbeRequest | undefined;
}

function answerOf(url: string, route: FakeAnswer): ProbeAnswer {
  const headers = new Headers(route.headers);
  const type = route.type === undefined ? "text/plain" : route.type;
  if (type !== null) headers.set("content-type", type);
  return {
    ok: true,
    url,
    finalUrl: url,
    redirects: [],
    status: route.status ?? 200,
    headers,
    contentType: type === null ? null : (type.split(";")[0]?.trim().toLowerCase() ?? null),
    body: route.body ?? "",
  };
}

/**
 * A fetcher over a map of routes: keys are paths on ORIGIN ("/llms.txt"), absolute URLs, or
 * either prefixed with a method ("POST /graphql"). Anything else answers `fallback` (a 404).
 */
function fakeSite(routes: Record<string, FakeRoute>, fallback: FakeRoute = { status: 404, body: "Not found" }) {
  const calls: FakeCall[] = [];
  const fetch = async (url: string, request?: ProbeRequest): Promise<ProbeResponse> => {
    calls.push({ url, request });
    const path = url.startsWith(`${ORIGIN}/`) ? url.slice(ORIGIN.length) : url;
    const method = request?.method ?? "GET";
    const route = routes[`${method} ${path}`] ?? (method === "GET" ? routes[path] : undefined) ?? fallback;
    if ("failure" in route) {
      return { ok: false, url, finalUrl: url, redirects: [], failure: route.failure, message: `fake ${route.failure}` };
    }
    return answerOf(url, route);
  };
  const context: ProbeContext = { origin: ORIGIN, fetch };
  return { context, calls };
}

const html = (head: string, body = "<p>Hello</p>") =>
  `<!doctype html><html><head><title>Site</title>${head}</head><body>${body}</body></html>`;
const page = (head: string, body?: string): FakeAnswer => ({
  type: "text/html; charset=utf-8",
  body: html(head, body),
});
const json = (value: unknown, type = "application/json"): FakeAnswer => ({ type, body: JSON.stringify(value) });
const SOFT_404 = page("", "<h1>Page not found</h1>");
const CHALLENGE: FakeAnswer = {
  status: 503,
  type: "text/html",
  body: "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>",
};
const VALID_OPENAPI = {
  openapi: "3.1.0",
  info: { title: "Forecasts", version: "1" },
  paths: { "/forecast": { get: { responses: { 200: { description: "ok" } } } } },
};
const VALID_MANIFEST = {
  schema_version: "v1",
  name_for_human: "Forecasts",
  name_for_model: "forecasts",
  description_for_human: "Weather forecasts.",
  description_for_model: "Get weather forecasts for a place.",
  auth: { type: "none" },
  api: { type: "openapi", url: "/plugin/spec.json" },
  logo_url: "https://site.example/logo.png",
};

describe("isBlockedAnswer", () => {
  const answer = (route: FakeAnswer) => answerOf(`${ORIGIN}/x`, route);

  it("treats 401, 403 and 429 as blocked, and 404, 410 and 500 as not", () => {
    for (const status of [401, 403, 429]) expect(isBlockedAnswer(answer({ status }))).toBe(true);
    for (const status of [200, 404, 410, 500]) expect(isBlockedAnswer(answer({ status }))).toBe(false);
  });

  it("recognises challenge headers and pages", () => {
    expect(describeBlock(answer({ status: 403, headers: { "cf-mitigated": "challenge" } }))).toBe(
      "a Cloudflare challenge",
    );
    expect(isBlockedAnswer(answer({ status: 200, headers: { "cf-mitigated": "challenge" } }))).toBe(true);
    expect(isBlockedAnswer(answer({ status: 202, headers: { "x-amzn-waf-action": "challenge" } }))).toBe(true);
    expect(describeBlock(answer(CHALLENGE))).toBe("a Cloudflare challenge");
    const attention = "<html><head><title>Attention Required! | Cloudflare</title></head></html>";
    expect(isBlockedAnswer(answer({ status: 503, type: "text/html", body: attention }))).toBe(true);
    const checking = "<html><head><title>Checking your browser before accessing</title></head></html>";
    expect(isBlockedAnswer(answer({ status: 503, type: "text/html", body: checking }))).toBe(true);
    const datadome = '<html><script src="https://ct.captcha-delivery.com/c.js"></script></html>';
    expect(describeBlock(answer({ status: 200, type: "text/html", body: datadome }))).toBe("a DataDome captcha");
    const imperva = "<html><body>Request unsuccessful. Incapsula incident ID: 123-456</body></html>";
    expect(isBlockedAnswer(answer({ status: 200, type: "text/html", body: imperva }))).toBe(true);
    const perimeterx = '<html><body><div id="px-captcha"></div></body></html>';
    expect(isBlockedAnswer(answer({ status: 200, type: "text/html", body: perimeterx }))).toBe(true);
    const generic = "<html><head><title>Access Denied</title></head></html>";
    expect(isBlockedAnswer(answer({ status: 406, type: "text/html", body: generic }))).toBe(true);
  });

  it("does not mistake an ordinary page for a challenge", () => {
    const blogPost = html("", "<h1>How we replaced our captcha</h1><p>Access denied errors are rare.</p>");
    expect(isBlockedAnswer(answer({ status: 200, type: "text/html", body: blogPost }))).toBe(false);
    const accessDenied = "<html><head><title>Access Denied</title></head></html>";
    expect(isBlockedAnswer(answer({ status: 200, type: "text/html", body: accessDenied }))).toBe(false);
    expect(isBlockedAnswer(answer({ status: 503, type: "text/html", body: "<title>Maintenance</title>" }))).toBe(false);
  });
});

describe("shared helpers", () => {
  it("combines statuses: present, then blocked, then error, then absent", () => {
    expect(combineStatus(["absent", "error", "blocked", "present"])).toBe("present");
    expect(combineStatus(["absent", "error", "blocked"])).toBe("blocked");
    expect(combineStatus(["absent", "error"])).toBe("error");
    expect(combineStatus(["absent", "absent"])).toBe("absent");
    expect(combineStatus([])).toBe("absent");
  });

  it("joins the clauses of an absence into one sentence and keeps the first reason otherwise", () => {
    expect(
      decideVerdict([
        { status: "absent", reason: "/a answered 404" },
        { status: "absent", reason: "/b answered 410" },
      ]),
    ).toEqual({ status: "absent", reason: "/a answered 404; /b answered 410." });
    expect(
      decideVerdict([
        { status: "error", reason: "/a could not be fetched" },
        { status: "blocked", reason: "/b refused the crawler (403 Forbidden)" },
      ]),
    ).toEqual({ status: "blocked", reason: "/b refused the crawler (403 Forbidden)." });
  });

  it("spells site URLs one way and recognises HTML by type or by body", () => {
    expect(siteUrl(ORIGIN, "/llms.txt")).toBe("https://site.example/llms.txt");
    expect(siteUrl(ORIGIN, "robots.txt")).toBe("https://site.example/robots.txt");
    expect(isHtmlAnswer(answerOf(ORIGIN, { type: "text/plain", body: "  <!DOCTYPE html><html>" }))).toBe(true);
    expect(isHtmlAnswer(answerOf(ORIGIN, { type: null, body: "\n<html lang=en>" }))).toBe(true);
    expect(isHtmlAnswer(answerOf(ORIGIN, { type: "text/markdown", body: "# Title" }))).toBe(false);
  });
});

describe("detectLlmsTxt", () => {
  it("finds /llms.txt with an H1 title", async () => {
    const { context } = fakeSite({ "/llms.txt": { type: "text/markdown", body: "\n\n# Forecasts\n\n> Weather." } });
    const finding = await detectLlmsTxt(context);
    expect(finding.status).toBe("present");
    expect(finding.reason).toBe("llms.txt found at /llms.txt with an H1 title.");
    expect(finding.details).toEqual({ url: `${ORIGIN}/llms.txt`, title: "Forecasts", summary: "Weather." });
    expect(finding.fetched).toEqual([
      { url: `${ORIGIN}/llms.txt`, status: 200, content_type: "text/markdown" },
      { url: `${ORIGIN}/.well-known/llms.txt`, status: 404, content_type: "text/plain" },
      // The control request: a random path of the same shape, which this site answers 404.
      {
        url: expect.stringMatching(/^https:\/\/site\.example\/[0-9a-f]{20}\.txt$/),
        status: 404,
        content_type: "text/plain",
      },
    ]);
  });

  it("falls back to /.well-known/llms.txt", async () => {
    const { context } = fakeSite({ "/.well-known/llms.txt": { body: "# Well known\n" } });
    const finding = await detectLlmsTxt(context);
    expect(finding.status).toBe("present");
    expect(finding.details).toMatchObject({ url: `${ORIGIN}/.well-known/llms.txt`, title: "Well known" });
  });

  it("calls a 200 HTML page a soft 404", async () => {
    const { context } = fakeSite({}, SOFT_404);
    const finding = await detectLlmsTxt(context);
    expect(finding.status).toBe("absent");
    expect(finding.reason).toContain("/llms.txt answered 200 with an HTML page (a soft 404)");
  });

  it("rejects HTML by content type even when the body looks like Markdown", async () => {
    const { context } = fakeSite({ "/llms.txt": { type: "text/html", body: "# Title" } });
    expect((await detectLlmsTxt(context)).status).toBe("absent");
  });

  it("requires the first non-blank line to be an H1", async () => {
    const { context } = fakeSite({ "/llms.txt": { body: "Welcome to our site\n# Title" } });
    const finding = await detectLlmsTxt(context);
    expect(finding.status).toBe("absent");
    expect(finding.reason).toContain("does not start with a Markdown H1 title");
    expect(readLlmsTitle("## Second level")).toHaveProperty("problem");
    expect(readLlmsTitle("#NoSpace")).toHaveProperty("problem");
    expect(readLlmsTitle("\uFEFF# Title #\n")).toEqual({ title: "Title" });
    expect(readLlmsTitle("   \n\t\n")).toEqual({ problem: "is empty" });
  });

  it.each([
    ["Forecasts\n=========\n\n> Weather.", "Forecasts"],
    ["\n  Forecasts\n=", "Forecasts"],
    ["Forecasts for\nevery harbour\n===\n", "Forecasts for every harbour"],
    ["Forecasts\r\n====   \r\n", "Forecasts"],
    ["   # Forecasts ##", "Forecasts"],
    ["# C#", "C#"],
  ])("reads the H1 title of %j, in ATX or setext form", (body, title) => {
    expect(readLlmsTitle(body)).toEqual({ title });
  });

  it.each([
    ["Forecasts\n---------", "starts with a level-2 heading, not an H1 title"],
    ["## Forecasts", "starts with a level-2 heading, not an H1 title"],
    ["#", "starts with an empty H1 title"],
    ["# #", "starts with an empty H1 title"],
    ["    # Forecasts", "does not start with a Markdown H1 title (# Title, or Title underlined with ===)"],
    ["Forecasts\n\n=====", "does not start with a Markdown H1 title (# Title, or Title underlined with ===)"],
    ["- Forecasts\n=====", "does not start with a Markdown H1 title (# Title, or Title underlined with ===)"],
    ["> Forecasts\n=====", "does not start with a Markdown H1 title (# Title, or Title underlined with ===)"],
    [
      "User-agent: *\nDisallow: /\n# comment",
      "does not start with a Markdown H1 title (# Title, or Title underlined with ===)",
    ],
  ])("finds no H1 title in %j", (body, problem) => {
    expect(readLlmsTitle(body)).toEqual({ problem });
  });

  it("finds an llms.txt whose title is underlined", async () => {
    const { context } = fakeSite({ "/llms.txt": { body: "Site Index\n==========\n\nAbout\n-----\n" } });
    const finding = await detectLlmsTxt(context);
    expect(finding.status).toBe("present");
    expect(finding.details).toMatchObject({ title: "Site Index" });
  });

  it("needs exactly 200", async () => {
    const { context } = fakeSite({ "/llms.txt": { status: 203, body: "# Title" } });
    expect((await detectLlmsTxt(context)).status).toBe("absent");
  });

  it("reports 403 and challenge pages as blocked, failures and 5xx as errors", async () => {
    expect((await detectLlmsTxt(fakeSite({}, { status: 403 }).context)).status).toBe("blocked");
    expect((await detectLlmsTxt(fakeSite({}, CHALLENGE).context)).status).toBe("blocked");
    const timeout = await detectLlmsTxt(fakeSite({}, { failure: "timeout" }).context);
    expect(timeout.status).toBe("error");
    expect(timeout.reason).toBe("/llms.txt could not be fetched: fake timeout.");
    expect(timeout.fetched[0]).toEqual({ url: `${ORIGIN}/llms.txt`, status: null, content_type: null });
    expect((await detectLlmsTxt(fakeSite({}, { status: 502 }).context)).status).toBe("error");
  });

  it("lets one proof outweigh a block, and a block outweigh an error", async () => {
    const proof = fakeSite({ "/llms.txt": { status: 403 }, "/.well-known/llms.txt": { body: "# T" } });
    expect((await detectLlmsTxt(proof.context)).status).toBe("present");
    const mixed = fakeSite({ "/llms.txt": { failure: "network" }, "/.well-known/llms.txt": { status: 429 } });
    expect((await detectLlmsTxt(mixed.context)).status).toBe("blocked");
  });
});

describe("detectAiPlugin", () => {
  it("accepts a complete manifest and resolves api.url against it", async () => {
    const { context } = fakeSite({ "/.well-known/ai-plugin.json": json(VALID_MANIFEST) });
    const finding = await detectAiPlugin(context);
    expect(finding.status).toBe("present");
    expect(finding.details).toEqual({ api_url: `${ORIGIN}/plugin/spec.json`, name_for_human: "Forecasts" });
  });

  it("names what a manifest lacks", async () => {
    const { description_for_model: _dropped, ...partial } = VALID_MANIFEST;
    const { context } = fakeSite({ "/.well-known/ai-plugin.json": json({ ...partial, auth: {} }) });
    const finding = await detectAiPlugin(context);
    expect(finding.status).toBe("absent");
    expect(finding.reason).toContain("description_for_model is missing or not a string");
    expect(finding.reason).toContain("auth has no type");
  });

  it("requires an api object with a type and an http(s) url", () => {
    const noUrl = readAiPluginManifest(JSON.stringify({ ...VALID_MANIFEST, api: { type: "openapi" } }), ORIGIN);
    expect(noUrl?.problems).toEqual(["api.url is missing or not an http(s) URL"]);
    const badScheme = { ...VALID_MANIFEST, api: { type: "openapi", url: "javascript:alert(1)" } };
    expect(readAiPluginManifest(JSON.stringify(badScheme), ORIGIN)?.apiUrl).toBeNull();
    expect(readAiPluginManifest("[1,2]", ORIGIN)).toBeNull();
  });

  it("reads an api.url of host:port without a scheme with the manifest's scheme", () => {
    const manifest = (url: string) => JSON.stringify({ ...VALID_MANIFEST, api: { type: "openapi", url } });
    const read = (url: string, at: string) => readAiPluginManifest(manifest(url), at);
    expect(read("localhost:5003/openapi.yaml", "http://localhost:5003/.well-known/ai-plugin.json")).toMatchObject({
      problems: [],
      apiUrl: "http://localhost:5003/openapi.yaml",
    });
    expect(read("api.site.example:8443/spec.json", `${ORIGIN}/.well-known/ai-plugin.json`)?.apiUrl).toBe(
      "https://api.site.example:8443/spec.json",
    );
    // Without a port it is a valid relative path, and stays one.
    expect(read("site.example/openapi.yaml", `${ORIGIN}/.well-known/ai-plugin.json`)?.apiUrl).toBe(
      `${ORIGIN}/.well-known/site.example/openapi.yaml`,
    );
  });

  it("refuses an api.url that opens with an unfilled template placeholder", () => {
    // "${HOST}" spelt without a template literal's own placeholder syntax.
    for (const url of ["$host/.well-known/openapi.yaml", "$" + "{HOST}/openapi.json", "{{ host }}/openapi.json"]) {
      const read = readAiPluginManifest(JSON.stringify({ ...VALID_MANIFEST, api: { type: "openapi", url } }), ORIGIN);
      expect(read?.apiUrl, url).toBeNull();
      expect(read?.problems[0], url).toMatch(/starts with a template placeholder that was never filled in/);
    }
    const odata = { ...VALID_MANIFEST, api: { type: "openapi", url: "/odata/$metadata" } };
    expect(readAiPluginManifest(JSON.stringify(odata), ORIGIN)?.apiUrl).toBe(`${ORIGIN}/odata/$metadata`);
  });

  it("rejects non-JSON and soft 404s, and reports blocks", async () => {
    expect((await detectAiPlugin(fakeSite({ "/.well-known/ai-plugin.json": { body: "hi" } }).context)).status).toBe(
      "absent",
    );
    expect((await detectAiPlugin(fakeSite({}, SOFT_404).context)).reason).toContain("soft 404");
    expect((await detectAiPlugin(fakeSite({}, { status: 429 }).context)).status).toBe("blocked");
  });
});

describe("detectOpenApi", () => {
  it("finds a document at a common path", async () => {
    const { context } = fakeSite({ "/openapi.json": json(VALID_OPENAPI) });
    const finding = await detectOpenApi(context);
    expect(finding.status).toBe("present");
    expect(finding.reason).toBe("OpenAPI 3.1.0 document found at /openapi.json.");
    expect(finding.details).toEqual({
      url: `${ORIGIN}/openapi.json`,
      version: "3.1.0",
      title: "Forecasts",
      path_count: 1,
      operations: [],
      tags: [],
      found_via: "common path",
    });
  });

  it("reads Swagger 2 YAML", async () => {
    const yaml = "swagger: '2.0'\ninfo:\n  title: Old\n  version: '1'\npaths:\n  /pets:\n    get: {}\n";
    const { context } = fakeSite({ "/swagger.yaml": { type: "application/yaml", body: yaml } });
    const finding = await detectOpenApi(context);
    expect(finding.status).toBe("present");
    expect(finding.details).toMatchObject({ version: "2.0", title: "Old", found_via: "common path" });
  });

  it("follows the API catalog to YAML at an unusual path, relative to the catalog", async () => {
    const catalog = {
      linkset: [
        {
          anchor: "https://api.site.example/v2/",
          "service-desc": [{ href: "../specs/v2/spec.yaml", type: "application/yaml" }],
        },
      ],
    };
    const yaml = "openapi: 3.0.3\ninfo:\n  title: V2\n  version: '2'\npaths:\n  /a: {}\n  /b: {}\n";
    const { context, calls } = fakeSite({
      "/.well-known/api-catalog": json(catalog, "application/linkset+json"),
      "/specs/v2/spec.yaml": { type: "text/yaml", body: yaml },
    });
    const finding = await detectOpenApi(context);
    expect(finding.status).toBe("present");
    expect(finding.details).toEqual({
      url: `${ORIGIN}/specs/v2/spec.yaml`,
      version: "3.0.3",
      title: "V2",
      path_count: 2,
      operations: [],
      tags: [],
      found_via: "api-catalog",
    });
    expect(finding.reason).toContain("named by the API catalog");
    expect(calls.filter((call) => call.url === `${ORIGIN}/specs/v2/spec.yaml`)).toHaveLength(1);
  });

  it("accepts a catalog served as plain application/json", async () => {
    const catalog = { linkset: [{ anchor: `${ORIGIN}/api`, "service-desc": [{ href: "/x/spec.json" }] }] };
    const { context } = fakeSite({
      "/.well-known/api-catalog": json(catalog),
      "/x/spec.json": json(VALID_OPENAPI),
    });
    expect((await detectOpenApi(context)).details).toMatchObject({ found_via: "api-catalog" });
  });

  it("follows a Link header with rel=service-desc on the home page", async () => {
    const { context } = fakeSite({
      "/": {
        ...page(""),
        headers: {
          link: '</style.css>; rel=preload, </internal/spec.json>; rel="service-desc"; type="application/json"',
        },
      },
      "/internal/spec.json": json(VALID_OPENAPI),
    });
    const finding = await detectOpenApi(context);
    expect(finding.status).toBe("present");
    expect(finding.details).toMatchObject({ url: `${ORIGIN}/internal/spec.json`, found_via: "link header" });
  });

  it("parses Link headers with several relations and unquoted values", () => {
    const header =
      '<https://a.example/one>; rel="describedby service-desc", <two.json>;rel=service-desc, <x>; rel=next';
    expect(readServiceDescLinks(header, `${ORIGIN}/docs/`)).toEqual([
      "https://a.example/one",
      `${ORIGIN}/docs/two.json`,
    ]);
    expect(readServiceDescLinks(null, ORIGIN)).toEqual([]);
  });

  it("follows the plugin manifest's api.url", async () => {
    const { context } = fakeSite({
      "/.well-known/ai-plugin.json": json(VALID_MANIFEST),
      "/plugin/spec.json": json(VALID_OPENAPI),
    });
    const finding = await detectOpenApi(context);
    expect(finding.details).toMatchObject({ url: `${ORIGIN}/plugin/spec.json`, found_via: "ai-plugin" });
  });

  it("needs at least one path", async () => {
    const { context } = fakeSite({ "/openapi.json": json({ ...VALID_OPENAPI, paths: {} }) });
    const finding = await detectOpenApi(context);
    expect(finding.status).toBe("absent");
    expect(finding.reason).toBe("/openapi.json is an OpenAPI 3.1.0 document with no paths.");
    expect(readOpenApiDocument(JSON.stringify({ openapi: "3.1.0" }))).toHaveProperty("problem");
    expect(readOpenApiDocument(JSON.stringify({ openapi: 3, paths: { "/a": {} } }))).toHaveProperty("problem");
  });

  it("says so when a document describes webhooks only", () => {
    const webhooks = { openapi: "3.1.0", info: { title: "Hooks", version: "1" }, webhooks: { newPet: { post: {} } } };
    expect(readOpenApiDocument(JSON.stringify(webhooks))).toEqual({
      problem: "is an OpenAPI 3.1.0 document that describes webhooks only, no paths",
    });
  });

  it("survives an alias bomb", () => {
    const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 0; i < 20; i++) {
      const previous = i === 0 ? "a" : `b${i - 1}`;
      lines.push(`b${i}: &b${i} [*${previous}, *${previous}, *${previous}, *${previous}, *${previous}]`);
    }
    lines.push("openapi: 3.1.0", "paths:", "  /a: *b19");
    const started = Date.now();
    expect(readOpenApiDocument(lines.join("\n"))).toHaveProperty("problem");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("says where it looked when nothing is found", async () => {
    const finding = await detectOpenApi(fakeSite({}).context);
    expect(finding.status).toBe("absent");
    expect(finding.reason).toBe(
      "No OpenAPI document at 11 common paths, and no AI Catalog, API catalog, Link header or plugin manifest named one, nor at 6 web frameworks' default paths.",
    );
    // 11 common paths, the API catalog, the home page, the manifest, the AI Catalog, 6 framework defaults.
    expect(finding.fetched).toHaveLength(21);
  });

  it("finds a document nothing links to at a web framework's default path, after everything else", async () => {
    const { context, calls } = fakeSite({ "/swagger/v1/swagger.json": json(VALID_OPENAPI) });
    const finding = await detectOpenApi(context);
    expect(finding.status).toBe("present");
    expect(finding.reason).toBe(
      "OpenAPI 3.1.0 document found at /swagger/v1/swagger.json (a web framework's default path).",
    );
    expect(finding.details).toMatchObject({ url: `${ORIGIN}/swagger/v1/swagger.json`, found_via: "framework default" });
    // The control request that proved the document is no catch-all page comes last.
    const urls = calls.map((call) => call.url.slice(ORIGIN.length)).filter((url) => !/^\/[0-9a-f]{20}\.txt$/.test(url));
    expect(calls.at(-1)?.url).toMatch(/\/[0-9a-f]{20}\.txt$/);
    expect(urls.slice(-OPENAPI_FRAMEWORK_PATHS.length)).toEqual([...OPENAPI_FRAMEWORK_PATHS]);
    expect(urls.slice(0, -OPENAPI_FRAMEWORK_PATHS.length)).not.toContain("/swagger/v1/swagger.json");
  });

  it.each(OPENAPI_FRAMEWORK_PATHS)("tries the framework default %s", async (path) => {
    const finding = await detectOpenApi(fakeSite({ [path]: json(VALID_OPENAPI) }).context);
    expect(finding.details).toMatchObject({ found_via: "framework default" });
  });

  it("fetches no framework default once a document is found, nor on a site that refused or ignored every common path", async () => {
    const tried = async (routes: Record<string, FakeRoute>, fallback?: FakeRoute) => {
      const { context, calls } = fakeSite(routes, fallback);
      await detectOpenApi(context);
      return calls.filter((call) => call.url.endsWith("/swagger/v1/swagger.json")).length;
    };
    expect(await tried({ "/openapi.json": json(VALID_OPENAPI) })).toBe(0);
    expect(
      await tried({ "/.well-known/ai-plugin.json": json(VALID_MANIFEST), "/plugin/spec.json": json(VALID_OPENAPI) }),
    ).toBe(0);
    expect(await tried({}, { status: 403 })).toBe(0);
    expect(await tried({}, CHALLENGE)).toBe(0);
    expect(await tried({}, { failure: "timeout" })).toBe(0);
    expect(await tried({})).toBe(1);
  });

  it("fetches a default path a catalog names as that document, once", async () => {
    const catalog = { linkset: [{ anchor: "/api/", "service-desc": [{ href: "/swagger/v1/swagger.json" }] }] };
    const { context, calls } = fakeSite({
      "/.well-known/api-catalog": json(catalog, "application/linkset+json"),
      "/swagger/v1/swagger.json": json(VALID_OPENAPI),
    });
    const finding = await detectOpenApi(context);
    expect(finding.details).toMatchObject({ found_via: "api-catalog" });
    expect(calls.filter((call) => call.url.endsWith("/swagger/v1/swagger.json"))).toHaveLength(1);
  });

  it("reports blocked and failed document probes, but not a failed home page", async () => {
    expect((await detectOpenApi(fakeSite({ "/openapi.json": { status: 403 } }).context)).status).toBe("blocked");
    expect((await detectOpenApi(fakeSite({ "/swagger.json": { failure: "timeout" } }).context)).status).toBe("error");
    expect((await detectOpenApi(fakeSite({ "/": { failure: "too_large" } }).context)).status).toBe("absent");
    expect((await detectOpenApi(fakeSite({}, { status: 403 }).context)).status).toBe("blocked");
  });
});

describe("detectStructuredApi", () => {
  it("is present when the API catalog declares an API", async () => {
    const catalog = {
      linkset: [
        {
          anchor: "/api/v2/",
          "service-desc": [{ href: "/api/v2/openapi.json" }],
          "service-doc": [{ href: "/docs" }],
        },
      ],
    };
    const { context } = fakeSite({ "/.well-known/api-catalog": json(catalog, "application/linkset+json") });
    const finding = await detectStructuredApi(context);
    expect(finding.status).toBe("present");
    expect(finding.reason).toBe("The API catalog at /.well-known/api-catalog declares an API.");
    expect(finding.details).toEqual({
      kind: "api-catalog",
      url: `${ORIGIN}/.well-known/api-catalog`,
      kinds: ["api-catalog"],
      catalog_apis: [`${ORIGIN}/api/v2/`],
    });
  });

  it("counts item links of a catalog, but not one that only points at a description file", () => {
    const read = (linkset: unknown[]) =>
      readApiCatalog(answerOf(`${ORIGIN}/.well-known/api-catalog`, json({ linkset })))!;
    const items = read([{ anchor: `${ORIGIN}/.well-known/api-catalog`, item: [{ href: "https://api.example/v1" }] }]);
    expect(listDeclaredApis(items)).toEqual(["https://api.example/v1"]);
    const noAnchor = read([{ "service-desc": [{ href: "/openapi.json" }] }]);
    expect(listDeclaredApis(noAnchor)).toEqual([]);
    const selfDescribed = read([{ anchor: "/openapi.json", "service-desc": [{ href: "/openapi.json" }] }]);
    expect(listDeclaredApis(selfDescribed)).toEqual([]);
    expect(readApiCatalog(answerOf(ORIGIN, json({ links: [] })))).toBeNull();
  });

  it("is absent when the catalog declares no endpoint", async () => {
    const catalog = { linkset: [{ "service-desc": [{ href: "/openapi.json" }] }] };
    const finding = await detectStructuredApi(fakeSite({ "/.well-known/api-catalog": json(catalog) }).context);
    expect(finding.status).toBe("absent");
    expect(finding.reason).toContain("declares no API endpoint");
  });

  it("finds GraphQL with a POSTed {__typename} query", async () => {
    const { context, calls } = fakeSite({ "POST /graphql": json({ data: { __typename: "Query" } }) });
    const finding = await detectStructuredApi(context);
    expect(finding.status).toBe("present");
    expect(finding.details).toMatchObject({ kind: "graphql", url: `${ORIGIN}/graphql` });
    const graphql = calls.find((call) => call.url === `${ORIGIN}/graphql`)!;
    expect(graphql.request).toMatchObject({ method: "POST", body: '{"query":"{__typename}"}' });
    expect(graphql.request?.headers?.["content-type"]).toBe("application/json");
  });

  it("rejects GraphQL answers without data.__typename", async () => {
    const errors = fakeSite({ "POST /graphql": json({ errors: [{ message: "no" }] }) });
    expect((await detectStructuredApi(errors.context)).status).toBe("absent");
  });

  it("finds a JSON API root at /api or /api/v1", async () => {
    const root = fakeSite({ "/api": json({ version: "1", links: { users: "/api/users" } }) });
    expect((await detectStructuredApi(root.context)).details).toMatchObject({ kind: "json-api", url: `${ORIGIN}/api` });
    const v1 = fakeSite({ "/api/v1": json([{ id: 1 }], "application/vnd.api+json") });
    expect((await detectStructuredApi(v1.context)).details).toMatchObject({ url: `${ORIGIN}/api/v1` });
  });

  it("rejects error objects, empty bodies, HTML and non-JSON types at /api", async () => {
    const cases: FakeAnswer[] = [
      json({ error: "not found", status: 404 }),
      json({}),
      json([]),
      json({ title: "Not Found", status: 404 }, "application/problem+json"),
      page(""),
      { type: "text/plain", body: '{"a":1}' },
    ];
    for (const answer of cases) {
      expect((await detectStructuredApi(fakeSite({ "/api": answer }).context)).status).toBe("absent");
    }
  });

  it("takes a POST refused with 405 or 501 (a static server) as absent, and a 503 as undecided", async () => {
    for (const status of [404, 405, 501]) {
      const finding = await detectStructuredApi(fakeSite({ "POST /graphql": { status } }).context);
      expect(finding.status, String(status)).toBe("absent");
    }
    expect((await detectStructuredApi(fakeSite({ "POST /graphql": { status: 503 } }).context)).status).toBe("error");
  });

  it("reports blocks and errors across its probes", async () => {
    expect((await detectStructuredApi(fakeSite({ "POST /graphql": { status: 403 } }).context)).status).toBe("blocked");
    expect((await detectStructuredApi(fakeSite({ "/api": { failure: "network" } }).context)).status).toBe("error");
    const absent = await detectStructuredApi(fakeSite({}).context);
    expect(absent.status).toBe("absent");
    expect(absent.fetched.map((record) => record.url)).toEqual([
      `${ORIGIN}/.well-known/api-catalog`,
      `${ORIGIN}/graphql`,
      `${ORIGIN}/api`,
      `${ORIGIN}/api/v1`,
    ]);
  });
});

describe("detectRobotsAi", () => {
  it("finds groups naming AI crawlers, whatever their case", async () => {
    const robots =
      "# rules\nUser-agent: *\nDisallow: /private\n\nuser-AGENT: claudebot\nUser-agent: GPTBot/1.1\nDisallow: /\n";
    const finding = await detectRobotsAi(fakeSite({ "/robots.txt": { body: robots } }).context);
    expect(finding.status).toBe("present");
    expect(finding.reason).toBe("/robots.txt names 2 AI crawlers (ClaudeBot, GPTBot).");
    expect(finding.details).toEqual({ agents: ["ClaudeBot", "GPTBot"], content_signals: null, content_usage: null });
  });

  it("counts a Content-Signal line alone", async () => {
    const robots = "Content-Signal: search=yes, ai-train=no, ai-input=YES, junk\n";
    const finding = await detectRobotsAi(fakeSite({ "/robots.txt": { body: robots } }).context);
    expect(finding.status).toBe("present");
    expect(finding.details).toEqual({
      agents: [],
      content_signals: { search: "yes", "ai-train": "no", "ai-input": "yes" },
      content_usage: null,
    });
  });

  it("does not count a User-agent: * group alone, nor an empty Content-Signal", async () => {
    const robots = "User-agent: *\nDisallow: /admin\nContent-Signal:\nSitemap: https://site.example/sitemap.xml\n";
    const finding = await detectRobotsAi(fakeSite({ "/robots.txt": { body: robots } }).context);
    expect(finding.status).toBe("absent");
    expect(finding.reason).toBe("/robots.txt names no AI crawler and has no Content-Signal or Content-Usage line.");
  });

  it("parses groups as RFC 9309 does", () => {
    const robots = parseRobotsTxt(
      "Disallow: /orphan\nUser-agent: a\nUser-agent: b # two agents\nAllow: /x\nSitemap: /s\nDisallow: /y\nUser-agent: c\nDisallow:\n",
    );
    expect(robots.groups).toEqual([
      {
        userAgents: ["a", "b"],
        rules: [
          { allow: true, path: "/x" },
          { allow: false, path: "/y" },
        ],
      },
      { userAgents: ["c"], rules: [{ allow: false, path: "" }] },
    ]);
    expect(parseContentSignal("search = yes ,ai-train=maybe")).toEqual({ search: "yes" });
    expect(matchAiUserAgent("kangaroo bot")).toBe("Kangaroo Bot");
    expect(matchAiUserAgent("Googlebot")).toBeNull();
    expect(AI_USER_AGENTS).not.toContain("Scrapy");
  });

  it("reads only 2xx answers: 404 is no rules, 403 blocked, 500 an error, HTML a soft 404", async () => {
    expect((await detectRobotsAi(fakeSite({}).context)).status).toBe("absent");
    expect((await detectRobotsAi(fakeSite({ "/robots.txt": { status: 403 } }).context)).status).toBe("blocked");
    expect(
      (await detectRobotsAi(fakeSite({ "/robots.txt": { status: 500, body: "User-agent: GPTBot" } }).context)).status,
    ).toBe("error");
    const soft = await detectRobotsAi(fakeSite({}, SOFT_404).context);
    expect(soft.status).toBe("absent");
    expect(soft.reason).toContain("soft 404");
  });
});

describe("detectSchemaOrg", () => {
  const ld = (value: unknown, type = "application/ld+json") =>
    `<script type="${type}">${JSON.stringify(value)}</script>`;

  it("finds JSON-LD with an https or http context", async () => {
    const home = page(ld({ "@context": "https://schema.org", "@type": "Organization", name: "Acme" }));
    const finding = await detectSchemaOrg(fakeSite({ "/": home }).context);
    expect(finding.status).toBe("present");
    expect(finding.reason).toBe("schema.org JSON-LD on the home page (Organization).");
    expect(finding.details).toEqual({ types: ["Organization"], formats: ["json-ld"] });
    expect(findSchemaOrgMarkup(ld({ "@context": "http://schema.org/", "@type": ["WebSite", "Thing"] })).types).toEqual([
      "WebSite",
      "Thing",
    ]);
  });

  it("reads arrays, @graph and nested nodes, inheriting the context", () => {
    const graph = {
      "@context": ["https://schema.org", { ex: "https://example.org/" }],
      "@graph": [
        { "@type": "WebSite", publisher: { "@type": "Organization", logo: { "@type": "ImageObject" } } },
        { "@type": "schema:WebPage" },
      ],
    };
    expect(findSchemaOrgMarkup(ld(graph)).types).toEqual(["WebSite", "Organization", "ImageObject", "WebPage"]);
    const array = [
      { "@context": "https://schema.org", "@type": "Product" },
      { "@context": { "@vocab": "https://schema.org/" }, "@type": "https://schema.org/Offer" },
    ];
    expect(findSchemaOrgMarkup(ld(array, "application/ld+json; charset=utf-8")).types).toEqual(["Product", "Offer"]);
  });

  it("ignores JSON-LD without a schema.org context or a type, and broken JSON", () => {
    expect(findSchemaOrgMarkup(ld({ "@context": "https://example.org/", "@type": "Thing" })).formats).toEqual([]);
    expect(findSchemaOrgMarkup(ld({ "@context": "https://schema.org" })).formats).toEqual([]);
    expect(findSchemaOrgMarkup(ld({ "@type": "Organization" })).formats).toEqual([]);
    expect(findSchemaOrgMarkup('<script type="application/ld+json">{"@context": </script>').formats).toEqual([]);
    expect(
      findSchemaOrgMarkup(ld({ "@context": "https://schema.org", "@type": "X" }, "application/json")).formats,
    ).toEqual([]);
    expect(
      findSchemaOrgMarkup(`<!-- ${ld({ "@context": "https://schema.org", "@type": "Organization" })} -->`).formats,
    ).toEqual([]);
  });

  it("finds microdata", async () => {
    const body = '<div itemscope itemtype="https://schema.org/LocalBusiness"><span itemprop="name">Shop</span></div>';
    const finding = await detectSchemaOrg(fakeSite({ "/": page("", body) }).context);
    expect(finding.status).toBe("present");
    expect(finding.details).toEqual({ types: ["LocalBusiness"], formats: ["microdata"] });
    expect(findSchemaOrgMarkup('<div itemtype="https://schema.org/Thing">').formats).toEqual([]);
    expect(findSchemaOrgMarkup('<div itemscope itemtype="https://example.org/Thing">').formats).toEqual([]);
  });

  it("finds RDFa with a schema.org vocab or prefix", () => {
    const vocab = '<body vocab="http://schema.org/"><div typeof="Person"><span property="name">Ann</span></div></body>';
    expect(findSchemaOrgMarkup(vocab)).toEqual({ formats: ["rdfa"], types: ["Person"] });
    const prefix = '<html prefix="og: https://ogp.me/ns# schema: https://schema.org/"><div typeof="schema:Event">';
    expect(findSchemaOrgMarkup(prefix)).toEqual({ formats: ["rdfa"], types: ["Event"] });
    expect(findSchemaOrgMarkup('<div typeof="Person">').formats).toEqual([]);
  });

  it("keeps at most 10 types", async () => {
    const types = Array.from({ length: 14 }, (_, i) => ({ "@type": `Type${i}` }));
    const home = page(ld({ "@context": "https://schema.org", "@graph": types }));
    const finding = await detectSchemaOrg(fakeSite({ "/": home }).context);
    expect(finding.details?.types).toHaveLength(10);
  });

  it("needs a 200 HTML home page", async () => {
    const notHtml = await detectSchemaOrg(fakeSite({ "/": json({ "@context": "https://schema.org" }) }).context);
    expect(notHtml.status).toBe("absent");
    expect(notHtml.reason).toBe("The home page is not HTML (application/json).");
    const missing = await detectSchemaOrg(fakeSite({}).context);
    expect(missing.reason).toBe("The home page answered 404.");
    expect((await detectSchemaOrg(fakeSite({ "/": { status: 403 } }).context)).status).toBe("blocked");
    expect((await detectSchemaOrg(fakeSite({ "/": CHALLENGE }).context)).status).toBe("blocked");
    expect((await detectSchemaOrg(fakeSite({ "/": { failure: "timeout" } }).context)).status).toBe("error");
    expect((await detectSchemaOrg(fakeSite({ "/": { failure: "too_large" } }).context)).status).toBe("error");
  });
});

describe("the six detectors together", () => {
  const detectors: SignalDetector[] = [
    detectLlmsTxt,
    detectAiPlugin,
    detectOpenApi,
    detectStructuredApi,
    detectRobotsAi,
    detectSchemaOrg,
  ];

  it("ask for every shared document with the same URL string and request", async () => {
    const { context, calls } = fakeSite({
      "/": page(""),
      "/.well-known/api-catalog": json({ linkset: [] }),
      "/.well-known/ai-plugin.json": json(VALID_MANIFEST),
    });
    await Promise.all(detectors.map((detect) => detect(context)));
    const requestsByUrl = new Map<string, Set<string>>();
    for (const call of calls) {
      const requests = requestsByUrl.get(call.url) ?? new Set<string>();
      requests.add(JSON.stringify(call.request ?? null));
      requestsByUrl.set(call.url, requests);
    }
    for (const [url, requests] of requestsByUrl) expect([url, requests.size]).toEqual([url, 1]);
    const count = (url: string) => calls.filter((call) => call.url === url).length;
    // The OpenAPI (Link header), schema.org and AI-rules (Content-Usage header) detectors, and the
    // crawl's look for a catalog the home page links to (rel="ai-catalog"); a crawl's fetcher is
    // memoised, so the site sees one request.
    expect(count(`${ORIGIN}/`)).toBe(4);
    expect(count(`${ORIGIN}/.well-known/api-catalog`)).toBe(2);
    expect(count(`${ORIGIN}/.well-known/ai-plugin.json`)).toBe(2);
    expect(calls.every((call) => !call.url.includes("//", 8))).toBe(true);
  });

  it("fetch independent URLs side by side: a whole wave is asked before any of it is answered", async () => {
    const { context } = fakeSite({});
    const widestWaves: number[] = [];
    for (const detect of [detectLlmsTxt, detectOpenApi, detectStructuredApi]) {
      // No answer is given until the detector has asked all it can without one; then the whole
      // wave is answered at once. The widest wave is how many requests it had in flight together.
      const unanswered: (() => void)[] = [];
      const gated: ProbeContext = {
        origin: ORIGIN,
        fetch: async (url, request) => {
          await new Promise<void>((answer) => unanswered.push(answer));
          return context.fetch(url, request);
        },
      };
      let finished = false;
      const detection = detect(gated).finally(() => {
        finished = true;
      });
      const waves: number[] = [];
      while (!finished) {
        await new Promise((settled) => setImmediate(settled));
        if (unanswered.length > 0) waves.push(unanswered.length);
        for (const answer of unanswered.splice(0)) answer();
      }
      await detection;
      widestWaves.push(Math.max(...waves));
    }
    // OpenAPI: 11 common paths, the API catalog, the home page, the manifest, the ARD manifest at
    // both its paths (/.well-known/ard.json and /.well-known/ai-catalog.json), and the home page
    // and robots.txt again for their ard / ai-catalog link and Agentmap line (unmemoised here).
    expect(widestWaves).toEqual([2, 18, 4]);
  });
});
