/**
 * Requests a limit let through while Redis was unavailable, kept in the isolate until Redis
 * answers again and then added to the windows they were served in, so a client that kept calling
 * through an outage has that much less left afterwards.
 *
 * The counts are added to the keys `@upstash/ratelimit`'s sliding window reads
 * (`<prefix>:<identifier>:<window index>`), unconditionally: its own script refuses to count a
 * request over the limit, and these were served already. A request whose Redis call failed after
 * it may have reached Redis is counted here too: when in doubt, a limit errs on the strict side.
 */
import type { Redis } from "../../adapters/redis.ts";

interface Uncounted {
  /** The window's key, as the sliding window names it. */
  key: string;
  windowIndex: number;
  windowMs: number;
  count: number;
}

// Per Redis endpoint (tests use several in one isolate), per window key. Module scope: the counts
// must outlive the request that let them through, and only ever add to a limit.
const uncountedByRedis = new Map<string, Map<string, Uncounted>>();

/** Adds `count` to each key, and gives a key it creates the sliding window's own expiry. */
const ADD_COUNTS_SCRIPT = `
for index, key in ipairs(KEYS) do
  local count = tonumber(ARGV[index * 2 - 1])
  if redis.call("INCRBY", key, count) == count then
    redis.call("PEXPIRE", key, tonumber(ARGV[index * 2]))
  end
end
return #KEYS
`;

/**
 * Remembers one request that `prefix`'s limit let through uncounted for `identifier`, in the
 * window of `windowMs` it was served in.
 */
export function rememberUncounted(redisUrl: string, prefix: string, identifier: string, windowMs: number): void {
  const windowIndex = Math.floor(Date.now() / windowMs);
  const key = `${prefix}:${identifier}:${windowIndex}`;
  let pending = uncountedByRedis.get(redisUrl);
  if (!pending) {
    pending = new Map();
    uncountedByRedis.set(redisUrl, pending);
  }
  const entry = pending.get(key);
  if (entry) entry.count += 1;
  else pending.set(key, { key, windowIndex, windowMs, count: 1 });
}

/**
 * Adds the remembered requests to their windows in Redis, in one round trip (none when there are
 * none). Windows too old to weigh in any limit are dropped. When Redis fails again the counts are
 * kept for its next answer and the error is thrown: Redis is still unavailable.
 */
export async function countUncounted(redis: Redis, redisUrl: string): Promise<void> {
  const pending = uncountedByRedis.get(redisUrl);
  if (!pending?.size) return;
  // Taken out before the round trip, so concurrent requests never count the same ones twice.
  const entries = [...pending.values()];
  uncountedByRedis.delete(redisUrl);
  const now = Date.now();
  // The sliding window reads the current window and the one before it; older ones never weigh.
  const live = entries.filter((entry) => entry.windowIndex >= Math.floor(now / entry.windowMs) - 1);
  if (!live.length) return;
  try {
    await redis.eval(
      ADD_COUNTS_SCRIPT,
      live.map((entry) => entry.key),
      live.flatMap((entry) => [entry.count, entry.windowMs * 2 + 1000]),
    );
  } catch (error) {
    const again = uncountedByRedis.get(redisUrl) ?? new Map<string, Uncounted>();
    for (const entry of live) {
      const existing = again.get(entry.key);
      if (existing) existing.count += entry.count;
      else again.set(entry.key, entry);
    }
    uncountedByRedis.set(redisUrl, again);
    throw error;
  }
}
