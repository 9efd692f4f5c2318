/**
 * GET /submit shows the form; POST /submit queues a crawl, the same domain operation as
 * POST /api/v1/submit on the same free limit (30 per hour per client), and shows what was queued
 * (view: src/web/pages/submit.tsx). A refusal is shown on the form with its status (400, 429,
 * 503); the POST is refused when a browser sends it from another site.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { submitSite } from "../../domain/checks/submit-site.ts";
import { DOCUMENT_CACHE_CONTROL, SITE_PATHS } from "../../domain/descriptor/site-documents.ts";
import type { AppEnv } from "../../http/context.ts";
import { consumeRateLimit } from "../../http/middleware/rate-limit.ts";
import { refuseCrossOriginBrowserMutations } from "../../http/middleware/refuse-cross-origin.ts";
import { renderSubmitPage } from "../../web/pages/submit.tsx";
import { SUBMIT_LIMIT } from "../checks/submit-site.ts";
import { attempt, pageHeaders } from "./page-errors.ts";
import { readUrlForm } from "./url-form.ts";

/** Serves the submit form and queues the sites it sends. */
export function registerSubmitPage(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_PATHS.submit, async (c) =>
    c.html(await renderSubmitPage({ origin: c.var.deps.origin }), 200, pageHeaders(c, DOCUMENT_CACHE_CONTROL)),
  );

  app.post(SITE_PATHS.submit, refuseCrossOriginBrowserMutations(), async (c) => {
    const deps = c.var.deps;
    const headers = pageHeaders(c, "no-store");
    const form = await readUrlForm(c);
    if (!form.ok) {
      return c.html(await renderSubmitPage({ origin: deps.origin, url: form.typed, error: form.error }), 400, headers);
    }
    const outcome = await attempt(async () => {
      const limitHeaders = await consumeRateLimit(c, SUBMIT_LIMIT);
      const submission = await submitSite({
        ctx: deps,
        input: { url: form.url },
      });
      return { limitHeaders, submission };
    });
    if (!outcome.ok) {
      const page = await renderSubmitPage({ origin: deps.origin, url: form.typed, error: outcome.message });
      return c.html(page, outcome.status, { ...outcome.headers, ...headers });
    }
    const page = await renderSubmitPage({ origin: deps.origin, submission: outcome.value.submission });
    return c.html(page, 200, { ...outcome.value.limitHeaders, ...headers });
  });
}
