/**
 * The documents agents and crawlers look for at the site root: /llms.txt, /robots.txt, the AI
 * plugin manifest, the RFC 9727 API catalog and the MCP discovery document. Every URL in them is
 * built from the request's public origin by `buildSiteLinks`, which takes the API's own URLs from
 * the descriptor, so the documents and the descriptor cannot drift apart. Pages, mail and the routes
 * that serve the documents all take their links from here (pages never import a route file).
 */
import { INVOCATION_CONDITION } from "../search-receipts/action-interest-sidecar.ts";
import { RECEIPT_LIFETIME_DAYS } from "../search-receipts/receipt-constants.ts";
import { buildDescriptor, FREE_LIMITS, SERVICE_VERSION } from "./build-descriptor.ts";

/** Pages, manifests and agent documents may be cached briefly by anyone. */
export const DOCUMENT_CACHE_CONTROL = "public, max-age=300";

/** Where each web-root document lives, relative to the origin. */
export const SITE_PATHS = {
  home: "/",
  search: "/search",
  check: "/check",
  submit: "/submit",
  verifyMcp: "/verify-mcp",
  signIn: "/sign-in",
  docs: "/docs",
  openApiDocument: "/openapi.json",
  privacy: "/privacy",
  state: "/state",
  favicon: "/favicon.svg",
  llmsTxt: "/llms.txt",
  robotsTxt: "/robots.txt",
  aiPlugin: "/.well-known/ai-plugin.json",
  apiCatalog: "/.well-known/api-catalog",
  mcpDiscovery: "/.well-known/mcp.json",
} as const;

/** RFC 9727's profile of the linkset media type, named in the catalog's content type. */
export const API_CATALOG_PROFILE = "https://www.rfc-editor.org/info/rfc9727";
export const API_CATALOG_CONTENT_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;
export const OPENAPI_MEDIA_TYPE = "application/openapi+json";

/** Every public URL of the service, absolute. */
export interface SiteLinks {
  origin: string;
  home: string;
  /** The pages for people: search results, the live check, submission, MCP verification. */
  search: string;
  check: string;
  submit: string;
  verifyMcp: string;
  /** The API root ({base_url}), without trailing slash. */
  apiBase: string;
  /** The index descriptor, GET {base_url}/. */
  descriptor: string;
  openApi: string;
  docs: string;
  mcp: string;
  privacy: string;
  /** The state of the agent web: adoption of each signal and check over time. */
  state: string;
  favicon: string;
  llmsTxt: string;
  robotsTxt: string;
  aiPlugin: string;
  apiCatalog: string;
  mcpDiscovery: string;
  /** The search endpoint as a URL template with the schema.org placeholder. */
  searchTemplate: string;
}

/** The service's URLs for a public origin (no trailing slash); the API's come from the descriptor. */
export function buildSiteLinks(origin: string): SiteLinks {
  const descriptor = buildDescriptor({ origin, endpoints: {} });
  const at = (path: string) => `${origin}${path}`;
  return {
    origin,
    home: at(SITE_PATHS.home),
    search: at(SITE_PATHS.search),
    check: at(SITE_PATHS.check),
    submit: at(SITE_PATHS.submit),
    verifyMcp: at(SITE_PATHS.verifyMcp),
    apiBase: descriptor.base_url,
    descriptor: `${descriptor.base_url}/`,
    openApi: descriptor.openapi_spec,
    docs: at(SITE_PATHS.docs),
    mcp: descriptor.mcp_endpoint,
    privacy: at(SITE_PATHS.privacy),
    state: at(SITE_PATHS.state),
    favicon: at(SITE_PATHS.favicon),
    llmsTxt: at(SITE_PATHS.llmsTxt),
    robotsTxt: at(SITE_PATHS.robotsTxt),
    aiPlugin: descriptor.ai_plugin_manifest,
    apiCatalog: at(SITE_PATHS.apiCatalog),
    mcpDiscovery: at(SITE_PATHS.mcpDiscovery),
    searchTemplate: `${descriptor.base_url}/search?q={search_term_string}`,
  };
}

