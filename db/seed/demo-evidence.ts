/**
 * The signal evidence of a synthetic demo site: what the crawler's own detectors record when they
 * crawl an in-memory site serving the documents of that site's signals. So demo evidence has
 * exactly the shape, wording and list of fetches of real evidence, and follows the detectors when
 * they change. Nothing here touches the network.
 *
 * The synthetic site: a home page (with schema.org JSON-LD when it has that signal), a robots.txt
 * (naming AI crawlers and setting Content Signals, or only a `*` group), /llms.txt, the AI plugin
 * manifest, /openapi.json, an API catalog naming /api/v1 (which answers JSON), and a stateless MCP
 * server at /mcp, each only when the site has the signal; everything else is an HTML 404.
 */
import { createConcurrencyLimiter, WORKER_CONNECTION_LIMIT } from "../../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite, signalEvidence } from "../../src/domain/crawling/crawl-site.ts";
import type { Signals } from "../../src/domain/scoring/agentic-score.ts";
import type { ProbeAnswer, ProbeRequest, SignalEvidence } from "../../src/domain/signals/types.ts";
import { SIGNAL_FIELDS, type SignalField } from "../../src/domain/sites/site-fields.ts";

/** The host the detectors crawl once per signal set; each site's own domain replaces it. */
const TEMPLATE_HOST = "synthetic-demo-site.example";
const TEMPLATE_ORIGIN = `https://${TEMPLATE_HOST}`;

/** The MCP server's name, which the evidence quotes: it says plainly that the site is synthetic. */
export const DEMO_MCP_SERVER_NAME = "Synthetic demo MCP server";

const DEMO_TOOLS = ["search", "get_item", "create_order"].map((name) => ({
  name,
  description: `Synthetic demo tool ${name}`,
  inputSchema: { type: "object", properties: {} },
}));

type Answer = { status: number; contentType: string | null; body: string };

const NOT_FOUND: Answer = {
  status: 404,
  contentType: "text/html",
  body: "<!doctype html><html><head><title>Not found</title></head><body><h1>Not found</h1></body></html>",
};

const json = (value: unknown, contentType = "application/json"): Answer => ({
  status: 200,
  contentType,
  body: JSON.stringify(value),
});

function homePage(signals: Signals): Answer {
  const jsonLd = signals.has_schema_org
    ? `<script type="application/ld+json">${JSON.stringify({
        "@context": "https://schema.org",
        "@graph": [
          { "@type": "Organization", name: "Synthetic demo site", url: `${TEMPLATE_ORIGIN}/` },
          { "@type": "WebSite", name: "Synthetic demo site", url: `${TEMPLATE_ORIGIN}/` },
        ],
      })}</script>`
    : "";
  return {
    status: 200,
    contentType: "text/html",
    body: `<!doctype html><html><head><title>Synthetic demo site</title>${jsonLd}</head><body><h1>Synthetic demo site</h1><p>This site does not exist; it is part of a synthetic demo index.</p></body></html>`,
  };
}

function robotsTxt(signals: Signals): Answer {
  const aiRules = signals.has_robots_ai
    ? "User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: PerplexityBot\nAllow: /\n\nContent-Signal: search=yes, ai-input=yes, ai-train=no\n\n"
    : "";
  return { status: 200, contentType: "text/plain", body: `${aiRules}User-agent: *\nAllow: /\n` };
}

