/** Short-lived JSON caches in Redis (top list, categories, stats). */
import type { Redis } from "./redis.ts";

export interface CachedValue<T> {
  value: T;
  /** True when the value came from the cache rather than being computed now. */
  hit: boolean;
}

export interface JsonCache {
  /** The cached value under `key`, or `compute()`'s result, stored for `ttlSeconds`. */
  remember<T>(key: string, ttlSeconds: number, compute: () => Promise<T>): Promise<CachedValue<T>>;
}

/**
 * A read-through cache on Redis. Redis trouble never fails a read: a failed get is a miss, a
 * failed set is skipped, and the value is computed from Postgres, the source of truth.
 */
export function createRedisCache(redis: Redis, prefix: string): JsonCache {
  return {
    async remember(key, ttlSeconds, compute) {
      const fullKey = `${prefix}:cache:${key}`;
      try {
        // The client decodes JSON itself: what comes back is the value that was stored.
        const cached = await redis.get(fullKey);
        if (cached !== null && cached !== undefined) return { value: cached as never, hit: true };
      } catch (error) {
        console.warn(`cache read failed for ${key}; computing`, String(error));
      }
      const value = await compute();
      try {
        await redis.set(fullKey, value, { ex: ttlSeconds });
      } catch (error) {
        console.warn(`cache write failed for ${key}`, String(error));
      }
      return { value, hit: false };
    },
  };
}
