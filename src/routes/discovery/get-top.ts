import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { listTopSites, TOP_CACHE_SECONDS, TOP_DEFAULT_LIMIT, TOP_MAX_LIMIT } from "../../domain/search/top-sites.ts";
import type { AppEnv } from "../../http/context.ts";
import { problemResponses } from "../shared/schemas.ts";
import { categoryParam, integerParam, SiteSchema, signalFlagParams } from "../shared/site-schemas.ts";

export const TopQuerySchema = z.strictObject({
  category: categoryParam,
  ...signalFlagParams,
  limit: integerParam(1, TOP_MAX_LIMIT, `How many sites, default ${TOP_DEFAULT_LIMIT}`),
});

/** The domain input of a top list from its validated parameters (REST and MCP alike). */
export function toTopInput(query: z.output<typeof TopQuerySchema>) {
  return {
    filters: {
      category: query.category,
      hasApi: query.has_api,
      hasMcp: query.has_mcp,
      hasOpenapi: query.has_openapi,
      hasLlmsTxt: query.has_llms_txt,
    },
    limit: query.limit ?? TOP_DEFAULT_LIMIT,
  };
}

export const TopResponseSchema = z
  .object({
    results: z.array(SiteSchema),
    total: z.number().int().min(0).openapi({ description: "Sites matching the filters" }),
    limit: z.number().int().min(1).max(TOP_MAX_LIMIT),
  })
  .openapi("TopResponse");

export const getTopRoute = createRoute({
  method: "get",
  path: "/top",
  operationId: "getTopSites",
  tags: ["discovery"],
  summary: "The highest agentic scores, cached 5 minutes per filter set",
  description:
    "Sites by `agentic_score` descending, ties broken by a hash of the domain as in search, filtered by category and the signal flags; the audit-only categories only when named. `limit` 1 to 100, default 50. Each filter set is cached 5 minutes (`X-Cache: HIT` or `MISS`).",
  // Public: the spec's Authentication lists it under "none".
  security: [],
  request: { query: TopQuerySchema },
  responses: {
    200: { description: "The top list", content: { "application/json": { schema: TopResponseSchema } } },
    ...problemResponses(400, 503),
  },
});

export function registerGetTop(app: OpenAPIHono<AppEnv>) {
  app.openapi(getTopRoute, async (c) => {
    const { cacheHit, ...top } = await listTopSites({ ctx: c.var.deps, input: toTopInput(c.req.valid("query")) });
    c.header("X-Cache", cacheHit ? "HIT" : "MISS");
    // HTTP caches keep the list as long as the service's own cache does: the interface's 5 minutes.
    c.header("Cache-Control", `public, max-age=${TOP_CACHE_SECONDS}`);
    return c.json(top, 200);
  });
}
