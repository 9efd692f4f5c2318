import { Ratelimit } from "@upstash/ratelimit";
import type { Context, MiddlewareHandler } from "hono";
import { clientIdentity } from "../client-identity.ts";
import type { AppEnv } from "../context.ts";
import { HttpProblem } from "../problem.ts";

type Window = Parameters<typeof Ratelimit.slidingWindow>[1];

export interface RateLimitOptions {
  /** Names the limit in Redis keys and logs, e.g. "search". */
  name: string;
  /** Requests allowed per window. */
  limit: number;
  /** Sliding window length, e.g. "1 h". */
  window: Window;
  /** Who the limit counts against; defaults to the client's address. */
  identify?: (c: Context<AppEnv>) => string;
}

// Per-isolate memory of identifiers already over a limit: they are refused without a Redis
// round trip, and still refused while Redis is unreachable. Safe to share: it only blocks.
const blockedByLimit = new Map<string, Map<string, number>>();

function blockedCacheFor(name: string): Map<string, number> {
  let cache = blockedByLimit.get(name);
  if (!cache) {
    cache = new Map<string, number>();
    blockedByLimit.set(name, cache);
  }
  return cache;
}

function windowSeconds(window: Window): number {
  const [amount, unit] = String(window).trim().split(/\s+/) as [string, string];
  const seconds: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };
  return Number(amount) * (seconds[unit] ?? 1);
}

/**
 * Counts one request of the caller (`options.identify`, else the client's address) against a
 * limit, and returns the RateLimit headers its reply should carry. Over the limit it throws the
 * 429 `RATE_LIMITED` problem (with `limit`, `retry_after_seconds` and Retry-After), which every
 * transport maps to its own shape. When Redis is down or slower than REDIS_TIMEOUT_MS it allows
 * the request and returns no headers; identifiers this isolate already saw over the limit stay
 * refused. The middleware below and the MCP tools share it, so a limit has one counter whichever
 * way it is reached.
 *
 * @example const headers = await consumeRateLimit(c, { name: "search", limit: 240, window: "1 h" });
 */
export async function consumeRateLimit(c: Context<AppEnv>, options: RateLimitOptions): Promise<Record<string, string>> {
  const cache = blockedCacheFor(options.name);
  const { redis, config } = c.var.deps;
  const limiter = new Ratelimit({
    redis,
    limiter: Ratelimit.slidingWindow(options.limit, options.window),
    prefix: `${config.REDIS_KEY_PREFIX}:ratelimit:${options.name}`,
    ephemeralCache: cache,
    timeout: config.REDIS_TIMEOUT_MS,
    analytics: false,
  });
  const identity = options.identify ? options.identify(c) : clientIdentity(c.req.raw.headers);

  let outcome: Awaited<ReturnType<Ratelimit["limit"]>> | undefined;
  try {
    outcome = await limiter.limit(identity);
  } catch (error) {
    console.warn(`rate limit "${options.name}" unavailable, allowing request`, String(error));
  }
  if (!outcome || outcome.reason === "timeout") return {};

  const resetSeconds = Math.max(1, Math.ceil((outcome.reset - Date.now()) / 1000));
  const headers = {
    "RateLimit-Limit": String(outcome.limit),
    "RateLimit-Remaining": String(outcome.remaining),
    "RateLimit-Reset": String(resetSeconds),
    "RateLimit-Policy": `${options.limit};w=${windowSeconds(options.window)}`,
  };
  if (!outcome.success) {
    throw new HttpProblem(
      429,
      "RATE_LIMITED",
      "Too many requests",
      `The free limit of ${options.limit} requests per ${options.window} is used up; it resumes after ${resetSeconds} s.`,
      { limit: outcome.limit, retry_after_seconds: resetSeconds },
      { ...headers, "Retry-After": String(resetSeconds) },
    );
  }
  return headers;
}

/**
 * A sliding-window limit on `@upstash/ratelimit` (see `consumeRateLimit`). Over the limit: 429
 * problem+json with Retry-After. Every counted reply carries RateLimit-Limit,
 * RateLimit-Remaining, RateLimit-Reset (seconds) and RateLimit-Policy.
 *
 * When Redis is down or slower than REDIS_TIMEOUT_MS the request is allowed (fail open: these
 * limits guard free reads, and losing Redis must not take search down), without RateLimit
 * headers; identifiers this isolate already saw over the limit stay refused.
 *
 * @example routes.use("/search", rateLimit({ name: "search", limit: 240, window: "1 h" }));
 */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const headers = await consumeRateLimit(c, options);
    await next();
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
  };
}
