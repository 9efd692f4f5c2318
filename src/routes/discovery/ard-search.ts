import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { ardEntry, registrySource } from "../../domain/registry/catalog-entries.ts";
import { searchRegistry } from "../../domain/registry/registry-query.ts";
import { REGISTRY_TEXT_WINDOW } from "../../domain/registry/relevant-sites.ts";
import type { AppEnv } from "../../http/context.ts";
import { spendTieredLimit } from "../../http/middleware/priority-limit.ts";
import { OPTIONAL_PRIORITY_KEY } from "../commerce/schemas.ts";
import { PRIORITY_SEARCH_LIMIT, SEARCH_LIMIT } from "../shared/search-contract.ts";
import {
  ArdSearchRequestSchema,
  ArdSearchResponseSchema,
  type ArdSearchResultBody,
  ardProblemResponses,
  SEARCH_PAGE_SIZE_DEFAULT,
} from "./ard-schemas.ts";

export const ardSearchRoute = createRoute({
  method: "post",
  path: "/search",
  operationId: "ardSearch",
  tags: ["registry"],
  summary: "ARD Search: the agent resources of the indexed sites, ranked by the site search's relevance",
  description: `ARD v0.91 §5.3.2. \`query.text\` is required and matched as the site search matches \`q\`; the entries of the first ${REGISTRY_TEXT_WINDOW} sites it finds (the registry's relevance cutoff) are the matched set, in the site search's order, each site's entries in the order the site lists them. \`score\` is relevance only (100 for the first site, falling to 1 at the end of the window). \`query.filter\` narrows by type, tags, capabilities, publisher, identifier and by our verification (\`verified\`, \`agentic_score\`). Each entry carries our verification under \`agentReadiness:verification\`. \`federation\`: none and auto search this index (it has no upstream registries); referrals adds the registries found in sites' ARD manifests. Pages of \`pageSize\` (default ${SEARCH_PAGE_SIZE_DEFAULT}, at most 100) follow \`pageToken\`. Nothing paid changes an entry or the order; the text is never stored. Counted against the search limit (240 per hour, or the priority key's) once the body is valid. Never cached.`,
  security: OPTIONAL_PRIORITY_KEY,
  request: {
    body: { required: true, content: { "application/json": { schema: ArdSearchRequestSchema } } },
  },
  responses: {
    200: {
      description: "One page of entries",
      content: { "application/json": { schema: ArdSearchResponseSchema } },
    },
    ...ardProblemResponses(400, 401, 429, 503),
  },
});

export function registerArdSearch(app: OpenAPIHono<AppEnv>) {
  app.openapi(ardSearchRoute, async (c) => {
    const body = c.req.valid("json");
    const { origin } = c.var.deps;
    const page = await searchRegistry({
      ctx: c.var.deps,
      input: {
        text: body.query.text.trim(),
        filter: body.query.filter,
        pageSize: body.pageSize ?? SEARCH_PAGE_SIZE_DEFAULT,
        pageToken: body.pageToken,
        federation: body.federation ?? "auto",
      },
      admit: () => spendTieredLimit(c, { free: SEARCH_LIMIT, priority: PRIORITY_SEARCH_LIMIT }),
    });
    const source = registrySource(origin);
    c.header("Cache-Control", "private, no-store");
    return c.json(
      {
        results: page.results.map((entry) => ({
          ...ardEntry(entry, origin, { complete: false }),
          score: entry.score,
          source,
        })) as ArdSearchResultBody[],
        ...(page.referrals
          ? {
              referrals: page.referrals.map((entry) => ({
                identifier: entry.resource.identifier,
                displayName: entry.resource.displayName,
                type: "application/ai-registry+json" as const,
                url: entry.resource.url!,
              })),
            }
          : {}),
        ...(page.pageToken ? { pageToken: page.pageToken } : {}),
      },
      200,
    );
  });
}
