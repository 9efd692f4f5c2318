import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../context.ts";

const EXPOSED_HEADERS = [
  "X-Request-Id",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "RateLimit-Policy",
];

/**
 * CORS for reads only: any origin may GET and HEAD; a preflight only ever allows those, and
 * mutations get no CORS headers, so browsers on other sites cannot read their replies.
 *
 * @example app.use("*", readCors());
 */
export function readCors(): MiddlewareHandler<AppEnv> {
  const allowReads = cors({
    origin: "*",
    allowMethods: ["GET", "HEAD"],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 86400,
  });
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") {
      return allowReads(c, next);
    }
    await next();
  };
}
