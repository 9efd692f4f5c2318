/**
 * What each request to the stack's SQL and Redis endpoints cost, for load measurements
 * (`npm run load`): when it arrived and was answered, and how long the store itself worked on it.
 * Times are milliseconds since the epoch at sub-millisecond resolution, so a measuring thread can
 * set them beside its own requests.
 */
import { performance } from "node:perf_hooks";

export interface ServedCall {
  endpoint: "sql" | "redis";
  /** From the request's first byte read to its answer written. */
  startedAt: number;
  endedAt: number;
  /** Time the store spent: for SQL, from a pooled connection in hand to the last statement's answer. */
  storeMs: number;
  /** Statements (SQL) or commands (Redis) the request carried. */
  statements: number;
}

export type ServedCallObserver = (call: ServedCall) => void;

/** The clock of ServedCall: epoch milliseconds, comparable across the threads of one process. */
export const epochMs = (): number => performance.timeOrigin + performance.now();

/** Filled by a backend while it runs a request: the time the store spent on it. */
export interface StoreTiming {
  storeMs: number;
}
