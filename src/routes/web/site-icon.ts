/**
 * GET /icons/{domain}: an indexed site's favicon, fetched by the service through the guarded
 * outbound fetcher and cached (src/domain/sites/site-icon.ts), so pages never hot-link a site's
 * icon. Where there is none to show (not indexed, no icon, or one that is not a small raster
 * image), a plain letter as SVG with status 404: still an image, as the badge does for an unknown
 * domain, and a client reading the status learns the truth.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { getSiteIcon, SITE_ICON_CACHE_SECONDS } from "../../domain/sites/site-icon.ts";
import type { AppEnv } from "../../http/context.ts";
import { fallbackIconSvg, SITE_ICON_PATH } from "../../web/site-icon.tsx";

/** What every answer carries: an image that may run and load nothing, for this service's pages. */
const SAFE_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
  "Cross-Origin-Resource-Policy": "same-origin",
};

/** A missing icon may appear with the next crawl: kept an hour rather than a day. */
export const FALLBACK_ICON_CACHE_CONTROL = "public, max-age=3600";

/** Serves the icons. */
export function registerSiteIcon(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_ICON_PATH, async (c) => {
    const domain = c.req.param("domain").slice(0, 253);
    const icon = await getSiteIcon({ ctx: c.var.deps, input: { domain } });
    if (!icon.found) {
      return c.body(fallbackIconSvg(domain), 404, {
        ...SAFE_HEADERS,
        "Content-Type": "image/svg+xml; charset=utf-8",
        "Cache-Control": FALLBACK_ICON_CACHE_CONTROL,
      });
    }
    return c.body(icon.bytes, 200, {
      ...SAFE_HEADERS,
      "Content-Type": icon.type,
      "Cache-Control": `public, max-age=${SITE_ICON_CACHE_SECONDS}`,
    });
  });
}
