import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { exploreRegistry } from "../../domain/registry/registry-query.ts";
import type { AppEnv } from "../../http/context.ts";
import { spendTieredLimit } from "../../http/middleware/priority-limit.ts";
import { OPTIONAL_PRIORITY_KEY } from "../commerce/schemas.ts";
import { PRIORITY_SEARCH_LIMIT, SEARCH_LIMIT } from "../shared/search-contract.ts";
import { ArdExploreRequestSchema, ArdExploreResponseSchema, ardProblemResponses } from "./ard-schemas.ts";

/** Buckets per facet when a facet does not say (ARD §5.3.3). */
export const FACET_LIMIT_DEFAULT = 20;

export const ardExploreRoute = createRoute({
  method: "post",
  path: "/explore",
  operationId: "ardExplore",
  tags: ["registry"],
  summary: "ARD Explore: facet counts over the entries a query matches, or over the whole registry",
  description: `ARD v0.91 §5.3.3. The matched set is Search's for the same \`query\` (the same relevance cutoff), or every entry of the registry when \`query.text\` is absent, narrowed by \`query.filter\`. Each facet of \`resultType.facets\` (a filter key) counts the matching entries per value, most first, then by value; \`limit\` buckets (default ${FACET_LIMIT_DEFAULT}), buckets under \`minCount\` (default 1) left out, and \`otherCount\` the entries in buckets past the limit. Does not federate. Counted against the search limit once the body is valid. Never cached.`,
  security: OPTIONAL_PRIORITY_KEY,
  request: {
    body: { required: true, content: { "application/json": { schema: ArdExploreRequestSchema } } },
  },
  responses: {
    200: {
      description: "The facets",
      content: { "application/json": { schema: ArdExploreResponseSchema } },
    },
    ...ardProblemResponses(400, 401, 429, 503),
  },
});

export function registerArdExplore(app: OpenAPIHono<AppEnv>) {
  app.openapi(ardExploreRoute, async (c) => {
    const body = c.req.valid("json");
    const text = body.query?.text?.trim();
    const facets = await exploreRegistry({
      ctx: c.var.deps,
      input: {
        ...(text ? { text } : {}),
        filter: body.query?.filter,
        facets: body.resultType.facets.map((facet) => ({
          field: facet.field,
          limit: facet.limit ?? FACET_LIMIT_DEFAULT,
          minCount: facet.minCount ?? 1,
        })),
      },
      admit: () => spendTieredLimit(c, { free: SEARCH_LIMIT, priority: PRIORITY_SEARCH_LIMIT }),
    });
    c.header("Cache-Control", "private, no-store");
    return c.json({ resultType: "facets" as const, facets }, 200);
  });
}
