import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { SIGNAL_FIELDS, type SignalField } from "../../domain/sites/site-fields.ts";
import { indexStats, STATS_CACHE_SECONDS } from "../../domain/stats/index-stats.ts";
import type { AppEnv } from "../../http/context.ts";
import { problemResponses } from "../shared/schemas.ts";

const CoverageSchema = z.object({
  sites: z.number().int().min(0),
  share: z.number().min(0).max(1).openapi({ description: "Of all indexed sites, 4 decimals" }),
});

export const StatsResponseSchema = z
  .object({
    sites: z.object({
      total: z.number().int().min(0),
      discovery: z.number().int().min(0).openapi({ description: "Outside the audit-only buckets" }),
      audit_only: z.object({ other: z.number().int().min(0), spam: z.number().int().min(0) }),
    }),
    signals: z.object(
      Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, CoverageSchema])) as Record<
        SignalField,
        typeof CoverageSchema
      >,
    ),
    scores: z.object({
      average: z.number().nullable(),
      median: z.number().int().nullable(),
      distribution: z.array(z.object({ min: z.number().int(), max: z.number().int(), sites: z.number().int().min(0) })),
    }),
    freshness: z.object({
      newest_crawl_at: z.iso.datetime().nullable(),
      oldest_crawl_at: z.iso.datetime().nullable(),
      crawled_within: z.object({
        "24h": z.number().int().min(0),
        "7d": z.number().int().min(0),
        "30d": z.number().int().min(0),
      }),
      older_than_30d: z.number().int().min(0),
      failed_last_crawl: z.number().int().min(0),
    }),
    score_version: z.number().int(),
    generated_at: z.iso.datetime(),
  })
  .openapi("IndexStats");

export const getStatsRoute = createRoute({
  method: "get",
  path: "/stats",
  operationId: "getIndexStats",
  tags: ["discovery"],
  summary: "Index statistics: totals, signal coverage, score distribution and freshness",
  description:
    "Over every indexed site: totals (the audit-only buckets apart), each signal's coverage, the score average, median and distribution, and crawl freshness. Cached 5 minutes.",
  // Public: the spec's Authentication lists it under "none".
  security: [],
  responses: {
    200: { description: "Index statistics", content: { "application/json": { schema: StatsResponseSchema } } },
    ...problemResponses(503),
  },
});

export function registerGetStats(app: OpenAPIHono<AppEnv>) {
  app.openapi(getStatsRoute, async (c) => {
    const body = await indexStats({ ctx: c.var.deps });
    c.header("Cache-Control", `public, max-age=${STATS_CACHE_SECONDS / 5}`);
    return c.json(body, 200);
  });
}
