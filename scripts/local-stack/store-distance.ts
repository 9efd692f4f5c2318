/**
 * A distant store, locally: every SQL-over-HTTP and Redis-REST request the stack answers waits
 * `rttMs` before the store sees it, as if the database sat one round trip away on another
 * continent (LOCAL_STORE_RTT_MS). The endpoints' health checks are neither delayed nor counted.
 *
 * The stack also counts the store requests it answered, per store, and serves the counts at
 * `GET /_local/requests` on both endpoints, so a test or a person can tell whether a read reached
 * a store at all (a read served from the edge cache must not).
 */
import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { sendJson } from "./http.ts";

export const REQUEST_COUNTS_PATH = "/_local/requests";

/** Store requests answered since the stack started. */
export interface StoreRequestCounts {
  sql: number;
  redis: number;
}

export interface StoreDistance {
  /** The simulated round trip in milliseconds (0: none). */
  rttMs: number;
  counts: StoreRequestCounts;
}

export function createStoreDistance(rttMs = 0): StoreDistance {
  if (!Number.isFinite(rttMs) || rttMs < 0)
    throw new Error(`LOCAL_STORE_RTT_MS must be a number of milliseconds ≥ 0, got ${rttMs}`);
  return { rttMs, counts: { sql: 0, redis: 0 } };
}

/** Reads LOCAL_STORE_RTT_MS (default 0). */
export function storeRttFromEnv(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return 0;
  const rtt = Number(value);
  if (!Number.isFinite(rtt) || rtt < 0)
    throw new Error(`LOCAL_STORE_RTT_MS must be a number of milliseconds ≥ 0, got "${value}"`);
  return rtt;
}

/** Answers `GET /_local/requests`; true when it did. */
export function answerRequestCounts(
  distance: StoreDistance | undefined,
  method: string | undefined,
  path: string | undefined,
  response: ServerResponse,
): boolean {
  if (!distance || method !== "GET" || path !== REQUEST_COUNTS_PATH) return false;
  sendJson(response, 200, { ...distance.counts, rtt_ms: distance.rttMs });
  return true;
}

/** Counts one store request and waits out the round trip before the store sees it. */
export async function travel(distance: StoreDistance | undefined, store: keyof StoreRequestCounts): Promise<void> {
  if (!distance) return;
  distance.counts[store] += 1;
  if (distance.rttMs > 0) await sleep(distance.rttMs);
}
