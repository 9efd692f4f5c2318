/**
 * Every filter of a search, declared once: its parameter name, the kind of value it takes, the
 * `SiteFilters` key the search's postings check reads, the label people see on the web form and
 * the sentence the REST parameter, the MCP input and the service descriptor say of it. Each
 * surface derives from this list (src/routes/shared/search-contract.ts builds the schemas; the
 * web form its fields), so a filter cannot exist on one surface and not another.
 */
import type { SiteFilters } from "./site-filters.ts";

export interface SearchFilterDeclaration {
  /** The query parameter and MCP argument name. */
  param: string;
  kind: "category" | "tag" | "score" | "flag";
  /** Where the search reads it (site-filters.ts): the postings check it becomes. */
  filterKey: keyof SiteFilters;
  /** The web form's label (also in its error messages). */
  label: string;
  /** What it does, for the REST parameter, the MCP input schema and the descriptor. */
  description: string;
}

export const SEARCH_FILTERS = [
  {
    param: "category",
    kind: "category",
    filterKey: "category",
    label: "Category",
    description: "Only this category. other and spam are audit-only: listed only when named.",
  },
  {
    param: "tag",
    kind: "tag",
    filterKey: "tag",
    label: "Tag",
    description: "Exact tag, e.g. mcp, openapi, payment, search",
  },
  {
    param: "min_score",
    kind: "score",
    filterKey: "minScore",
    label: "Lowest score",
    description: "Lowest agentic_score, inclusive",
  },
  {
    param: "has_api",
    kind: "flag",
    filterKey: "hasApi",
    label: "Structured API",
    description: "Only sites with (true) or without (false) a structured, callable API",
  },
  {
    param: "has_mcp",
    kind: "flag",
    filterKey: "hasMcp",
    label: "MCP server",
    description: "Only sites with (true) or without (false) an MCP server",
  },
  {
    param: "has_openapi",
    kind: "flag",
    filterKey: "hasOpenapi",
    label: "OpenAPI document",
    description: "Only sites with (true) or without (false) an OpenAPI document",
  },
  {
    param: "has_llms_txt",
    kind: "flag",
    filterKey: "hasLlmsTxt",
    label: "llms.txt",
    description: "Only sites with (true) or without (false) llms.txt",
  },
] as const satisfies readonly SearchFilterDeclaration[];

export type SearchFilterParam = (typeof SEARCH_FILTERS)[number]["param"];

/** The filters' parameter names, in the order every surface lists them. */
export const SEARCH_FILTER_PARAMS = SEARCH_FILTERS.map((filter) => filter.param) as SearchFilterParam[];

/** The filters of a validated query, as the search reads them. */
export function toSiteFilters(query: Partial<Record<SearchFilterParam, unknown>>): SiteFilters {
  const filters: Record<string, unknown> = {};
  for (const filter of SEARCH_FILTERS) filters[filter.filterKey] = query[filter.param];
  return filters as SiteFilters;
}
