/**
 * 404 or 405 for a request no route answered: 405 with `Allow` when the path exists with other
 * methods, 404 when it does not exist at all.
 */
import type { Context } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { getPathNoStrict } from "hono/utils/url";
import { type HttpProblem, methodNotAllowedProblem, notFoundProblem } from "./problem.ts";

/** The order methods are listed in `Allow`. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

interface RouteEntry {
  method: string;
  path: string;
}

/** The methods a path has from its routes: GET brings HEAD (Hono answers it), OPTIONS is always answered (CORS). */
function allowedMethods(routed: Set<string>): string[] {
  const methods = new Set(routed);
  if (methods.has("GET")) methods.add("HEAD");
  methods.add("OPTIONS");
  const rank = (method: string) => (METHOD_ORDER.includes(method) ? METHOD_ORDER.indexOf(method) : METHOD_ORDER.length);
  return [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * Builds the problem for requests that no route of `routes` (an app's `app.routes`, read on first
 * use so that every route is registered by then) answered. Middleware and catch-all handlers
 * (method ALL) do not make a path exist. Paths are matched as the app matches them (Hono's
 * router, trailing slash ignored).
 *
 * @example app.notFound((c) => problemResponse(unroutedProblem(c), context(c)));
 */
export function unroutedRequestProblem(routes: readonly RouteEntry[]): (c: Context) => HttpProblem {
  let router: TrieRouter<string> | undefined;
  return (c) => {
    if (!router) {
      router = new TrieRouter<string>();
      for (const route of routes) if (route.method !== "ALL") router.add("ALL", route.path, route.method);
    }
    const [matches] = router.match("GET", getPathNoStrict(c.req.raw));
    const routed = new Set(matches.map(([method]) => method));
    if (routed.size === 0) return notFoundProblem();
    return methodNotAllowedProblem(c.req.method, allowedMethods(routed).join(", "));
  };
}
