import { Ratelimit } from "@upstash/ratelimit";
import type { Context, MiddlewareHandler } from "hono";
import { clientIdentity, hashedIdentity } from "../client-identity.ts";
import type { AppEnv } from "../context.ts";
import { HttpProblem } from "../problem.ts";
import { countUncounted, rememberUncounted } from "./uncounted-requests.ts";

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

let missingSecretLogged = false;

/** No secret to key clients by: nothing is counted, and nothing limited is served (fail closed). */
function limitsUnconfiguredProblem(): HttpProblem {
  if (!missingSecretLogged) {
    missingSecretLogged = true;
    console.error("RATE_LIMIT_KEY_SECRET is not set: every rate-limited endpoint answers 503 until it is");
  }
  return new HttpProblem(
    503,
    "RATE_LIMIT_UNAVAILABLE",
    "This endpoint cannot count requests right now, so it does not serve them; the rest of the service works.",
  );
}

/**
 * Counts one request of the caller (`options.identify`, else the client's address) against a
 * limit, and returns the RateLimit headers its reply should carry. Over the limit it throws the
 * 429 `RATE_LIMITED` problem (with `limit`, `retry_after_seconds` and Retry-After), which every
 * transport maps to its own shape. The middleware below and the MCP tools share it, so a limit
 * has one counter whichever way it is reached.
 *
 * The caller is known to Redis only by a keyed hash (RATE_LIMIT_KEY_SECRET); without that secret
 * it throws 503 `RATE_LIMIT_UNAVAILABLE`. Redis is waited for while it answers, however late
 * (a burst queues its calls; giving up on them would let requests through uncounted). Only when
 * Redis is unavailable (refused, lost, or silent for REDIS_TIMEOUT_MS) is the request allowed
 * without headers; it is counted once Redis answers again, and identifiers this isolate already
 * saw over the limit stay refused meanwhile.
 *
 * @example const headers = await consumeRateLimit(c, { name: "search", limit: 240, window: "1 h" });
 */
export async function consumeRateLimit(c: Context<AppEnv>, options: RateLimitOptions): Promise<Record<string, string>> {
  const { redis, config } = c.var.deps;
  const secret = config.RATE_LIMIT_KEY_SECRET;
  if (!secret) throw limitsUnconfiguredProblem();
  const identifier = await hashedIdentity(
    secret,
    options.identify ? options.identify(c) : clientIdentity(c.req.raw.headers),
  );
  const prefix = `${config.REDIS_KEY_PREFIX}:ratelimit:${options.name}`;
  const limiter = new Ratelimit({
    redis,
    limiter: Ratelimit.slidingWindow(options.limit, options.window),
    prefix,
    ephemeralCache: blockedCacheFor(options.name),
    // No timeout of its own: it would answer "allowed" while the count is still on its way.
    // Redis's unavailability is the adapter's to decide (src/adapters/redis.ts).
    timeout: 0,
    analytics: false,
  });

  let outcome: Awaited<ReturnType<Ratelimit["limit"]>>;
  try {
    // What was let through while Redis was away is counted first, so this answer includes it.
    await countUncounted(redis, config.UPSTASH_REDIS_REST_URL);
    outcome = await limiter.limit(identifier);
  } catch (error) {
    console.warn(`rate limit "${options.name}" unavailable, allowing request`, String(error));
    rememberUncounted(config.UPSTASH_REDIS_REST_URL, prefix, identifier, windowSeconds(options.window) * 1000);
    return {};
  }

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
 * When Redis is unavailable the request is allowed (fail open: these limits guard free reads,
 * and losing Redis must not take search down), without RateLimit headers, and counted once Redis
 * answers again; identifiers this isolate already saw over the limit stay refused.
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
