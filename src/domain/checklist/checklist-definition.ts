/**
 * The agent-readiness checklist: its ids, categories, statuses, titles and the kinds of site each
 * check matters for. The one definition every consumer reads (the crawl, the bodies, the OpenAPI
 * document, the pages, the per-crawl storage and its rollups, the CLI), so the order of CHECK_IDS
 * is stable: the stored status arrays are indexed by it. New checks are appended, never inserted.
 * Contract: shared/agent-web-2026.md, "The checklist".
 */

export const CHECK_IDS = [
  "robots_txt",
  "sitemap",
  "link_headers",
  "markdown_negotiation",
  "llms_txt",
  "llms_full_txt",
  "schema_org",
  "schema_org_actions",
  "ai_bot_rules",
  "content_signals",
  "content_usage",
  "web_bot_auth",
  "api_catalog",
  "openapi",
  "structured_api",
  "ai_catalog",
  "mcp_server_card",
  "mcp_server",
  "a2a_agent_card",
  "agent_skills",
  "webmcp",
  "oauth_protected_resource",
  "oauth_authorization_server",
  "ai_plugin",
  "ap2",
  "x402",
  "mpp",
  "ucp",
  "acp",
  "auth_md",
  "dns_agent_discovery",
  "mcp_registry_auth",
  "nlweb",
] as const;

export type CheckId = (typeof CHECK_IDS)[number];

/** The categories, spelt as the contract's table spells them, in the order a report shows them. */
export const CHECK_CATEGORIES = [
  "discoverability",
  "content",
  "bot access",
  "discovery",
  "auth",
  "commerce",
  "legacy",
] as const;

export type CheckCategory = (typeof CHECK_CATEGORIES)[number];

/**
 * The statuses. The codes (index in this list) are what storage keeps per crawl: never reorder.
 */
export const CHECK_STATUSES = ["pass", "warn", "fail", "neutral", "blocked", "error"] as const;

export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** The kinds of site a check can matter for. */
export const SITE_KINDS = ["content", "api", "store"] as const;

export type SiteKind = (typeof SITE_KINDS)[number];

export const SITE_KIND_LABELS: Record<SiteKind, string> = {
  content: "a content site",
  api: "an API site",
  store: "a store",
};

export interface CheckDefinition {
  id: CheckId;
  category: CheckCategory;
  title: string;
  /** The kinds of site the check matters for (possibly none: checks only some sites opt into). */
  appliesTo: readonly SiteKind[];
  /**
   * True for documents a site publishes only when it does the thing they describe (runs bots,
   * hosts an agent, uses OAuth…): their absence is `neutral` ("not asked for"), never `fail`.
   */
  optIn: boolean;
  /** The standard the check follows, as cited in docs/crawling.md. */
  standard: string;
}

const ALL: readonly SiteKind[] = ["content", "api", "store"];

