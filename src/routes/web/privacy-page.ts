/**
 * GET /privacy: what the service records and what it does not, and the exact meaning of every
 * consent version under the anchors the spec publishes. The view is src/web/pages/privacy.tsx.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { DOCUMENT_CACHE_CONTROL, SITE_PATHS } from "../../domain/descriptor/site-documents.ts";
import type { AppEnv } from "../../http/context.ts";
import { pageSecurityHeaders } from "../../web/page-headers.ts";
import { renderPrivacyPage } from "../../web/pages/privacy.tsx";

/** Serves the privacy page at /privacy. */
export function registerPrivacyPage(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_PATHS.privacy, async (c) => {
    const { origin } = c.var.deps;
    return c.html(await renderPrivacyPage(origin), 200, {
      "Cache-Control": DOCUMENT_CACHE_CONTROL,
      ...pageSecurityHeaders(origin),
    });
  });
}
