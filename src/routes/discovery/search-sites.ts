import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { type RunSearchInput, runSearch } from "../../domain/search/run-search.ts";
import { SEARCH_MAX_PAGE, SEARCH_PAGE_SIZE, SEARCH_RESULT_WINDOW } from "../../domain/search/search-sites.ts";
import { MAX_QUERY_LENGTH } from "../../domain/search/text-query.ts";
import type { SearchSurface } from "../../domain/search-receipts/receipt-constants.ts";
import type { AppEnv } from "../../http/context.ts";
import { headOnlyReply, isHeadRequest } from "../../http/head-request.ts";
import { spendTieredLimit } from "../../http/middleware/priority-limit.ts";
import { OPTIONAL_PRIORITY_KEY } from "../commerce/schemas.ts";
import { PublicProviderOfferSchema } from "../provider/offer-schemas.ts";
import { problemResponses } from "../shared/schemas.ts";
import {
  ActionInterestSidecarSchema,
  categoryParam,
  integerParam,
  SiteSchema,
  signalFlagParams,
} from "../shared/site-schemas.ts";
import { storableText } from "../shared/text.ts";

/** Free search: 240 per hour per client (interface spec, Limits). */
export const SEARCH_LIMIT = { name: "search", limit: 240, window: "1 h" } as const;
/** With a priority key, while its monthly allocation lasts: 5000 per hour per key. */
export const PRIORITY_SEARCH_LIMIT = { name: "priority-search", limit: 5000, window: "1 h" } as const;

export const SearchQuerySchema = z.strictObject({
  q: storableText()
    .max(MAX_QUERY_LENGTH, { error: `must be at most ${MAX_QUERY_LENGTH} characters` })
    .optional()
    .openapi({ description: "Words matched in name, description and domain (stemmed; 3+ letters also as prefixes)" }),
  category: categoryParam,
  tag: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, { error: "must be a lower-case tag: letters, digits and hyphens" })
    .optional()
    .openapi({ description: "Exact tag, e.g. mcp, openapi, payment, search" }),
  min_score: integerParam(0, 100, "Lowest agentic_score, inclusive"),
  ...signalFlagParams,
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
    filters: {
      category: query.category,
      tag: query.tag,
      minScore: query.min_score,
      hasApi: query.has_api,
      hasMcp: query.has_mcp,
      hasOpenapi: query.has_openapi,
      hasLlmsTxt: query.has_llms_txt,
    },
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
        description: `Matches, counted up to ${SEARCH_RESULT_WINDOW}`,
      }),
    total_exact: z.boolean().openapi({ description: `False when more than ${SEARCH_RESULT_WINDOW} sites match` }),
    page: z.number().int().min(1),
    per_page: z.number().int().openapi({ example: SEARCH_PAGE_SIZE }),
    has_next: z.boolean(),
    no_match: z
      .object({
        reason: z.enum(["unknown_words", "filters"]).openapi({
          description:
            "unknown_words: a word of q is in no indexed site; filters: every word is indexed, but not on a site these filters (or the other words) allow",
        }),
        detail: z.string().openapi({ description: "Why, in one or two plain sentences" }),
        unknown_words: z.array(z.string()).openapi({ description: "The words of q no indexed site is listed under" }),
      })
      .nullable()
      .openapi({ description: "Null when something matched; else why nothing did" }),
    suggestions: z
      .array(
        z.object({
          word: z.string().openapi({ description: "A word of the index's vocabulary near an unknown word" }),
          replaces: z.string().openapi({ description: "The word of q it would replace" }),
          query: z.string().openapi({ description: "q's words with it in that word's place" }),
        }),
      )
      .openapi({
        description: "When nothing matched: the nearest indexed words that would match, nearest first; else empty",
      }),
  })
  .openapi("SearchResponse");

export const searchSitesRoute = createRoute({
  method: "get",
  path: "/search",
  operationId: "searchSites",
  tags: ["discovery"],
  summary:
    "Search the index: organic results, the most relevant first and by agentic_score within, with a query-free receipt",
  description:
    "Every word of `q` must match the name, description, tags or domain (stemmed, domain labels also as spelt; words of 3+ letters also as prefixes; common variant spellings such as e-mail and email meet). Organic order: an exact domain match first, then relevance tiers (the sites whose name, tags or domain carry every word of `q`, then those that lack one more word at a time, down to those whose description alone carries them), and within a tier `agentic_score` descending, ties broken by a hash of the domain; deterministic, the same for every caller, and nothing paid changes it. 20 results per page, up to page 50; `total` counts up to 1,000. Unknown parameters are refused; the audit-only categories other and spam appear only when named. Each search records a query-free receipt (`search_id`) and carries the action-interest sidecar. In that receipt's own transaction, `paid_offers` discloses (and records the disclosure of) the active offers of verified and fresh provider claims whose domain is among this page's results; results, order, total and scores are computed before and apart from them. 240 per hour per client, counted once the parameters are valid; with a priority key (`Authorization: Bearer <key>`) 5000 per hour per key while its monthly allocation lasts, then the free tier; a bad or ended key is 401. A key never changes the results. Never cached. HEAD checks the parameters and answers the headers only: it runs no search, records no receipt and spends no quota.",
  // Public: the spec's Authentication lists it under "none".
  security: OPTIONAL_PRIORITY_KEY,
  request: {
    query: SearchQuerySchema,
    headers: SearchHeadersSchema,
  },
  responses: {
    200: {
      description: "One page of organic results",
      content: { "application/json": { schema: SearchResponseSchema } },
    },
    // 503 DEPENDENCY_UNAVAILABLE (Retry-After) when the database or Redis is unreachable.
    ...problemResponses(400, 401, 429, 503),
  },
});

// Every search writes its own receipt: a shared cache must never replay one.
const SEARCH_CACHE_CONTROL = "private, no-store";

export function registerSearchSites(app: OpenAPIHono<AppEnv>) {
  app.openapi(searchSitesRoute, async (c) => {
    const input = toSearchInput(c.req.valid("query"), { surface: "rest", headers: c.req.valid("header") });
    if (isHeadRequest(c)) return headOnlyReply(c, { "Cache-Control": SEARCH_CACHE_CONTROL });
    const body = await runSearch({
      ctx: c.var.deps,
      input,
      admit: () => spendTieredLimit(c, { free: SEARCH_LIMIT, priority: PRIORITY_SEARCH_LIMIT }),
    });
    c.header("Cache-Control", SEARCH_CACHE_CONTROL);
    return c.json(body, 200);
  });
}
