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
  llmsFullTxt: "/llms-full.txt",
  robotsTxt: "/robots.txt",
  aiPlugin: "/.well-known/ai-plugin.json",
  apiCatalog: "/.well-known/api-catalog",
  mcpDiscovery: "/.well-known/mcp.json",
  /** The MCP Registry's HTTP namespace proof (served when MCP_REGISTRY_PUBLIC_KEY is set). */
  mcpRegistryAuth: "/.well-known/mcp-registry-auth",
  /** The ARD manifest (ARD v0.91), and its predecessor path (the AI Catalog, ARD v0.9). */
  ard: "/.well-known/ard.json",
  aiCatalog: "/.well-known/ai-catalog.json",
  /** The MCP server card (SEP-2127) at `<endpoint>/server-card`. */
  mcpServerCard: "/mcp/server-card",
  /** The base URL of the service's ARD registry (ARD §7: POST /search, POST /explore, GET /agents). */
  ardRegistry: "/ard/v1",
  sitemap: "/sitemap.xml",
} as const;

/** RFC 9727's profile of the linkset media type, named in the catalog's content type. */
export const API_CATALOG_PROFILE = "https://www.rfc-editor.org/info/rfc9727";
export const API_CATALOG_CONTENT_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;
export const OPENAPI_MEDIA_TYPE = "application/openapi+json";

/** ARD's manifest version and media types (the AI Catalog's, which ARD keeps; docs/discovery.md). */
export const ARD_SPEC_VERSION = "0.91";
export const AI_CATALOG_MEDIA_TYPE = "application/ai-catalog+json";
export const MCP_SERVER_CARD_MEDIA_TYPE = "application/mcp-server-card+json";
export const AI_REGISTRY_MEDIA_TYPE = "application/ai-registry+json";

/** The JSON Schema SEP-2127 server cards name in `$schema`. */
export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

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
  llmsFullTxt: string;
  robotsTxt: string;
  aiPlugin: string;
  apiCatalog: string;
  mcpDiscovery: string;
  ard: string;
  aiCatalog: string;
  mcpServerCard: string;
  /** The ARD registry's base URL, without trailing slash. */
  ardRegistry: string;
  sitemap: string;
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
    llmsFullTxt: at(SITE_PATHS.llmsFullTxt),
    robotsTxt: at(SITE_PATHS.robotsTxt),
    aiPlugin: descriptor.ai_plugin_manifest,
    apiCatalog: at(SITE_PATHS.apiCatalog),
    mcpDiscovery: at(SITE_PATHS.mcpDiscovery),
    ard: at(SITE_PATHS.ard),
    aiCatalog: at(SITE_PATHS.aiCatalog),
    // `<endpoint>/server-card`, whatever the endpoint's path.
    mcpServerCard: `${descriptor.mcp_endpoint}/server-card`,
    ardRegistry: at(SITE_PATHS.ardRegistry),
    sitemap: at(SITE_PATHS.sitemap),
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
 * The contact address published in the plugin manifest: the address of the configured sender of
 * the service's mail (MAIL_FROM, "Name <address>" or a bare address), the one mailbox the
 * configuration names; undefined when mail is not configured. A mailbox is never made up from the
 * host name (`contact@127.0.0.1` reached no one).
 */
