/** Redis, reached only over Upstash's REST protocol through `@upstash/redis`. */
import { errors, Redis } from "@upstash/redis/cloudflare";
import type { Config } from "../config.ts";
import { watchForSilence } from "./store-availability.ts";

/**
 * A Redis client whose commands fail (with a StoreUnavailableError) only when Redis is
 * unavailable: the connection is refused or lost, or the endpoint has answered nothing to this
 * isolate for REDIS_TIMEOUT_MS. A command that waits behind others while answers keep coming is
 * waited for, so a burst never turns a healthy Redis into a fallback.
 */
export function createRedis(
  config: Pick<Config, "UPSTASH_REDIS_REST_URL" | "UPSTASH_REDIS_REST_TOKEN" | "REDIS_TIMEOUT_MS">,
): Redis {
  const redis = new Redis({
    url: config.UPSTASH_REDIS_REST_URL,
    token: config.UPSTASH_REDIS_REST_TOKEN,
    enableTelemetry: false,
    // A refused connection gets one quick retry, then the caller's fallback applies.
    retry: { retries: 1, backoff: () => 25 },
  });
  redis.use(async (request, next) => {
    const watch = watchForSilence(config.UPSTASH_REDIS_REST_URL, config.REDIS_TIMEOUT_MS, "redis");
    try {
      const response = await next({ ...request, signal: watch.signal });
      // The client turns an aborted request into a placeholder result rather than an error.
      if (watch.signal.aborted) throw watch.signal.reason;
      watch.answered();
      return response;
    } catch (error) {
      // An error reply is still an answer: Redis is there.
      if (error instanceof errors.UpstashError) watch.answered();
      throw error;
    } finally {
      watch.release();
    }
  });
  return redis;
}

export type { Redis };
