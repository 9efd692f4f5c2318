/**
 * The filters search and top share, as a condition on the sites' facet lexemes (migration 0002,
 * `site_facets`): category, inventory, signals and tags are terms of the GIN index
 * `sites_search`, so a bitmap scan of it yields exactly the matching sites; min_score is a range
 * on agentic_score.
 */
import { type SQL, sql } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import type { Category } from "../sites/site-fields.ts";

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

/**
 * The tsquery text of a filter set. Without a category, only discovery inventory matches: the
 * audit-only buckets (other, spam) are never promoted. Naming one of them explicitly is an
 * audit view and returns that bucket.
 */
export function facetQueryText(filters: SiteFilters): string {
  const terms = [filters.category ? facet("category", filters.category) : facet("inventory", "discovery")];
  if (filters.tag !== undefined) terms.push(facet("tag", filters.tag));
  if (filters.minScore !== undefined && filters.minScore > 0) {
    const scores = Array.from({ length: 101 - filters.minScore }, (_, index) =>
      facet("score", filters.minScore! + index),
    );
    terms.push(`(${scores.join(" | ")})`);
  }
  for (const [name, lexeme] of Object.entries(FLAG_FACETS)) {
    const wanted = filters[name as keyof typeof FLAG_FACETS];
    if (wanted !== undefined) terms.push(facet(lexeme, wanted ? 1 : 0));
  }
  return terms.join(" & ");
}

/** The filter set as a condition on the sites table: facets, plus the score as a range. */
export function facetCondition(filters: SiteFilters): SQL {
  const facets = sql`${sites.facets} @@ ${facetQueryText(filters)}::tsquery`;
  return filters.minScore ? sql`${facets} and ${sites.agenticScore} >= ${filters.minScore}` : facets;
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
