/**
 * GET /verify-mcp: the MCP verification form, and with `url` the live handshake itself, the same
 * domain operation as GET /api/v1/verify-mcp on the same free limit (20 per hour per client); a
 * GET like the API's, since it changes nothing (view: src/web/pages/verify-mcp.tsx). A refusal is
 * shown on the form with its status (400, 429).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { verifyMcp } from "../../domain/checks/verify-mcp.ts";
import { DOCUMENT_CACHE_CONTROL, SITE_PATHS } from "../../domain/descriptor/site-documents.ts";
import type { AppEnv } from "../../http/context.ts";
import { consumeRateLimit } from "../../http/middleware/rate-limit.ts";
import { renderVerifyMcpPage } from "../../web/pages/verify-mcp.tsx";
import { progressScriptHash } from "../../web/progress-script.ts";
import { VERIFY_MCP_LIMIT } from "../shared/live-check-limits.ts";
import { attempt, pageHeaders } from "./page-errors.ts";
import { validateUrlForm } from "./url-form.ts";

/** Serves the verification form and runs the verifications it asks for. */
export function registerVerifyMcpPage(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_PATHS.verifyMcp, async (c) => {
    const deps = c.var.deps;
    const scripts = [await progressScriptHash()];
    const typed = c.req.query("url");
    if (typed === undefined) {
      return c.html(
        await renderVerifyMcpPage({ origin: deps.origin }),
        200,
        pageHeaders(c, DOCUMENT_CACHE_CONTROL, scripts),
      );
    }
    const headers = pageHeaders(c, "no-store", scripts);
    // The verification assumes https:// itself, and reads a bare host as its /mcp: the typed text goes as is.
    const form = validateUrlForm({ url: typed });
    if (!form.ok) {
      return c.html(await renderVerifyMcpPage({ origin: deps.origin, url: typed, error: form.error }), 400, headers);
    }
    const outcome = await attempt(async () => {
      const limitHeaders = await consumeRateLimit(c, VERIFY_MCP_LIMIT);
      const verification = await verifyMcp({
        ctx: deps,
        input: { url: typed.trim() },
      });
      return { limitHeaders, verification };
    });
    if (!outcome.ok) {
      const page = await renderVerifyMcpPage({ origin: deps.origin, url: typed, error: outcome.message });
      return c.html(page, outcome.status, { ...outcome.headers, ...headers });
    }
    const page = await renderVerifyMcpPage({
      origin: deps.origin,
      url: typed,
      verification: outcome.value.verification,
    });
    return c.html(page, 200, { ...outcome.value.limitHeaders, ...headers });
  });
}