export const CHECKS: Readonly<Record<CheckId, CheckDefinition>> = {
  robots_txt: {
    id: "robots_txt",
    category: "discoverability",
    title: "robots.txt",
    appliesTo: ALL,
    optIn: false,
    standard: "RFC 9309",
  },
  sitemap: {
    id: "sitemap",
    category: "discoverability",
    title: "Sitemap",
    appliesTo: ["content", "store"],
    optIn: false,
    standard: "sitemaps.org protocol 0.9",
  },
  link_headers: {
    id: "link_headers",
    category: "discoverability",
    title: "Link headers naming agent resources",
    appliesTo: ALL,
    optIn: false,
    standard: "RFC 8288, RFC 9727 (api-catalog), RFC 8631 (service-desc, service-doc)",
  },
  markdown_negotiation: {
    id: "markdown_negotiation",
    category: "content",
    title: "Markdown by content negotiation",
    appliesTo: ["content", "api"],
    optIn: false,
    standard: "RFC 9110 proactive negotiation, RFC 7763 (text/markdown)",
  },
  llms_txt: {
    id: "llms_txt",
    category: "content",
    title: "llms.txt",
    appliesTo: ALL,
    optIn: false,
    standard: "llmstxt.org",
  },
  llms_full_txt: {
    id: "llms_full_txt",
    category: "content",
    title: "llms-full.txt",
    appliesTo: ["content", "api"],
    optIn: false,
    standard: "llmstxt.org",
  },
  schema_org: {
    id: "schema_org",
    category: "content",
    title: "schema.org markup",
    appliesTo: ["content", "store"],
    optIn: false,
    standard: "schema.org (JSON-LD, Microdata, RDFa)",
  },
  schema_org_actions: {
    id: "schema_org_actions",
    category: "content",
    title: "schema.org actions",
    appliesTo: ["content", "store"],
    optIn: false,
    standard: "schema.org Action, EntryPoint",
  },
  ai_bot_rules: {
    id: "ai_bot_rules",
    category: "bot access",
    title: "AI crawler rules in robots.txt",
    appliesTo: ALL,
    optIn: false,
    standard: "RFC 9309",
  },
  content_signals: {
    id: "content_signals",
    category: "bot access",
    title: "Content Signals",
    appliesTo: ["content", "store"],
    optIn: false,
    standard: "Content Signals Policy (contentsignals.org), draft-romm-aipref-contentsignals",
  },
  content_usage: {
    id: "content_usage",
    category: "bot access",
    title: "AI usage preferences (Content-Usage)",
    appliesTo: ["content", "store"],
    optIn: false,
    standard: "draft-ietf-aipref-vocab, draft-ietf-aipref-attach, RFC 9651",
  },
  web_bot_auth: {
    id: "web_bot_auth",
    category: "bot access",
    title: "Web Bot Auth key directory",
    appliesTo: [],
    optIn: true,
    standard: "draft-meunier-http-message-signatures-directory, RFC 9421, RFC 7517",
  },
  api_catalog: {
    id: "api_catalog",
    category: "discovery",
    title: "API catalog",
    appliesTo: ["api"],
    optIn: false,
    standard: "RFC 9727, RFC 9264",
  },
  openapi: {
    id: "openapi",
    category: "discovery",
    title: "OpenAPI document",
    appliesTo: ["api"],
    optIn: false,
    standard: "OpenAPI 3.x / Swagger 2.0",
  },
  structured_api: {
    id: "structured_api",
    category: "discovery",
    title: "Structured API",
    appliesTo: ["api"],
    optIn: false,
    standard: "GraphQL, JSON APIs, RFC 9727",
  },
  ai_catalog: {
    id: "ai_catalog",
    category: "discovery",
    title: "AI Catalog",
    appliesTo: ["api"],
    optIn: false,
    standard: "AI Catalog (application/ai-catalog+json)",
  },
  mcp_server_card: {
    id: "mcp_server_card",
    category: "discovery",
    title: "MCP server card",
    appliesTo: ["api"],
    optIn: false,
    standard: "MCP SEP-2127 server cards",
  },
  mcp_server: {
    id: "mcp_server",
    category: "discovery",
    title: "MCP server",
    appliesTo: ["api", "store"],
    optIn: false,
    standard: "Model Context Protocol (streamable HTTP)",
  },
  a2a_agent_card: {
    id: "a2a_agent_card",
    category: "discovery",
    title: "A2A agent card",
    appliesTo: ["api"],
    optIn: true,
    standard: "A2A protocol 1.0, AgentCard",
  },
  agent_skills: {
    id: "agent_skills",
    category: "discovery",
    title: "Agent Skills index",
    appliesTo: ["api"],
    optIn: true,
    standard: "Agent Skills Discovery RFC 0.2.0",
  },
  webmcp: {
    id: "webmcp",
    category: "discovery",
    title: "WebMCP tools",
    appliesTo: ["store"],
    optIn: true,
    standard: "WebMCP declarative API (W3C Web Machine Learning CG)",
  },
  oauth_protected_resource: {
    id: "oauth_protected_resource",
    category: "auth",
    title: "OAuth protected resource metadata",
    appliesTo: ["api"],
    optIn: true,
    standard: "RFC 9728",
  },
  oauth_authorization_server: {
    id: "oauth_authorization_server",
    category: "auth",
    title: "OAuth authorization server metadata",
    appliesTo: ["api"],
    optIn: true,
    standard: "RFC 8414, OpenID Connect Discovery 1.0",
  },
  ai_plugin: {
    id: "ai_plugin",
    category: "legacy",
    title: "ChatGPT plugin manifest (retired)",
    appliesTo: ["api"],
    optIn: true,
    standard: "OpenAI plugin manifest (retired April 2024)",
  },
  ap2: {
    id: "ap2",
    category: "commerce",
    title: "Agent Payments Protocol (AP2)",
    appliesTo: ["store"],
    optIn: false,
    standard: "AP2 v0.1, A2A extension",
  },
  x402: {
    id: "x402",
    category: "commerce",
    title: "x402 payment requirements",
    appliesTo: ["store"],
    optIn: false,
    standard: "x402 v1 and v2 (HTTP transport)",
  },
  mpp: {
    id: "mpp",
    category: "commerce",
    title: "Machine Payments Protocol (MPP)",
    appliesTo: ["store"],
    optIn: false,
    standard: "draft-httpauth-payment (the Payment HTTP authentication scheme)",
  },
  ucp: {
    id: "ucp",
    category: "commerce",
    title: "Universal Commerce Protocol (UCP) profile",
    appliesTo: ["store"],
    optIn: false,
    standard: "UCP business profile (/.well-known/ucp), RFC 7517",
  },
  acp: {
    id: "acp",
    category: "commerce",
    title: "Agentic Commerce Protocol (ACP) discovery",
    appliesTo: ["store"],
    optIn: false,
    standard: "ACP discovery (/.well-known/acp.json)",
  },
  auth_md: {
    id: "auth_md",
    category: "auth",
    title: "auth.md agent registration",
    appliesTo: ["api"],
    optIn: true,
    standard: "auth.md (open agent-registration protocol), RFC 9728, RFC 8414",
  },
  dns_agent_discovery: {
    id: "dns_agent_discovery",
    category: "discovery",
    title: "Agent discovery in DNS (AID, DNS-AID)",
    appliesTo: ["api"],
    optIn: true,
    standard:
      "AID v1 (draft-nemethi-aid-agent-identity-discovery), DNS-AID (draft-mozleywilliams-dnsop-dnsaid), RFC 9460",
  },
  mcp_registry_auth: {
    id: "mcp_registry_auth",
    category: "discovery",
    title: "MCP Registry namespace proof (HTTP)",
    appliesTo: ["api"],
    optIn: true,
    standard: "MCP Registry HTTP authentication (/.well-known/mcp-registry-auth)",
  },
  nlweb: {
    id: "nlweb",
    category: "content",
    title: "NLWeb endpoint",
    appliesTo: ["content", "store"],
    optIn: true,
    standard: "NLWeb REST API (/ask)",
  },
};

