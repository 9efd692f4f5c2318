/**
 * The one search contract of every surface (REST `GET /search`, the MCP tool `search_sites`, the
 * web search page): the input schema, its mapping to the domain input, the answer's shape and the
 * limits. Each filter comes from its one declaration (src/domain/search/search-filters.ts): its
 * parameter schema and description here, its field and label on the web form, its sentence in
 * the descriptor.
 */
import { z } from "@hono/zod-openapi";
import type { RunSearchInput } from "../../domain/search/run-search.ts";
import { SEARCH_FILTERS, toSiteFilters } from "../../domain/search/search-filters.ts";
import { SEARCH_MAX_PAGE, SEARCH_PAGE_SIZE, SEARCH_RESULT_WINDOW } from "../../domain/search/search-sites.ts";
import { MAX_QUERY_LENGTH } from "../../domain/search/text-query.ts";
import type { SearchSurface } from "../../domain/search-receipts/receipt-constants.ts";
import { CATEGORIES } from "../../domain/sites/site-fields.ts";
import { PublicProviderOfferSchema } from "../provider/offer-schemas.ts";
import { ActionInterestSidecarSchema, flagParam, integerParam, SiteSchema } from "./site-schemas.ts";
import { storableText } from "./text.ts";

/** A filter's parameter schema, from the kind its declaration names. */
function filterSchema(filter: (typeof SEARCH_FILTERS)[number]) {
  switch (filter.kind) {
    case "category":
      return z
        .enum(CATEGORIES, { error: `must be one of ${CATEGORIES.join(", ")}` })
        .optional()
        .openapi({ description: filter.description });
    case "tag":
      return z
        .string()
        .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, { error: "must be a lower-case tag: letters, digits and hyphens" })
        .optional()
        .openapi({ description: filter.description });
    case "score":
      return integerParam(0, 100, filter.description);
    case "flag":
      return flagParam(filter.description);
  }
}

/** The schema type of each kind of filter. */
interface FilterSchemas {
  category: z.ZodOptional<z.ZodEnum<{ [K in (typeof CATEGORIES)[number]]: K }>>;
  tag: z.ZodOptional<z.ZodString>;
  score: ReturnType<typeof integerParam>;
  flag: ReturnType<typeof flagParam>;
}

type FilterShape = { [F in (typeof SEARCH_FILTERS)[number] as F["param"]]: FilterSchemas[F["kind"]] };

const filterShape = Object.fromEntries(
  SEARCH_FILTERS.map((filter) => [filter.param, filterSchema(filter)]),
) as unknown as FilterShape;

/** Free search: 240 per hour per client (interface spec, Limits). */
export const SEARCH_LIMIT = { name: "search", limit: 240, window: "1 h" } as const;
/** With a priority key, while its monthly allocation lasts: 5000 per hour per key. */
export const PRIORITY_SEARCH_LIMIT = { name: "priority-search", limit: 5000, window: "1 h" } as const;

export const SearchQuerySchema = z.strictObject({
  q: storableText()
    .max(MAX_QUERY_LENGTH, { error: `must be at most ${MAX_QUERY_LENGTH} characters` })
    .optional()
    .openapi({
      description:
        "Words or a whole request; any word may match name, description, tags, category, domain or capabilities, ranked by relevance (stemmed; misspellings corrected; a short query's last word of 3+ letters also as a prefix)",
    }),
  ...filterShape,
  page: integerParam(1, SEARCH_MAX_PAGE, `Page, 1-based; ${SEARCH_PAGE_SIZE} results per page`),
});

/** The one search header: X-SVC-Synthetic (REST and MCP read it alike). */
export const SearchHeadersSchema = z.object({
  "x-svc-synthetic": z.enum(["true", "false"], { error: "must be true or false" }).optional().openapi({
    description: "true marks a test, monitor or load-run search: kept out of demand and action interests",
  }),
});

export type SearchQuery = z.output<typeof SearchQuerySchema>;

/** The domain input of one search from its validated parameters; every surface maps them so. */
export function toSearchInput(
  query: SearchQuery,
  source: { surface: SearchSurface; headers: z.output<typeof SearchHeadersSchema> },
): RunSearchInput {
  return {
    q: query.q?.trim() || undefined,
    filters: toSiteFilters(query),
    page: query.page ?? 1,
    surface: source.surface,
    synthetic: source.headers["x-svc-synthetic"] === "true",
  };
}

export const SearchResponseSchema = z
  .object({
    access: z.literal("free"),
    receipt_recorded: z.boolean().openapi({ description: "True only when the query-free receipt committed" }),
    search_id: z.string().openapi({ description: "The query-free receipt; empty when none was recorded" }),
    results: z.array(SiteSchema),
    paid_offers_available: z.boolean(),
    paid_offers: z.array(PublicProviderOfferSchema).openapi({
      description:
        "Offers disclosed to this committed receipt: active offers of verified and fresh claims whose domain is among these results; never part of results, score, total or ordering",
    }),
    action_interest: ActionInterestSidecarSchema,
    total: z
      .number()
      .int()
      .min(0)
      .max(SEARCH_RESULT_WINDOW)
      .openapi({
        description: `Sites ranked, counted up to ${SEARCH_RESULT_WINDOW}`,
      }),
    total_exact: z
      .boolean()
      .openapi({ description: `False when more sites match than were ranked, or more than ${SEARCH_RESULT_WINDOW}` }),
    page: z.number().int().min(1),
    per_page: z.number().int().openapi({ example: SEARCH_PAGE_SIZE }),
    has_next: z.boolean(),
    no_match: z
      .object({
        reason: z.enum(["unknown_words", "filters"]).openapi({
          description:
            "unknown_words: a word of q is in no indexed site; filters: every word is indexed, but on no site these filters allow (or only as words that phrase a request)",
        }),
        detail: z.string().openapi({ description: "Why, in one or two plain sentences" }),
        unknown_words: z.array(z.string()).openapi({ description: "The words of q no indexed site is listed under" }),
      })
      .optional()
      .openapi({ description: "Only when nothing matched: why nothing did" }),
    suggestions: z
      .array(
        z.object({
          word: z.string().openapi({ description: "A word of the index's vocabulary near an unknown word" }),
          replaces: z.string().openapi({ description: "The word of q it would replace" }),
          query: z.string().openapi({ description: "q's words with it in that word's place" }),
        }),
      )
      .openapi({
        description: "Only when nothing matched: the nearest indexed words that would match, nearest first",
      })
      .optional(),
  })
  .openapi("SearchResponse");