/** A stateless Streamable HTTP MCP server answering in JSON: initialize, the notification, tools/list. */
function mcpAnswer(request: ProbeRequest): Answer {
  if (request.method !== "POST") return { status: 405, contentType: null, body: "" };
  let message: { id?: number; method?: string } = {};
  try {
    message = JSON.parse(request.body ?? "{}") as typeof message;
  } catch {
    return json({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  }
  if (message.method === "initialize") {
    return json({
      jsonrpc: "2.0",
      id: message.id,
      result: {
        protocolVersion: "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: DEMO_MCP_SERVER_NAME, version: "1.0.0" },
      },
    });
  }
  if (message.method === "notifications/initialized") return { status: 202, contentType: null, body: "" };
  if (message.method === "tools/list") return json({ jsonrpc: "2.0", id: message.id, result: { tools: DEMO_TOOLS } });
  return json({ jsonrpc: "2.0", id: message.id ?? null, error: { code: -32601, message: "Method not found" } });
}

/** What the synthetic site with `signals` answers to one request. */
function demoSiteAnswer(signals: Signals, url: string, request: ProbeRequest): Answer {
  const path = new URL(url).pathname;
  const get = (request.method ?? "GET") === "GET";
  if (path === "/mcp" && signals.has_mcp_server) return mcpAnswer(request);
  if (!get) return NOT_FOUND;
  switch (path) {
    case "/":
      return homePage(signals);
    case "/robots.txt":
      return robotsTxt(signals);
    case "/llms.txt":
      if (signals.has_llms_txt) {
        return {
          status: 200,
          contentType: "text/plain",
          body: "# Synthetic demo site\n\n> A site of the synthetic demo index; it does not exist.\n\n## Docs\n\n- [API](/api/v1): the JSON API\n",
        };
      }
      break;
    case "/.well-known/ai-plugin.json":
      if (signals.has_ai_plugin) {
        return json({
          schema_version: "v1",
          name_for_human: "Synthetic demo site",
          name_for_model: "synthetic_demo_site",
          description_for_human: "A site of the synthetic demo index.",
          description_for_model: "A synthetic site; it does not exist.",
          auth: { type: "none" },
          api: { type: "openapi", url: `${TEMPLATE_ORIGIN}/openapi.json` },
          logo_url: `${TEMPLATE_ORIGIN}/logo.png`,
          contact_email: "contact@example.com",
          legal_info_url: `${TEMPLATE_ORIGIN}/legal`,
        });
      }
      break;
    case "/openapi.json":
      if (signals.has_openapi) {
        return json({
          openapi: "3.1.0",
          info: { title: "Synthetic demo API", version: "1.0.0" },
          servers: [{ url: `${TEMPLATE_ORIGIN}/api/v1` }],
          paths: {
            "/items": { get: { summary: "List items", responses: { "200": { description: "The items" } } } },
          },
        });
      }
      break;
    case "/.well-known/api-catalog":
      if (signals.has_structured_api) {
        const entry = {
          anchor: `${TEMPLATE_ORIGIN}/api/v1`,
          "service-doc": [{ href: `${TEMPLATE_ORIGIN}/docs`, type: "text/html" }],
          ...(signals.has_openapi
            ? { "service-desc": [{ href: `${TEMPLATE_ORIGIN}/openapi.json`, type: "application/openapi+json" }] }
            : {}),
        };
        return json({ linkset: [entry] }, "application/linkset+json");
      }
      break;
    case "/api/v1":
      if (signals.has_structured_api)
        return json({ name: "Synthetic demo API", version: "v1", items: "/api/v1/items" });
      break;
  }
  return NOT_FOUND;
}

/** The synthetic site as the crawl's fetcher sees it. */
function demoSiteFetcher(signals: Signals) {
  return async (url: string, request: ProbeRequest = {}): Promise<ProbeAnswer> => {
    const { status, contentType, body } = demoSiteAnswer(signals, url, request);
    return {
      ok: true,
      url,
      finalUrl: url,
      redirects: [],
      status,
      headers: new Headers(contentType ? { "content-type": contentType } : {}),
      contentType,
      body,
    };
  };
}

type Evidence = Record<SignalField, SignalEvidence>;

/** One crawl per signal set, shared by every site that has it. */
const evidenceBySignals = new Map<string, Promise<Evidence>>();

function crawlTemplate(signals: Signals): Promise<Evidence> {
  const key = SIGNAL_FIELDS.map((field) => (signals[field] ? "1" : "0")).join("");
  let evidence = evidenceBySignals.get(key);
  if (!evidence) {
    evidence = crawlSite({
      origin: TEMPLATE_ORIGIN,
      fetcher: demoSiteFetcher(signals),
      limiter: createConcurrencyLimiter(WORKER_CONNECTION_LIMIT),
    }).then(signalEvidence);
    evidenceBySignals.set(key, evidence);
  }
  return evidence;
}

/**
 * The evidence a crawl of the synthetic site `domain` with `signals` records, as the crawler
 * stores it in `sites.signal_evidence`. Each signal's status is `present` exactly when the site
 * has it.
 */
export async function demoSignalEvidence(domain: string, signals: Signals): Promise<Evidence> {
  const template = await crawlTemplate(signals);
  const onSite = (text: string) => text.replaceAll(TEMPLATE_HOST, domain);
  return Object.fromEntries(
    SIGNAL_FIELDS.map((field) => {
      const { status, reason, fetched } = template[field];
      return [
        field,
        { status, reason: onSite(reason), fetched: fetched.map((record) => ({ ...record, url: onSite(record.url) })) },
      ];
    }),
  ) as Evidence;
}
