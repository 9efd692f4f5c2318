/** The Site record of the interface, shaped from a stored row. */
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { type SiteRow, sites } from "../../../db/schema/sites.ts";
import type { Category } from "./site-fields.ts";

export interface SiteRecord {
  id: string;
  domain: string;
  url: string;
  name: string;
  description: string;
  has_llms_txt: boolean;
  has_ai_plugin: boolean;
  has_openapi: boolean;
  has_robots_ai: boolean;
  has_structured_api: boolean;
  has_mcp_server: boolean;
  has_schema_org: boolean;
  agentic_score: number;
  category: Category;
  tags: string[];
  is_verified: boolean;
  is_featured: boolean;
  has_favicon: boolean;
  favicon_url?: string;
  last_crawled_at: string;
  crawl_status: string;
  created_at: string;
  updated_at: string;
}

/**
 * The stored columns a Site record is made of (never the search vectors, the evidence, the
 * checklist or what the adoption rollup reads of it).
 */
export type SiteRecordRow = Omit<
  SiteRow,
  | "searchVector"
  | "tierVector"
  | "organicTiebreak"
  | "siteKey"
  | "signalEvidence"
  | "scoreVersion"
  | "checklist"
  | "checklistStatuses"
  | "mcpEndpointHealth"
  | "unresolvedCrawls"
  | "agentResources"
  | "capabilities"
  | "capabilitiesText"
>;

export function toSiteRecord(row: SiteRecordRow): SiteRecord {
  return {
    id: row.id,
    domain: row.domain,
    url: row.url,
    name: row.name,
    description: row.description,
    has_llms_txt: row.hasLlmsTxt,
    has_ai_plugin: row.hasAiPlugin,
    has_openapi: row.hasOpenapi,
    has_robots_ai: row.hasRobotsAi,
    has_structured_api: row.hasStructuredApi,
    has_mcp_server: row.hasMcpServer,
    has_schema_org: row.hasSchemaOrg,
    agentic_score: row.agenticScore,
    category: row.category as Category,
    tags: row.tags,
    is_verified: row.isVerified,
    is_featured: row.isFeatured,
    has_favicon: row.hasFavicon,
    // The spec: favicon_url is present only when a favicon exists.
    ...(row.faviconUrl ? { favicon_url: row.faviconUrl } : {}),
    last_crawled_at: row.lastCrawledAt.toISOString(),
    crawl_status: row.crawlStatus,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const {
  searchVector: _vector,
  tierVector: _tierVector,
  organicTiebreak: _tiebreak,
  siteKey: _key,
  signalEvidence: _evidence,
  scoreVersion: _version,
  // The last crawl's checklist is the site detail's, never part of the interface's Site record.
  checklist: _checklist,
  // The adoption rollup's packed statuses and MCP endpoint health (migration 0033): not the interface's.
  checklistStatuses: _statuses,
  mcpEndpointHealth: _health,
  // The recrawl back-off (migration 0039) and the ARD registry's resources (migration 0038).
  unresolvedCrawls: _unresolved,
  agentResources: _agentResources,
  // What the site's documents say it does (migration 0036): the report's and search's, not the record's.
  capabilities: _capabilities,
  capabilitiesText: _capabilitiesText,
  ...recordColumns
} = getTableColumns(sites);

/** The select list of a Site record. */
export const siteRecordColumns = recordColumns;

/** The Site record's columns for raw SQL over `sites` aliased `alias`, under their record names. */
export function siteRecordSql(alias: string): SQL {
  return sql.join(
    Object.values(siteRecordColumns).map((column) => sql`${sql.identifier(alias)}.${sql.identifier(column.name)}`),
    sql`, `,
  );
}

const toIso = (value: unknown) => new Date(value as string | Date).toISOString();

/** A Site record from a raw row holding `siteRecordSql`'s columns (timestamps as text or Date). */
export function siteRecordFromSql(row: Record<string, unknown>): SiteRecord {
  const picked = Object.fromEntries(Object.values(siteRecordColumns).map(({ name }) => [name, row[name]]));
  const { favicon_url: faviconUrl, ...record } = picked as unknown as SiteRecord & { favicon_url: string | null };
  return {
    ...record,
    agentic_score: Number(record.agentic_score),
    // The spec: favicon_url is present only when a favicon exists.
    ...(faviconUrl ? { favicon_url: faviconUrl } : {}),
    last_crawled_at: toIso(record.last_crawled_at),
    created_at: toIso(record.created_at),
    updated_at: toIso(record.updated_at),
  };
}
