/**
 * GET {site_url}/docs: the API reference, rendered on the server from the same OpenAPI document as
 * /openapi.json. The view is src/web/pages/api-reference.tsx.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { DOCUMENT_CACHE_CONTROL, SITE_PATHS } from "../../domain/descriptor/site-documents.ts";
import type { AppEnv } from "../../http/context.ts";
import { pageSecurityHeaders } from "../../web/page-headers.ts";
import { renderApiReference } from "../../web/pages/api-reference.tsx";
import { withOrigin } from "../openapi-spec.ts";
import { SERVICE_OPENAPI_DOCUMENT } from "../service-openapi.ts";

/** Serves the reference of the whole service (src/routes/service-openapi.ts), cached like the document. */
export function registerApiReference(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_PATHS.docs, async (c) => {
    const { origin } = c.var.deps;
    const document = withOrigin(SERVICE_OPENAPI_DOCUMENT, origin);
    return c.html(await renderApiReference(document, origin), 200, {
      "Cache-Control": DOCUMENT_CACHE_CONTROL,
      ...pageSecurityHeaders(origin),
    });
  });
}
