/** The filters search and top share, as SQL conditions on the sites table. */
import { eq, gte, notInArray, type SQL, sql } from "drizzle-orm";
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
 * Conditions for a filter set. Without a category, the audit-only buckets (other, spam) are left
 * out: they are never promoted as discovery inventory. Naming one of them explicitly is an audit
 * view and returns that bucket.
 */
export function filterConditions(filters: SiteFilters): SQL[] {
  const conditions: SQL[] = [
    filters.category ? eq(sites.category, filters.category) : notInArray(sites.category, [...AUDIT_ONLY_CATEGORIES]),
  ];
  if (filters.tag !== undefined) conditions.push(sql`${sites.tags} @> array[${filters.tag}]::text[]`);
  if (filters.minScore !== undefined) conditions.push(gte(sites.agenticScore, filters.minScore));
  for (const [name, column] of Object.entries(FLAG_COLUMNS)) {
    const wanted = filters[name as keyof typeof FLAG_COLUMNS];
    if (wanted !== undefined) conditions.push(eq(column, wanted));
  }
  return conditions;
}

/** Organic order: agentic_score descending, then domain ascending (the sites_score_order index). */
export const organicOrder = [sql`${sites.agenticScore} desc nulls last`, sql`${sites.domain} asc`];

/** Names the filter set canonically, for cache keys: the same filters give the same name. */
export function filterKey(filters: SiteFilters): string {
  return Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}
