/** GET {site_url}/openapi.json: the OpenAPI 3.1 document of every API operation of the service. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { SITE_PATHS } from "../../domain/descriptor/site-documents.ts";
import type { AppEnv } from "../../http/context.ts";
import { openApiDocumentOf, withOrigin } from "../openapi-spec.ts";

/** Where the document is served, at the site root (the descriptor's `openapi_spec`). */
export const OPENAPI_DOCUMENT_PATH = SITE_PATHS.openApiDocument;

/**
 * Serves the document of the whole service (the app's catalog, not only the groups this Worker
 * serves), built once per app; read-only, so open to any origin (the app's read CORS).
 */
export function registerOpenApiDocument(app: OpenAPIHono<AppEnv>) {
  app.get(OPENAPI_DOCUMENT_PATH, (c) => {
    const document = withOrigin(openApiDocumentOf(c.var.catalog), c.var.deps.origin);
    c.header("Cache-Control", "public, max-age=300");
    return c.json(document, 200);
  });
}
