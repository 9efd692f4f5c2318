/** Reachability of the service's two stores, each probed with its own deadline. */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import type { Redis } from "../../adapters/redis.ts";

export interface DependencyStatus {
  ok: boolean;
  latency_ms: number;
}

export interface DependencyReport {
  ok: boolean;
  database: DependencyStatus;
  redis: DependencyStatus;
}

export interface DependencyProbes {
  /** Resolves when the database answers a trivial query. */
  database: () => Promise<unknown>;
  /** Resolves when Redis answers PING. */
  redis: () => Promise<unknown>;
}

async function probe(run: () => Promise<unknown>, timeoutMs: number): Promise<DependencyStatus> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), timeoutMs);
  });
  try {
    await Promise.race([run(), deadline]);
    return { ok: true, latency_ms: Date.now() - started };
  } catch {
    return { ok: false, latency_ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/** Probes both stores in parallel; never throws. */
export async function checkDependencies(probes: DependencyProbes, timeoutMs: number): Promise<DependencyReport> {
  const [database, redis] = await Promise.all([probe(probes.database, timeoutMs), probe(probes.redis, timeoutMs)]);
  return { ok: database.ok && redis.ok, database, redis };
}

/** The stores' own probes: a trivial query and PING. */
export function storeProbes(stores: { db: Database; redis: Redis }): DependencyProbes {
  return { database: () => stores.db.execute(sql`select 1`), redis: () => stores.redis.ping() };
}