/** A fetch behind a check, as shown in evidence. */
export interface CheckEvidence {
  url: string;
  status: number | null;
  content_type: string | null;
}

/** One check in a response: the contract's shape. `fix` is absent on pass. */
export interface CheckResult {
  id: CheckId;
  category: CheckCategory;
  status: CheckStatus;
  title: string;
  reason: string;
  evidence: CheckEvidence[];
  fix?: string;
  applies_to: SiteKind[];
}

/** How many of the checks that apply to each kind of site pass. */
export interface KindTally {
  applicable: number;
  passing: number;
}

/** The summary carried beside `checks`: the inferred kind and the tallies for every kind. */
export interface ChecklistSummary {
  site_kind: SiteKind;
  /** Why the kind was inferred, in one sentence. */
  site_kind_reason: string;
  applicable: number;
  passing: number;
  /** e.g. "12 of 15 checks that apply to an API site pass". */
  text: string;
  by_kind: Record<SiteKind, KindTally>;
}

/** The tally of `checks` for one kind of site. */
export function tallyFor(checks: readonly Pick<CheckResult, "status" | "applies_to">[], kind: SiteKind): KindTally {
  const applicable = checks.filter((check) => check.applies_to.includes(kind));
  return { applicable: applicable.length, passing: applicable.filter((check) => check.status === "pass").length };
}

/** "N of M checks that apply to an API site pass". */
export function tallyText(tally: KindTally, kind: SiteKind): string {
  const noun = tally.applicable === 1 ? "check that applies" : "checks that apply";
  const verb = tally.passing === 1 && tally.applicable === 1 ? "passes" : "pass";
  return `${tally.passing} of ${tally.applicable} ${noun} to ${SITE_KIND_LABELS[kind]} ${verb}`;
}

export function summarizeChecklist(
  checks: readonly Pick<CheckResult, "status" | "applies_to">[],
  kind: SiteKind,
  kindReason: string,
): ChecklistSummary {
  const byKind = Object.fromEntries(SITE_KINDS.map((each) => [each, tallyFor(checks, each)])) as Record<
    SiteKind,
    KindTally
  >;
  return {
    site_kind: kind,
    site_kind_reason: kindReason,
    applicable: byKind[kind].applicable,
    passing: byKind[kind].passing,
    text: tallyText(byKind[kind], kind),
    by_kind: byKind,
  };
}

/** The statuses of a checklist as small integers in CHECK_IDS order: what one crawl stores. */
export function packStatuses(checks: readonly Pick<CheckResult, "id" | "status">[]): number[] {
  const byId = new Map(checks.map((check) => [check.id, check.status]));
  return CHECK_IDS.map((id) => CHECK_STATUSES.indexOf(byId.get(id) ?? "error"));
}

/**
 * The statuses of a stored checklist for `sites.checklist_statuses`: as packStatuses, but a check
 * the checklist lacks is null (not counted at all by the adoption rollup) rather than error.
 */
export function packPresentStatuses(checks: readonly { id: string; status: string }[]): (number | null)[] {
  const byId = new Map(checks.map((check) => [check.id, check.status]));
  return CHECK_IDS.map((id) => {
    const status = byId.get(id);
    if (status === undefined) return null;
    const code = CHECK_STATUSES.indexOf(status as CheckStatus);
    return code < 0 ? CHECK_STATUSES.indexOf("error") : code;
  });
}

/** The inverse of packStatuses (unknown codes read as error). */
export function unpackStatuses(codes: readonly number[]): Partial<Record<CheckId, CheckStatus>> {
  const statuses: Partial<Record<CheckId, CheckStatus>> = {};
  CHECK_IDS.forEach((id, index) => {
    const code = codes[index];
    if (code === undefined) return;
    statuses[id] = CHECK_STATUSES[code] ?? "error";
  });
  return statuses;
}
