/**
 * GET /check shows the form; POST /check runs the live check, the same domain operation as
 * POST /api/v1/check on the same free limit (10 per hour per client), and answers the report
 * (view: src/web/pages/check.tsx). A refused or malformed address is shown on the form with its
 * status (400, 429); the POST is refused when a browser sends it from another site.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { checkSite } from "../../domain/checks/check-site.ts";
import { DOCUMENT_CACHE_CONTROL, SITE_PATHS } from "../../domain/descriptor/site-documents.ts";
import type { AppEnv } from "../../http/context.ts";
import { consumeRateLimit } from "../../http/middleware/rate-limit.ts";
import { refuseCrossOriginBrowserMutations } from "../../http/middleware/refuse-cross-origin.ts";
import { renderCheckPage } from "../../web/pages/check.tsx";
import { progressScriptHash } from "../../web/progress-script.ts";
import { reportFromCheck } from "../../web/site-report.tsx";
import { CHECK_LIMIT } from "../shared/live-check-limits.ts";
import { attempt, pageHeaders } from "./page-errors.ts";
import { readUrlForm } from "./url-form.ts";

/** Serves the check form and runs the checks it sends. */
export function registerCheckPage(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_PATHS.check, async (c) => {
    const scripts = [await progressScriptHash()];
    return c.html(
      await renderCheckPage({ origin: c.var.deps.origin, demoHosts: c.var.deps.trustedHosts }),
      200,
      pageHeaders(c, DOCUMENT_CACHE_CONTROL, scripts),
    );
  });

  app.post(SITE_PATHS.check, refuseCrossOriginBrowserMutations(), async (c) => {
    const deps = c.var.deps;
    const headers = pageHeaders(c, "no-store", [await progressScriptHash()]);
    const form = await readUrlForm(c);
    // A typing mistake costs no check: the limit counts only addresses that can be checked.
    if (!form.ok) {
      return c.html(await renderCheckPage({ origin: deps.origin, url: form.typed, error: form.error }), 400, headers);
    }
    const outcome = await attempt(async () => {
      let limitHeaders: Record<string, string> = {};
      const result = await checkSite({
        ctx: deps,
        input: { url: form.url },
        admit: async () => {
          limitHeaders = await consumeRateLimit(c, CHECK_LIMIT);
        },
      });
      return { limitHeaders, result };
    });
    if (!outcome.ok) {
      const page = await renderCheckPage({ origin: deps.origin, url: form.typed, error: outcome.message });
      return c.html(page, outcome.status, { ...outcome.headers, ...headers });
    }
    const page = await renderCheckPage({ origin: deps.origin, report: reportFromCheck(outcome.value.result) });
    return c.html(page, 200, { ...outcome.value.limitHeaders, ...headers });
  });
}
