/**
 * GET /badge/{domain}.svg: the embeddable score badge of a site (src/web/badge.ts), from the one
 * lookup of its current score. A domain the index does not hold (or a name that is no domain)
 * gets a "not indexed" badge with status 404: an image still, so a page embedding it shows the
 * truth rather than a broken image, and a client reading the status learns the same.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { getSiteScore } from "../../domain/sites/get-site-score.ts";
import type { AppEnv } from "../../http/context.ts";
import { renderBadge } from "../../web/badge.ts";

/** `{domain}.svg` as one path segment; the domain is what precedes `.svg`. */
export const BADGE_PATH = "/badge/:file{.+\\.svg}";

/** Scores change at most once per crawl: five minutes of caching costs little freshness. */
export const BADGE_CACHE_CONTROL = "public, max-age=300";
/** A site not indexed now may be soon after a submission: its badge is kept only a minute. */
export const UNKNOWN_BADGE_CACHE_CONTROL = "public, max-age=60";

/** Serves the badges. */
export function registerBadge(app: OpenAPIHono<AppEnv>) {
  app.get(BADGE_PATH, async (c) => {
    const requested = c.req.param("file").slice(0, -".svg".length);
    const site = await getSiteScore({ ctx: c.var.deps, input: { domain: requested } });
    const headers = {
      "Content-Type": "image/svg+xml; charset=utf-8",
      // An SVG opened on its own is a document: it may load and run nothing.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      "X-Content-Type-Options": "nosniff",
    };
    if (!site) {
      const badge = renderBadge({ kind: "not_indexed" }, `${requested.slice(0, 253)}: not indexed`);
      return c.body(badge, 404, { ...headers, "Cache-Control": UNKNOWN_BADGE_CACHE_CONTROL });
    }
    const badge = renderBadge(
      { kind: "score", score: site.agentic_score },
      `${site.domain}: agent ready ${site.agentic_score}/100`,
    );
    return c.body(badge, 200, { ...headers, "Cache-Control": BADGE_CACHE_CONTROL });
  });
}
