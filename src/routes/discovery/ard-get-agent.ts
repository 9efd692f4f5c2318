import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { ardEntry } from "../../domain/registry/catalog-entries.ts";
import { retrieveEntry } from "../../domain/registry/registry-query.ts";
import type { AppEnv } from "../../http/context.ts";
import { ARD_LIST_CACHE_SECONDS } from "./ard-list-agents.ts";
import { type ArdEntryBody, ArdEntrySchema, ArdIdentifierParamSchema, ardProblemResponses } from "./ard-schemas.ts";

export const ardGetAgentRoute = createRoute({
  method: "get",
  path: "/agents/{identifier}",
  operationId: "ardGetAgent",
  tags: ["registry"],
  summary: "ARD Retrieve: one complete entry by its identifier",
  description: `ARD v0.91 §5.3.4. Exact, case-sensitive lookup of the percent-decoded identifier in this index (never upstream). A value that is not an ARD identifier is 400; no such entry is 404. Writes nothing; cached ${ARD_LIST_CACHE_SECONDS} seconds (a 404 is not cached).`,
  // Public: no credential is read.
  security: [],
  request: { params: ArdIdentifierParamSchema },
  responses: {
    200: {
      description: "The complete entry",
      content: { "application/json": { schema: ArdEntrySchema } },
    },
    ...ardProblemResponses(400, 404, 503),
  },
});

export function registerArdGetAgent(app: OpenAPIHono<AppEnv>) {
  app.openapi(ardGetAgentRoute, async (c) => {
    const entry = await retrieveEntry({ ctx: c.var.deps, identifier: c.req.valid("param").identifier });
    c.header("Cache-Control", `public, max-age=${ARD_LIST_CACHE_SECONDS}`);
    return c.json(ardEntry(entry, c.var.deps.origin, { complete: true }) as ArdEntryBody, 200);
  });
}