export function contactEmailFrom(mailFrom: string | undefined): string | undefined {
  const address = mailFrom ? (/<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim()) : undefined;
  return address && /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(address) ? address : undefined;
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
    `- [MCP server card](${links.mcpServerCard}): the MCP server in the SEP-2127 shape`,
    `- [ARD manifest](${links.ard}): the service's agent resources (MCP server, OpenAPI document, ARD registry), Agentic Resource Discovery v0.91`,
    `- [Sitemap](${links.sitemap}): the pages for people`,
    `- [llms-full.txt](${links.llmsFullTxt}): this guide with the MCP server and the discovery documents in full`,
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

/**
 * The same preferences in the IETF AIPREF vocabulary (a structured-field dictionary): no AI
 * training, search allowed. AIPREF has no key for use in AI answers, which it leaves unstated.
 */
export const CONTENT_USAGE = "train-ai=n, search=y";

/** Paths no crawler needs: the authenticated provider endpoints answer only with credentials. */
const ROBOTS_DISALLOWED = ["/api/v1/provider/"] as const;

/** The service's robots.txt: AI agents welcome on the pages and the read API, with Content Signals. */
export function buildRobotsTxt(origin: string): string {
  const links = buildSiteLinks(origin);
  const rules = [
    `Content-Signal: ${CONTENT_SIGNAL}`,
    `Content-Usage: ${CONTENT_USAGE}`,
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
    // Records outside any group: where the sitemap and the ARD manifest are (ARD v0.91, §5.1).
    `Sitemap: ${links.sitemap}`,
    `Agentmap: ${links.ard}`,
    "",
  ].join("\n");
}

/**
 * The AI plugin manifest (the original ChatGPT plugin format, schema_version v1). The format
 * requires `contact_email`; without a configured address it is left out rather than invented (the
 * format is retired, docs/discovery.md).
 */
export function buildAiPluginManifest(origin: string, contactEmail?: string) {
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
    ...(contactEmail ? { contact_email: contactEmail } : {}),
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

/**
 * The reverse-DNS name of the service's MCP server (SEP-2127 and the MCP registry name servers
 * `<reversed host>/<server>`): `com.example.search/agent-readiness-search` for search.example.com.
 * An IP literal (a local run) is not reversed: it names no domain.
 */
export function mcpServerName(origin: string): string {
  const host = new URL(origin).hostname;
  const reversed = /^[\d.]+$|^\[/.test(host) ? host : host.split(".").reverse().join(".");
  return `${reversed}/agent-readiness-search`;
}

/** The MCP server's tools, by name, as the server card and the ARD entry list them. */
export const MCP_TOOL_NAMES = [
  "search_sites",
  "get_top_sites",
  "get_site",
  "list_categories",
  "get_stats",
  "check_site",
  "verify_mcp",
  "submit_site",
  "record_action_interest",
] as const;

/**
 * The MCP server card in the SEP-2127 shape, served at `<endpoint>/server-card`: the server's
 * reverse-DNS name, what it is, and its one remote (Streamable HTTP, no authentication). It lists
 * no tools: a client learns them from the live server (tools/list), which a card cannot contradict.
 */
export function buildMcpServerCard(origin: string) {
  const links = buildSiteLinks(origin);
  const { name, description, version } = describeService(origin);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: mcpServerName(origin),
    title: name,
    description,
    version,
    websiteUrl: links.home,
    remotes: [{ type: "streamable-http", url: links.mcp }],
  };
}

/** `urn:air:<publisher>:<namespace>:<name>`, the publisher being the public host (ARD §4.2.1). */
function ardIdentifier(origin: string, namespace: string, name: string): string {
  return `urn:air:${new URL(origin).hostname}:${namespace}:${name}`;
}

/**
 * The service's ARD manifest (ARD v0.91, `/.well-known/ard.json`, and the same document at the
 * predecessor path `/.well-known/ai-catalog.json`): its MCP server (by its server card), its
 * OpenAPI document and its ARD registry, each with 2 to 5 representative queries. The publisher is
 * the public host; no trust manifest is claimed (the service holds no workload identity to bind).
 */
export function buildArdManifest(origin: string) {
  const links = buildSiteLinks(origin);
  const { name, version } = describeService(origin);
  return {
    specVersion: ARD_SPEC_VERSION,
    host: {
      displayName: name,
      identifier: new URL(origin).hostname,
      documentationUrl: links.docs,
      logoUrl: links.favicon,
    },
    entries: [
      {
        identifier: ardIdentifier(origin, "mcp", "agent-readiness-search"),
        displayName: `${name} MCP server`,
        type: MCP_SERVER_CARD_MEDIA_TYPE,
        url: links.mcpServerCard,
        description:
          "Search the index of sites scored for agent readiness, read a site's report, check a site or an MCP server live, and submit a site.",
        tags: ["mcp", "search", "agent-readiness", "discovery"],
        capabilities: [...MCP_TOOL_NAMES],
        representativeQueries: [
          "find an API with an MCP server for sending invoices",
          "check my site for agent readiness and tell me what to fix",
          "is this MCP endpoint compliant",
          "which weather services can an AI agent use",
        ],
        version,
      },
      {
        identifier: ardIdentifier(origin, "api", "agent-readiness-search"),
        displayName: `${name} API`,
        type: OPENAPI_MEDIA_TYPE,
        url: links.openApi,
        description: `The REST API under ${links.apiBase}: search, top sites, site details, categories, statistics, the live check and MCP verification.`,
        tags: ["openapi", "rest", "search", "agent-readiness"],
        representativeQueries: [
          "search an index of agent-ready websites over REST",
          "get the agent readiness score of a domain",
          "list the best-scored sites for AI agents",
        ],
        version,
      },
      {
        identifier: ardIdentifier(origin, "registry", "agent-readiness-index"),
        displayName: `${name} ARD registry`,
        type: AI_REGISTRY_MEDIA_TYPE,
        url: links.ardRegistry,
        description:
          "An ARD registry over the index: the MCP servers, A2A agents, OpenAPI documents and skills found on indexed sites, with their live verification. Organic: nothing paid changes an entry or its order.",
        tags: ["registry", "search", "mcp", "a2a", "openapi"],
        representativeQueries: [
          "find MCP servers for project management",
          "find an A2A agent that books travel",
          "which verified MCP servers handle payments",
        ],
      },
    ],
  };
}

/** The pages for people a sitemap lists: what a visitor can open without signing in. */
export const SITEMAP_PAGES = [
  SITE_PATHS.home,
  SITE_PATHS.search,
  SITE_PATHS.check,
  SITE_PATHS.submit,
  SITE_PATHS.verifyMcp,
  SITE_PATHS.docs,
  SITE_PATHS.state,
  SITE_PATHS.privacy,
] as const;

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[char]!);

/**
 * The sitemap (sitemaps.org 0.9) of the service's pages for people, and of `morePaths` (the
 * problem type pages): absolute URLs of the public origin, no dates (the pages change with the
 * index, not on a schedule a date would tell).
 */
export function buildSitemap(origin: string, morePaths: readonly string[] = []): string {
  const urls = [...SITEMAP_PAGES, ...morePaths].map(
    (path) => `  <url><loc>${escapeXml(`${origin}${path}`)}</loc></url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

/**
 * The service's llms-full.txt: llms.txt, then what an agent needs beyond the links, in Markdown:
 * the MCP server (tools, resources, prompts, protocol eras) and the discovery documents.
 */
export function buildLlmsFullTxt(origin: string, endpoints: Record<string, string>): string {
  const links = buildSiteLinks(origin);
  return [
    buildLlmsTxt(origin, endpoints).trimEnd(),
    "",
    "## MCP server",
    "",
    `${links.mcp} speaks MCP over Streamable HTTP, statelessly, to 2026-07-28 clients (server/discover, the _meta envelope) and to 2025 clients (initialize). No authentication.`,
    "",
    `Tools: ${MCP_TOOL_NAMES.join(", ")}. Each returns the JSON of the REST endpoint it mirrors and counts against the same free limits; errors carry the REST error's code and message.`,
    "",
    `Resources: each indexed site's report, by the template ${links.apiBase}/site/{domain} (the JSON of GET /site/{domain}). Prompts: find_service (task) and check_my_site (url).`,
    "",
    `Server card (SEP-2127): ${links.mcpServerCard}.`,
    "",
    "## Discovery documents",
    "",
    `- ARD manifest: ${links.ard} (also at ${links.aiCatalog}): the MCP server, the OpenAPI document and the ARD registry at ${links.ardRegistry}`,
    `- API catalog (RFC 9727): ${links.apiCatalog}`,
    `- robots.txt: ${links.robotsTxt}, with Content Signals (${CONTENT_SIGNAL}) and AIPREF Content-Usage (${CONTENT_USAGE})`,
    `- Sitemap: ${links.sitemap}`,
    "",
  ].join("\n");
}
