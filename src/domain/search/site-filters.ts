/**
 * The filters search and top share. Category, signals and tags are facet lexemes (migration
 * 0002, `site_facets`) and so terms of the GIN index `sites_search`, beside the text; the
 * audit-bucket exclusion and min_score are plain column conditions.
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

const FLAG_FACETS = {
  hasApi: "has_structured_api",
  hasMcp: "has_mcp_server",
  hasOpenapi: "has_openapi",
  hasLlmsTxt: "has_llms_txt",
} as const;

/** A tsquery operand naming one facet lexeme, quoted so that any value stays one lexeme. */
const facet = (name: string, value: string | number) => `'${name}=${String(value).replaceAll("'", "''")}'`;

/** The tsquery text of the filters that are facets (category, tag, signals), or null if none. */
export function facetQueryText(filters: SiteFilters): string | null {
  const terms: string[] = [];
  if (filters.category) terms.push(facet("category", filters.category));
  if (filters.tag !== undefined) terms.push(facet("tag", filters.tag));
  for (const [name, lexeme] of Object.entries(FLAG_FACETS)) {
    const wanted = filters[name as keyof typeof FLAG_FACETS];
    if (wanted !== undefined) terms.push(facet(lexeme, wanted ? 1 : 0));
  }
  return terms.length ? terms.join(" & ") : null;
}

/**
 * The filter set as a condition on the sites table. Without a category, only discovery
 * inventory matches: the audit-only buckets (other, spam) are never promoted. Naming one of them
 * explicitly is an audit view and returns that bucket.
 */
export function filterCondition(filters: SiteFilters): SQL {
  const conditions: SQL[] = [];
  const facets = facetQueryText(filters);
  if (facets) conditions.push(sql`${sites.facets} @@ ${facets}::tsquery`);
  // The category is also a column condition, so that a walk can take sites_category_score_order.
  if (filters.category) conditions.push(eq(sites.category, filters.category));
  else conditions.push(notInArray(sites.category, [...AUDIT_ONLY_CATEGORIES]));
  if (filters.minScore) conditions.push(gte(sites.agenticScore, filters.minScore));
  return and(...conditions) as SQL;
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
