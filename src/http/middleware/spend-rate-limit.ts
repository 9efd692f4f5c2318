/**
 * Where a request spends its quota: in the handler, once its input is known to be valid, so a
 * request refused as invalid costs the caller nothing. HEAD never gets this far (see
 * `isHeadRequest`).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.ts";
import { consumeRateLimit, type RateLimitOptions } from "./rate-limit.ts";

/**
 * Counts this request against `limit` for its caller (`consumeRateLimit`: 429 over the limit,
 * allowed without headers when Redis is unavailable) and keeps the RateLimit headers for the
 * reply. Call it after validation and before the work the limit guards.
 *
 * @example await spendRateLimit(c, CHECK_LIMIT); // then the live crawl
 */
export async function spendRateLimit(c: Context<AppEnv>, limit: RateLimitOptions): Promise<void> {
  c.set("rateLimitHeaders", await consumeRateLimit(c, limit));
}

/**
 * Puts the RateLimit headers of the limit a request spent on its reply, whatever the reply: a
 * 404 or 409 after counting still tells the caller where it stands.
 *
 * @example app.use("*", rateLimitHeaders());
 */
export function rateLimitHeaders(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(c.var.rateLimitHeaders ?? {})) c.header(name, value);
  };
}
