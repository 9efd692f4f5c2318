import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { CHECK_IDS } from "../../domain/checklist/checklist-definition.ts";
import { mayBePrivate } from "../../domain/checks/check-context.ts";
import { checkSite } from "../../domain/checks/check-site.ts";
import { parseCrawlTarget } from "../../domain/crawling/crawl-target.ts";
import type { AppEnv } from "../../http/context.ts";
import { spendTieredLimit } from "../../http/middleware/priority-limit.ts";
import { OPTIONAL_PRIORITY_KEY } from "../commerce/schemas.ts";
import { CheckResultSchema, UrlBodySchema } from "../shared/check-schemas.ts";
import { CHECK_LIMIT, PRIORITY_CHECK_LIMIT } from "../shared/live-check-limits.ts";
import { problemResponses } from "../shared/schemas.ts";

export const checkSiteRoute = createRoute({
  method: "post",
  path: "/check",
  operationId: "checkSite",
  tags: ["checks"],
  summary: "Live crawl of a URL's site: its score and the 7 signals with their evidence",
  description: `Crawls the site of an absolute http/https URL now and returns the agentic score and each of the 7 signals with the fetches behind it, and the agent-readiness checklist (\`checks\`: ${CHECK_IDS.length} checks with status, reason, evidence and fix; \`checks_summary\`: the site kind and how many applicable checks pass), which never changes the score. The index is never written here: when the indexed entry differs, a recrawl is queued. Only public hosts are fetched. 10 per hour per client address, counted once the URL is usable: a request refused as invalid without a lookup (bad JSON, a wrong field, an unusable URL, a body over the limit) costs nothing; with a priority key (\`Authorization: Bearer <key>\`) 100 per hour per key while its monthly allocation lasts, then the free tier; a bad or ended key is 401. Never cached.`,
  // Public: the spec's Authentication lists it under "none".
  security: OPTIONAL_PRIORITY_KEY,
  request: { body: { required: true, content: { "application/json": { schema: UrlBodySchema } } } },
  responses: {
    200: { description: "The live result", content: { "application/json": { schema: CheckResultSchema } } },
    ...problemResponses(400, 401, 429, 503),
  },
});

export function registerCheckSite(app: OpenAPIHono<AppEnv>) {
  app.openapi(checkSiteRoute, async (c) => {
    const { url } = c.req.valid("json");
    const deps = c.var.deps;
    parseCrawlTarget(url, mayBePrivate(url, deps));
    const result = await checkSite({
      ctx: deps,
      input: { url },
      admit: () => spendTieredLimit(c, { free: CHECK_LIMIT, priority: PRIORITY_CHECK_LIMIT }),
    });
    c.header("Cache-Control", "no-store");
    return c.json(result, 200);
  });
}
