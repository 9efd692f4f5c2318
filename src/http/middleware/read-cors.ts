import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { getPathNoStrict } from "hono/utils/url";
import type { AppEnv } from "../context.ts";

/** The reply headers a page on another origin may read. */
export const EXPOSED_HEADERS = [
  "X-Request-Id",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "RateLimit-Policy",
];

export interface ReadCorsOptions {
  /** Paths that carry a CORS policy of their own (e.g. /mcp), left alone here. */
  except?: string[];
}

/**
 * CORS for reads only: any origin may GET and HEAD; a preflight only ever allows those, and
 * mutations get no CORS headers, so browsers on other sites cannot read their replies. Paths in
 * `except` answer CORS themselves.
 *
 * @example app.use("*", readCors({ except: ["/mcp"] }));
 */
export function readCors(options: ReadCorsOptions = {}): MiddlewareHandler<AppEnv> {
  const allowReads = cors({
    origin: "*",
    allowMethods: ["GET", "HEAD"],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 86400,
  });
  const except = new Set(options.except ?? []);
  return async (c, next) => {
    if (except.has(getPathNoStrict(c.req.raw))) return next();
    if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") {
      return allowReads(c, next);
    }
    await next();
  };
}