/** The report page of a site, `{origin}/sites/{domain}`. */
export function siteReportUrl(origin: string, domain: string): string {
  return `${origin}/sites/${encodeURIComponent(domain)}`;
}

/** The score badge of a site, `{origin}/badge/{domain}.svg`. */
export function badgeUrl(origin: string, domain: string): string {
  return `${origin}/badge/${encodeURIComponent(domain)}.svg`;
}

/** The service's name and description, exactly as the descriptor states them. */
export function describeService(origin: string): { name: string; description: string; version: string } {
  const { name, description, version } = buildDescriptor({ origin, endpoints: {} });
  return { name, description, version };
}

/**
 * The contact address published in the plugin manifest. The configuration has no contact
 * setting, so it is the conventional mailbox of the public host.
 */
export function contactEmailFor(origin: string): string {
  return `contact@${new URL(origin).hostname}`;
}

/** One line of the endpoint catalog ("GET /search: Search the index") split into its parts. */
export interface CatalogEndpoint {
  operationId: string;
  method: string;
  path: string;
  summary: string;
}

/** The endpoint catalog (`c.var.endpoints`) as rows, by path then method, as a reader scans them. */
export function listCatalogEndpoints(endpoints: Record<string, string>): CatalogEndpoint[] {
  const rows = Object.entries(endpoints).map(([operationId, line]) => {
    const match = /^(\S+) (\S+?)(?:: (.*))?$/.exec(line);
    return {
      operationId,
      method: match?.[1] ?? "",
      path: match?.[2] ?? "",
      summary: match ? (match[3] ?? "") : line,
    };
  });
  return rows.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** The service's llms.txt (llmstxt.org): an H1, a summary, then sections of Markdown links. */
export function buildLlmsTxt(origin: string, endpoints: Record<string, string>): string {
  const links = buildSiteLinks(origin);
  const { name, description } = describeService(origin);
  const endpointLines = listCatalogEndpoints(endpoints).map(
    ({ method, path, summary }) => `- [${method} ${path}](${links.apiBase}${path}): ${summary}`,
  );
  return [
    `# ${name}`,
    "",
    `> ${description}`,
    "",
    `Search, top, site details, categories, stats and the live checks are free and need no credentials. Free limits: search ${FREE_LIMITS.search}, live verification ${FREE_LIMITS.live_verification}, POST /check ${FREE_LIMITS.check}; over a limit the answer is 429 with Retry-After. Searches record a query-free receipt that expires after ${RECEIPT_LIFETIME_DAYS} days.`,
    "",
    "## Docs",
    "",
    `- [API reference](${links.docs}): every endpoint, its parameters and answers, for humans`,
    `- [OpenAPI document](${links.openApi}): the machine-readable description of the API (OpenAPI 3)`,
    `- [Index descriptor](${links.descriptor}): JSON with base_url, endpoints, limits, version policy and the provider_exchange policy flags`,
    `- [MCP endpoint](${links.mcp}): the service's MCP server (Streamable HTTP)`,
    `- [Privacy and consent](${links.privacy}): what is and is not recorded, and the exact meaning of each consent version an agent may attest`,
    "",
    "## API endpoints",
    "",
    `Paths are relative to ${links.apiBase}.`,
    "",
    ...endpointLines,
    "",
    "## Optional",
    "",
    `- [API catalog](${links.apiCatalog}): RFC 9727 linkset naming the API, its OpenAPI document and its docs`,
    `- [AI plugin manifest](${links.aiPlugin}): legacy plugin manifest pointing at the OpenAPI document`,
    `- [MCP discovery document](${links.mcpDiscovery}): names the MCP endpoint and its transport`,
    `- [robots.txt](${links.robotsTxt}): crawler rules and Content Signals`,
    "",
  ].join("\n");
}

/**
 * AI crawlers and agents named in robots.txt. Each is a product token our own robots detector
 * recognises (AI_USER_AGENTS); a test keeps it so.
 */
export const ROBOTS_AI_AGENTS = [
  "GPTBot",
  "OAI-SearchBot",
  "ChatGPT-User",
  "ClaudeBot",
  "Claude-User",
  "Claude-SearchBot",
  "anthropic-ai",
  "PerplexityBot",
  "Perplexity-User",
  "Google-Extended",
  "Applebot-Extended",
  "CCBot",
  "Amazonbot",
  "meta-externalagent",
  "cohere-ai",
  "DuckAssistBot",
  "MistralAI-User",
] as const;

/** Content Signals (contentsignals.org): found by search and used in AI answers, not trained on. */
export const CONTENT_SIGNAL = "search=yes, ai-input=yes, ai-train=no";

/** Paths no crawler needs: the authenticated provider endpoints answer only with credentials. */
const ROBOTS_DISALLOWED = ["/api/v1/provider/"] as const;

/** The service's robots.txt: AI agents welcome on the pages and the read API, with Content Signals. */
export function buildRobotsTxt(origin: string): string {
  const links = buildSiteLinks(origin);
  const rules = [
    `Content-Signal: ${CONTENT_SIGNAL}`,
    "Allow: /",
    `Allow: ${new URL(links.descriptor).pathname}`,
    ...ROBOTS_DISALLOWED.map((path) => `Disallow: ${path}`),
  ];
  return [
    `# robots.txt of ${describeService(origin).name}`,
    "# The pages, the agent documents and the read API are public; AI crawlers and agents are welcome.",
    `# For agents: ${links.llmsTxt} and ${links.openApi}; MCP at ${links.mcp}.`,
    "",
    ...ROBOTS_AI_AGENTS.map((agent) => `User-agent: ${agent}`),
    ...rules,
    "",
    "User-agent: *",
    ...rules,
    "",
  ].join("\n");
}

/** The AI plugin manifest (the original ChatGPT plugin format, schema_version v1). */
export function buildAiPluginManifest(origin: string) {
  const links = buildSiteLinks(origin);
  const { name } = describeService(origin);
  return {
    schema_version: "v1",
    name_for_human: name,
    name_for_model: "agent_readiness_search",
    description_for_human: "Search a free index of web sites scored 0-100 for readiness to be used by AI agents.",
    description_for_model: [
      "Search a free, neutral index of web sites scored 0-100 (agentic_score) for readiness to be used by AI agents, from 7 signals: llms.txt, AI plugin manifest, OpenAPI, structured API, MCP server, AI rules in robots.txt, schema.org.",
      "Use GET /search with q (and optional category, tag, min_score, has_api, has_mcp, has_openapi, has_llms_txt) to find sites, GET /site/{domain} for details, GET /top for the best-scored sites, POST /check to score a URL live.",
      "Paid offers, when present, are separate from organic results and never change their order or score.",
      `Record an action interest (POST /action-interests) only under this condition: ${INVOCATION_CONDITION}`,
      `Consent wording: ${links.privacy}.`,
    ].join(" "),
    auth: { type: "none" },
    api: { type: "openapi", url: links.openApi },
    logo_url: links.favicon,
    contact_email: contactEmailFor(origin),
    legal_info_url: links.privacy,
  };
}

/** The RFC 9727 API catalog: one linkset entry for the API at {base_url}/. */
export function buildApiCatalog(origin: string) {
  const links = buildSiteLinks(origin);
  return {
    linkset: [
      {
        anchor: links.descriptor,
        "service-desc": [{ href: links.openApi, type: OPENAPI_MEDIA_TYPE }],
        "service-doc": [{ href: links.docs, type: "text/html" }],
        "service-meta": [{ href: links.descriptor, type: "application/json" }],
      },
    ],
  };
}

/** The MCP discovery document: where the MCP server is and how to speak to it. */
export function buildMcpDiscovery(origin: string) {
  const links = buildSiteLinks(origin);
  const { name, description } = describeService(origin);
  return {
    name,
    version: SERVICE_VERSION,
    description,
    endpoint: links.mcp,
    transport: "streamable-http",
    remotes: [{ type: "streamable-http", url: links.mcp }],
    authentication: { required: false },
    documentation: links.llmsTxt,
  };
}
