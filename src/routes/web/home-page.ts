/**
 * GET / at the site root: the home page (its view is src/web/pages/home.tsx), with the API's
 * description, docs and catalog also in the Link header; and GET /favicon.svg, the icon it names.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../http/context.ts";
import { FAVICON_SVG } from "../../web/favicon.ts";
import { pageSecurityHeaders } from "../../web/page-headers.ts";
import { renderHomePage } from "../../web/pages/home.tsx";
import { buildSiteLinks, DOCUMENT_CACHE_CONTROL, OPENAPI_MEDIA_TYPE, SITE_PATHS } from "./agent-documents.ts";

/** The Link header of the home page: the API's description, its docs and its catalog (RFC 8631, 9727). */
export function buildHomeLinkHeader(origin: string): string {
  const links = buildSiteLinks(origin);
  return [
    `<${links.openApi}>; rel="service-desc"; type="${OPENAPI_MEDIA_TYPE}"`,
    `<${links.docs}>; rel="service-doc"; type="text/html"`,
    `<${links.apiCatalog}>; rel="api-catalog"`,
  ].join(", ");
}

/** Serves the home page at / and its icon at /favicon.svg. */
export function registerHomePage(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_PATHS.home, async (c) => {
    const { origin } = c.var.deps;
    return c.html(await renderHomePage(origin, c.var.endpoints), 200, {
      "Cache-Control": DOCUMENT_CACHE_CONTROL,
      Link: buildHomeLinkHeader(origin),
      ...pageSecurityHeaders(origin),
    });
  });

  app.get(SITE_PATHS.favicon, (c) =>
    c.body(FAVICON_SVG, 200, {
      "Content-Type": "image/svg+xml",
      // A static icon: a day of caching spares every page view a request.
      "Cache-Control": "public, max-age=86400",
    }),
  );
}
