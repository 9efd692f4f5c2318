/** Redis, reached only over Upstash's REST protocol through `@upstash/redis`. */
import { Redis } from "@upstash/redis/cloudflare";
import type { Config } from "../config.ts";

export function createRedis(
  config: Pick<Config, "UPSTASH_REDIS_REST_URL" | "UPSTASH_REDIS_REST_TOKEN" | "REDIS_TIMEOUT_MS">,
): Redis {
  return new Redis({
    url: config.UPSTASH_REDIS_REST_URL,
    token: config.UPSTASH_REDIS_REST_TOKEN,
    enableTelemetry: false,
    // Redis sits on request paths: one quick retry, then the caller's fallback applies.
    retry: { retries: 1, backoff: () => 25 },
    // A function, so each command gets a fresh deadline and a timeout throws instead of
    // resolving to the client's placeholder "Aborted" result.
    signal: () => AbortSignal.timeout(config.REDIS_TIMEOUT_MS),
  });
}

export type { Redis };
