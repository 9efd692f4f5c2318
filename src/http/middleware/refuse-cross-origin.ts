import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.ts";
import { HttpProblem } from "../problem.ts";

// Fetch metadata values a browser sends for a request from another origin.
const CROSS_ORIGIN_FETCH_SITES = new Set(["cross-site", "same-site"]);

/**
 * Refuses a state-changing request that a browser sent on behalf of another origin: 403 when
 * `Sec-Fetch-Site` says cross-site or same-site, or `Origin` names an origin other than the
 * service's own (an opaque `null` origin included). Native agents send neither header and are
 * accepted, as are the service's own pages.
 *
 * @example routes.use("/action-interests", refuseCrossOriginBrowserMutations());
 */
export function refuseCrossOriginBrowserMutations(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const fetchSite = c.req.header("sec-fetch-site")?.toLowerCase();
    const origin = c.req.header("origin");
    const ownOrigins = new Set([c.var.deps.origin, new URL(c.req.url).origin]);
    const crossOrigin =
      (fetchSite !== undefined && CROSS_ORIGIN_FETCH_SITES.has(fetchSite)) ||
      (origin !== undefined && !ownOrigins.has(origin));
    if (crossOrigin) {
      throw new HttpProblem(
        403,
        "CROSS_ORIGIN_MUTATION",
        "Browsers on other sites may not send this request. Agents calling the API directly send no Origin header.",
      );
    }
    await next();
  };
}
