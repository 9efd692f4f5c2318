import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { CATEGORIES } from "../../src/domain/sites/site-fields.ts";

/** What a detector saw for one signal: enough to explain a score to a site owner. */
export interface SignalEvidence {
  status: "present" | "absent" | "blocked" | "error";
  reason: string;
  fetched: { url: string; status: number | null; content_type: string | null }[];
}

/** The checklist kept on the site row (src/domain/checklist/checklist-definition.ts). */
export interface StoredChecklist {
  checks: {
    id: string;
    category: string;
    status: string;
    title: string;
    reason: string;
    evidence: { url: string; status: number | null; content_type: string | null }[];
    fix?: string;
    applies_to: string[];
  }[];
  summary: object;
}

/** One agent resource as the ARD registry keeps it (src/domain/registry/agent-resources.ts): the ARD entry's terms as the site gave them, and what the crawl saw. */
export interface StoredAgentResource {
  kind: "manifest-entry" | "mcp-server" | "a2a-agent" | "openapi" | "agent-skills";
  /** ARD identifier: the site's own (a manifest entry that publishes a valid one), else ours. */
  identifier: string;
  /** Whether the identifier is the site's own or named by this registry (docs/discovery.md). */
  identifierSource: "site" | "registry";
  type: string;
  /** Exactly one of url and data is set. */
  url?: string;
  data?: Record<string, unknown>;
  displayName: string;
  description?: string;
  tags?: string[];
  capabilities?: string[];
  representativeQueries?: string[];
  version?: string;
  /**
   * How the crawl found it working: for an MCP server the endpoint's health class
   * (MCP_ENDPOINT_HEALTH); for a card, document or index the status of its check (pass, warn);
   * "listed" for a manifest entry the crawl did not check on its own.
   */
  verification: string;
  /** The MCP endpoint the crawl probed, for an MCP server. */
  endpoint?: string;
}

/** Where a site's capability was read (src/domain/capabilities/site-capabilities.ts). */
export type CapabilitySource = "mcp" | "openapi" | "a2a" | "agent-skills" | "ard" | "llms-txt";

/** What one source says the site does, as the site report shows it: names with their descriptions. */
export interface StoredCapabilityGroup {
  source: CapabilitySource;
  items: { name: string; description?: string }[];
}

/** The most characters of capabilities_text (docs/discovery.md, "What agents can do here"). */
export const CAPABILITIES_TEXT_MAX = 2048;

/** Postgres full-text document; written only by the database (a generated column). */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

const categoryList = sql.raw(CATEGORIES.map((category) => `'${category}'`).join(", "));

