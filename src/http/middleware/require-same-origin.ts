import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context.ts";
import { HttpProblem } from "../problem.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a cookie-authenticated mutation unless the browser says it came from the service's own
 * pages: `Sec-Fetch-Site: same-origin`, or (older browsers) an `Origin` equal to the service's.
 * Unlike `refuseCrossOriginBrowserMutations`, a request with neither header is refused too: a
 * cookie is only ever sent by a browser, and every current browser sends one of them on a POST,
 * so their absence means a client that should not hold the cookie. Safe methods pass.
 *
 * @example routes.use("/provider/claims/*", requireSession({ verify }), requireSameOrigin());
 */
export function requireSameOrigin() {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const fetchSite = c.req.header("sec-fetch-site")?.toLowerCase();
    const origin = c.req.header("origin");
    const ownOrigins = new Set([c.var.deps.origin, new URL(c.req.url).origin]);
    const sameOrigin =
      fetchSite !== undefined ? fetchSite === "same-origin" : origin !== undefined && ownOrigins.has(origin);
    if (!sameOrigin) {
      throw new HttpProblem(403, "SAME_ORIGIN_REQUIRED", "This change can only be made from the service's own pages.");
    }
    await next();
  });
}
