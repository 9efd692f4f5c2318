import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { ardEntry } from "../../domain/registry/catalog-entries.ts";
import { listRegistry } from "../../domain/registry/registry-query.ts";
import type { AppEnv } from "../../http/context.ts";
import { HttpProblem } from "../../http/problem.ts";
import {
  type ArdEntryBody,
  ArdListQuerySchema,
  ArdListResponseSchema,
  ardProblemResponses,
  LIST_PAGE_SIZE_DEFAULT,
} from "./ard-schemas.ts";

/** How long HTTP caches and the edge keep a page of the listing. */
export const ARD_LIST_CACHE_SECONDS = 60;

export const ardListAgentsRoute = createRoute({
  method: "get",
  path: "/agents",
  operationId: "ardListAgents",
  tags: ["registry"],
  summary: "ARD List: every entry of the registry in one deterministic order, a page at a time",
  description: `ARD v0.91 §5.3.5. Entries in the order of their site's domain (byte order), then their place on the site; no relevance. \`filter\` is ARD's filter expression (Appendix A). \`orderBy\` is not supported (one order). \`pageSize\` default ${LIST_PAGE_SIZE_DEFAULT}, at most 100; \`pageToken\` from the previous page. Writes nothing and spends no quota; cached ${ARD_LIST_CACHE_SECONDS} seconds.`,
  // Public: no credential is read.
  security: [],
  request: { query: ArdListQuerySchema },
  responses: {
    200: {
      description: "One page of entries",
      content: { "application/json": { schema: ArdListResponseSchema } },
    },
    ...ardProblemResponses(400, 503),
  },
});

export function registerArdListAgents(app: OpenAPIHono<AppEnv>) {
  app.openapi(ardListAgentsRoute, async (c) => {
    const query = c.req.valid("query");
    if (query.orderBy !== undefined) {
      throw new HttpProblem(
        400,
        "UNSUPPORTED_ORDER",
        "orderBy is not supported: the listing has one deterministic order (the site's domain, then the entry's place on the site).",
      );
    }
    const page = await listRegistry({
      ctx: c.var.deps,
      input: { filter: query.filter, pageSize: query.pageSize ?? LIST_PAGE_SIZE_DEFAULT, pageToken: query.pageToken },
    });
    c.header("Cache-Control", `public, max-age=${ARD_LIST_CACHE_SECONDS}`);
    return c.json(
      {
        items: page.items.map((entry) => ardEntry(entry, c.var.deps.origin, { complete: true })) as ArdEntryBody[],
        ...(page.pageToken ? { pageToken: page.pageToken } : {}),
      },
      200,
    );
  });
}
