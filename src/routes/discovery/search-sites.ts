import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { runSearch } from "../../domain/search/run-search.ts";
import type { AppEnv } from "../../http/context.ts";
import { headOnlyReply, isHeadRequest } from "../../http/head-request.ts";
import { spendTieredLimit } from "../../http/middleware/priority-limit.ts";
import { OPTIONAL_PRIORITY_KEY } from "../commerce/schemas.ts";
import { problemResponses } from "../shared/schemas.ts";
import {
  PRIORITY_SEARCH_LIMIT,
  SEARCH_LIMIT,
  SearchHeadersSchema,
  SearchQuerySchema,
  SearchResponseSchema,
  toSearchInput,
} from "../shared/search-contract.ts";

export const searchSitesRoute = createRoute({
  method: "get",
  path: "/search",
  operationId: "searchSites",
  tags: ["discovery"],
  summary:
    "Search the index: organic results, the most relevant first and by agentic_score within, with a query-free receipt",
  description:
    "`q` may be a few words or a whole request: any of its words may match the name, description, tags, category, domain or capabilities (what the site's own agent documents say it does), stemmed, domain labels also as spelt, common variant spellings such as e-mail and email meeting, a misspelt word taken for the nearest indexed one, the last word of a short query also as a prefix; words that only phrase a request (need, find, please…) count little and never make a match. Organic order: an exact domain match first, then relevance (BM25F over those fields, a site matching more of the words first; `agentic_score` a factor of at most 5 % within it), ties broken by `agentic_score` and a hash of the domain; deterministic, the same for every caller, and nothing paid changes it. Filters alone: `agentic_score` descending. 20 results per page, up to page 50; `total` counts the sites ranked, up to 1,000 (`total_exact` false when more match). Unknown parameters are refused; the audit-only categories other and spam appear only when named. Each search records a query-free receipt (`search_id`) and carries the action-interest sidecar. In that receipt's own transaction, `paid_offers` discloses (and records the disclosure of) the active offers of verified and fresh provider claims whose domain is among this page's results; results, order, total and scores are computed before and apart from them. 240 per hour per client, counted once the parameters are valid; with a priority key (`Authorization: Bearer <key>`) 5000 per hour per key while its monthly allocation lasts, then the free tier; a bad or ended key is 401. A key never changes the results. Never cached. HEAD checks the parameters and answers the headers only: it runs no search, records no receipt and spends no quota.",
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