/** One indexed site: the Site record of the spec, plus what crawling needs to explain it. */
export const sites = pgTable(
  "sites",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Lower-case host name without scheme or trailing dot. */
    domain: text("domain").notNull().unique(),
    /**
     * A 4-byte number of the site, for the search index's postings to name it by (migration
     * 0025): 27 bytes fewer than the domain in each of about 14 postings per site, twice (row
     * and list index). Never part of the Site record.
     */
    siteKey: integer("site_key").generatedAlwaysAsIdentity().notNull().unique(),
    url: text("url").notNull(),
    name: text("name").notNull().default(""),
    description: text("description").notNull().default(""),
    hasLlmsTxt: boolean("has_llms_txt").notNull().default(false),
    hasAiPlugin: boolean("has_ai_plugin").notNull().default(false),
    hasOpenapi: boolean("has_openapi").notNull().default(false),
    hasRobotsAi: boolean("has_robots_ai").notNull().default(false),
    hasStructuredApi: boolean("has_structured_api").notNull().default(false),
    hasMcpServer: boolean("has_mcp_server").notNull().default(false),
    hasSchemaOrg: boolean("has_schema_org").notNull().default(false),
    agenticScore: smallint("agentic_score").notNull().default(0),
    category: text("category").notNull().default("other"),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    isVerified: boolean("is_verified").notNull().default(false),
    isFeatured: boolean("is_featured").notNull().default(false),
    hasFavicon: boolean("has_favicon").notNull().default(false),
    faviconUrl: text("favicon_url"),
    lastCrawledAt: timestamp("last_crawled_at", { withTimezone: true }).notNull().defaultNow(),
    crawlStatus: text("crawl_status").notNull().default("success"),
    /** Per-signal evidence of the last successful crawl, keyed by signal field name. */
    signalEvidence: jsonb("signal_evidence").$type<Record<string, SignalEvidence>>().notNull().default({}),
    /**
     * The checklist of the last successful crawl ({checks, summary}: the body's `checks` and
     * `checks_summary`), or null for a site not crawled since the checklist existed.
     */
    checklist: jsonb("checklist").$type<StoredChecklist>(),
    /**
     * The same checklist's statuses, packed as site_checklist_history packs them (CHECK_IDS order,
     * codes are indexes of CHECK_STATUSES), or null with `checklist`. The daily adoption rollup
     * counts checks from it: a few bytes a site rather than the TOASTed JSON (migration 0033).
     */
    checklistStatuses: smallint("checklist_statuses").array().$type<(number | null)[]>(),
    /**
     * How the MCP endpoint a site advertises (an AI Catalog, server card, discovery document or an
     * MCP Registry lead named one) answered the last crawl's handshake, as an index of
     * MCP_ENDPOINT_HEALTH (src/domain/signals/mcp-health.ts: 0 handshake, 1 auth-gated, 2 HTTP but
     * not MCP, 3 unreachable); null when the site advertises no MCP endpoint or was not crawled
     * since this was kept (migration 0033).
     */
    mcpEndpointHealth: smallint("mcp_endpoint_health"),
    /**
     * How many crawls in a row found that the site's host name does not exist in DNS: the recrawl
     * cron waits twice its interval after one, four times after two…, at most sixteen times
     * (enqueue-stale-recrawls.ts); any other outcome sets it back to 0 (migration 0039).
     */
    unresolvedCrawls: smallint("unresolved_crawls").notNull().default(0),
    /**
     * The agent resources the last successful crawl found (src/domain/registry/agent-resources.ts),
     * as the ARD registry under /ard/v1 lists them; null when none were found or the site was not
     * crawled since this was kept (migration 0038).
     */
    agentResources: jsonb("agent_resources").$type<StoredAgentResource[]>(),
    /**
     * What the site's own machine-readable documents say it does, grouped by source, as the last
     * successful crawl read them; null when they name nothing or the site was not crawled since
     * this was kept (migration 0036).
     */
    capabilities: jsonb("capabilities").$type<StoredCapabilityGroup[]>(),
    /**
     * The same capabilities as one plain text for search (one item a line, "name: description"),
     * at most CAPABILITIES_TEXT_MAX characters with a fair share per source; empty when there are
     * none (migration 0036).
     */
    capabilitiesText: text("capabilities_text").notNull().default(""),
    /** Version of the scoring formula that produced agentic_score. */
    scoreVersion: integer("score_version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Breaks ties of agentic_score in organic order: the first 8 bytes of the domain's SHA-256,
     * so no name sorts first by its spelling (the domain itself decides between equal hashes).
     */
    organicTiebreak: bigint("organic_tiebreak", { mode: "bigint" })
      .notNull()
      .generatedAlwaysAs(sql`('x' || left(encode(sha256("domain"::bytea), 'hex'), 16))::bit(64)::bigint`),
    /**
     * What `q` matches: name, description and tags (split at hyphens) stemmed as English, plus
     * the canonical spelling of the variants they use (`search_spellings`, migration 0029:
     * "e-mail" adds "email"), plus the domain's labels (split at dots, hyphens and underscores)
     * both as plain words and stemmed as English, a punycode (xn--) label also in its Unicode
     * form (`search_domain_words`, migration 0006), without positions (nothing ranks by them).
     * Kept in step by Postgres itself; search reads it through `search_postings`.
     */
    searchVector: tsvector("search_vector")
      .notNull()
      .generatedAlwaysAs(
        sql`strip(to_tsvector('english'::regconfig, search_text_words(name, description, tags)) || search_domain_vector(domain))`,
      ),
    /**
     * The fields a search's relevance tiers read (docs/discovery.md, "Relevance tiers"; migration
     * 0030), as `search_vector` has their words, weighted by field: the name A, the tags and the
     * domain B, the description's opening sentence (at most 200 characters) C. Kept with
     * positions, which carry the weights.
     */
    tierVector: tsvector("tier_vector")
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english'::regconfig, search_text_words(name, '', '{}')), 'A') || setweight(to_tsvector('english'::regconfig, search_text_words('', '', tags)) || search_domain_vector(domain), 'B') || setweight(to_tsvector('english'::regconfig, search_text_words('', search_opening_sentence(description), '{}')), 'C')`,
      ),
  },
  (table) => [
    check("sites_agentic_score_range", sql`${table.agenticScore} between 0 and 100`),
    check("sites_category_known", sql`${table.category} in (${categoryList})`),
    check("sites_domain_normalised", sql`${table.domain} = lower(${table.domain}) and ${table.domain} !~ '\\.$'`),
    check("sites_mcp_endpoint_health_known", sql`${table.mcpEndpointHealth} between 0 and 3`),
    check("sites_unresolved_crawls_range", sql`${table.unresolvedCrawls} >= 0`),
    check("sites_capabilities_text_bounded", sql`char_length(${table.capabilitiesText}) <= 2048`),
    check("sites_favicon_consistent", sql`${table.hasFavicon} = (${table.faviconUrl} is not null)`),
    // Organic order is (agentic_score desc, organic_tiebreak, domain): top lists walk this index.
    // The domain column has the "C" collation (migration 0005): byte order on every server.
    index("sites_score_order").on(table.agenticScore.desc(), table.organicTiebreak, table.domain),
    index("sites_category_score_order").on(
      table.category,
      table.agenticScore.desc(),
      table.organicTiebreak,
      table.domain,
    ),
    // The top list (src/domain/search/top-sites.ts) reads each signal pattern of a category, or
    // of the discovery inventory, from its own range in organic order: every entry it meets is a
    // match. The expressions must read exactly as the top list's conditions for Postgres to use them.
    index("sites_category_signals_order").on(
      table.category,
      sql`search_signal_bits(${table.hasStructuredApi}, ${table.hasMcpServer}, ${table.hasOpenapi}, ${table.hasLlmsTxt})`,
      table.agenticScore.desc().nullsLast(),
      table.organicTiebreak,
      table.domain,
    ),
    index("sites_discovery_signals_order")
      .on(
        sql`search_signal_bits(${table.hasStructuredApi}, ${table.hasMcpServer}, ${table.hasOpenapi}, ${table.hasLlmsTxt})`,
        table.agenticScore.desc().nullsLast(),
        table.organicTiebreak,
        table.domain,
      )
      .where(sql`not search_is_audit(${table.category})`),
    // The ARD registry lists the sites with resources in domain order (migration 0038).
    index("sites_agent_resources_listing").on(table.domain).where(sql`${table.agentResources} is not null`),
    index("sites_agent_resources_identifiers")
      .using("gin", sql`${table.agentResources} jsonb_path_ops`)
      .where(sql`${table.agentResources} is not null`),
    // The recrawl cron takes the stalest sites first.
    index("sites_last_crawled_at").on(table.lastCrawledAt),
  ],
);

export type SiteRow = typeof sites.$inferSelect;
export type NewSiteRow = typeof sites.$inferInsert;
