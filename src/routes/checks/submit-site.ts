import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { mayBePrivate } from "../../domain/checks/check-context.ts";
import { submitSite } from "../../domain/checks/submit-site.ts";
import { parseCrawlTarget } from "../../domain/crawling/crawl-target.ts";
import type { AppEnv } from "../../http/context.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { UrlBodySchema } from "../shared/check-schemas.ts";
import { problemResponses } from "../shared/schemas.ts";

/** Submissions per client; the spec leaves the figure open. */
export const SUBMIT_LIMIT = { name: "submit", limit: 30, window: "1 h" } as const;

export const SubmissionSchema = z
  .object({
    domain: z.string(),
    url: z.string().openapi({ description: "The origin that will be crawled" }),
    status: z.enum(["queued", "already_queued"]),
    queued_at: z.iso.datetime(),
    dedupe_window_seconds: z.number().int(),
  })
  .openapi("Submission");

export const submitSiteRoute = createRoute({
  method: "post",
  path: "/submit",
  operationId: "submitSite",
  tags: ["checks"],
  summary: "Queue a crawl of a URL's site (once per domain per hour)",
  description:
    "Queues a crawl of the URL's domain (the site is not contacted now; its name must resolve to public addresses). A repeat within the hour answers `already_queued` with the first `queued_at`. The crawl later writes the site, its signal evidence and score history to the index. 503 when the queue cannot take the job (retry then).",
  // Public: the spec's Authentication lists it under "none".
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: UrlBodySchema } } } },
  responses: {
    201: { description: "Submitted for crawling", content: { "application/json": { schema: SubmissionSchema } } },
    ...problemResponses(400, 429, 503),
  },
});

export function registerSubmitSite(app: OpenAPIHono<AppEnv>) {
  app.openapi(submitSiteRoute, async (c) => {
    const { url } = c.req.valid("json");
    const deps = c.var.deps;
    parseCrawlTarget(url, mayBePrivate(url, deps));
    await spendRateLimit(c, SUBMIT_LIMIT);
    const submission = await submitSite({
      ctx: deps,
      input: { url },
    });
    c.header("Cache-Control", "no-store");
    return c.json(submission, 201);
  });
}
