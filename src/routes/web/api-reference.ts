/**
 * GET {site_url}/docs: the API reference, rendered on the server from the same OpenAPI document as
 * /openapi.json. The view is src/web/pages/api-reference.tsx.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { DOCUMENT_CACHE_CONTROL, SITE_PATHS } from "../../domain/descriptor/site-documents.ts";
import type { AppEnv } from "../../http/context.ts";
import { pageSecurityHeaders } from "../../web/page-headers.ts";
import { renderApiReference } from "../../web/pages/api-reference.tsx";
import { openApiDocumentOf, withOrigin } from "../openapi-spec.ts";

/** Serves the reference of the whole service (the app's catalog), cached like the document. */
export function registerApiReference(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_PATHS.docs, async (c) => {
    const { origin } = c.var.deps;
    const document = withOrigin(openApiDocumentOf(c.var.catalog), origin);
    return c.html(await renderApiReference(document, origin), 200, {
      "Cache-Control": DOCUMENT_CACHE_CONTROL,
      ...pageSecurityHeaders(origin),
    });
  });
}
