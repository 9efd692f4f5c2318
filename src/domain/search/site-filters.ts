/**
 * The filters search and top share, and their conditions on the sites table. Search reads them
 * from its index lists (search-plan.ts) and the top list from its per-signal-pattern indexes
 * (top-sites.ts); the exact-domain match of a search and the tests read the table itself.
 */
import { and, eq, gte, notInArray, type SQL, sql } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import { AUDIT_ONLY_CATEGORIES, type Category } from "../sites/site-fields.ts";

export interface SiteFilters {
  category?: Category;
  /** Exact tag. */
  tag?: string;
  /** Lowest agentic_score, inclusive. */
  minScore?: number;
  /** has_structured_api: a callable machine API. */
  hasApi?: boolean;
  hasMcp?: boolean;
  hasOpenapi?: boolean;
  hasLlmsTxt?: boolean;
}

const FLAG_COLUMNS = {
  hasApi: sites.hasStructuredApi,
  hasMcp: sites.hasMcpServer,
  hasOpenapi: sites.hasOpenapi,
  hasLlmsTxt: sites.hasLlmsTxt,
} as const;

/**
 * The filter set as a condition on the sites table. Without a category, only discovery
 * inventory matches: the audit-only buckets (other, spam) are never promoted. Naming one of them
 * explicitly is an audit view and returns that bucket.
 */
export function filterCondition(filters: SiteFilters): SQL {
  const conditions: SQL[] = [
    filters.category ? eq(sites.category, filters.category) : notInArray(sites.category, [...AUDIT_ONLY_CATEGORIES]),
  ];
  if (filters.tag !== undefined) conditions.push(sql`${sites.tags} @> array[${filters.tag}]::text[]`);
  if (filters.minScore) conditions.push(gte(sites.agenticScore, filters.minScore));
  for (const [name, column] of Object.entries(FLAG_COLUMNS)) {
    const wanted = filters[name as keyof typeof FLAG_COLUMNS];
    if (wanted !== undefined) conditions.push(eq(column, wanted));
  }
  return and(...conditions) as SQL;
}

/** Names the filter set canonically, for cache keys: the same filters give the same name. */
export function filterKey(filters: SiteFilters): string {
  return Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}
