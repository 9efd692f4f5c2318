/**
 * When a store counts as unavailable: silence (not slowness) for the silence watch, and the
 * errors that mean the database cannot serve rather than that a statement was wrong.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isDatabaseUnavailable } from "../../src/adapters/db.ts";
import { StoreUnavailableError, watchForSilence } from "../../src/adapters/store-availability.ts";

describe("watchForSilence", () => {
  let endpoint: string;
  beforeEach(() => {
    vi.useFakeTimers();
    // The watch remembers answers per endpoint for the whole isolate: each test has its own.
    endpoint = `http://store.test/${crypto.randomUUID()}`;
  });
  afterEach(() => vi.useRealTimers());

  it("aborts with a StoreUnavailableError once the store has answered nothing for the silence", () => {
    const watch = watchForSilence(endpoint, 800, "redis");
    vi.advanceTimersByTime(799);
    expect(watch.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(watch.signal.aborted).toBe(true);
    expect(watch.signal.reason).toBeInstanceOf(StoreUnavailableError);
    expect((watch.signal.reason as StoreUnavailableError).store).toBe("redis");
  });

  it("keeps waiting as long as the store keeps answering other calls, however late this one is", () => {
    const waiting = watchForSilence(endpoint, 800, "redis");
    for (let i = 0; i < 7; i++) {
      vi.advanceTimersByTime(500);
      const other = watchForSilence(endpoint, 800, "redis");
      other.answered();
      other.release();
    }
    expect(waiting.signal.aborted).toBe(false);
    // Then the store falls silent: 800 ms after its last answer, the waiting call gives up.
    vi.advanceTimersByTime(799);
    expect(waiting.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(waiting.signal.aborted).toBe(true);
  });

  it("does not conclude silence from a check that ran late: answers may be waiting behind the work", () => {
    const waiting = watchForSilence(endpoint, 800, "redis");
    // The isolate is busy for 1.5 s: no timer runs, and the clock moves on.
    vi.setSystemTime(Date.now() + 1_500);
    vi.advanceTimersByTime(0);
    expect(waiting.signal.aborted).toBe(false);
    // Once it catches up, the answer that arrived meanwhile is handled before the next check.
    const other = watchForSilence(endpoint, 800, "redis");
    other.answered();
    other.release();
    vi.advanceTimersByTime(50);
    expect(waiting.signal.aborted).toBe(false);
    vi.advanceTimersByTime(800);
    expect(waiting.signal.aborted).toBe(true);
  });

  it("gives one call up after ten silences even while the store answers others", () => {
    const stuck = watchForSilence(endpoint, 100, "database");
    for (let elapsed = 50; elapsed < 1_000; elapsed += 50) {
      vi.advanceTimersByTime(50);
      const other = watchForSilence(endpoint, 100, "database");
      other.answered();
      other.release();
    }
    expect(stuck.signal.aborted).toBe(false);
    vi.advanceTimersByTime(50);
    expect(stuck.signal.aborted).toBe(true);
    expect(String(stuck.signal.reason)).toContain("no answer from the database in 1000 ms");
  });

  it("stops watching when released", () => {
    const watch = watchForSilence(endpoint, 100, "redis");
    watch.release();
    vi.advanceTimersByTime(10_000);
    expect(watch.signal.aborted).toBe(false);
  });
});

describe("isDatabaseUnavailable", () => {
  /** An error shaped as the Neon driver throws it, wrapped by drizzle as drizzle does. */
  const driverError = (fields: Record<string, unknown>) => {
    const neon = Object.assign(new Error("Error connecting to database"), { name: "NeonDbError", ...fields });
    return new Error("Failed query: select 1", { cause: neon });
  };

  it("is true for an unreachable, cut or silent SQL endpoint", () => {
    const source = new StoreUnavailableError("database", "the SQL endpoint could not be reached");
    expect(isDatabaseUnavailable(driverError({ sourceError: source }))).toBe(true);
    expect(isDatabaseUnavailable(source)).toBe(true);
  });

  it("is true for the Postgres errors that mean the server cannot serve now", () => {
    for (const code of ["08006", "08001", "57P01", "57P02", "57P03", "53300"]) {
      expect(isDatabaseUnavailable(driverError({ code })), code).toBe(true);
    }
  });

  it("is false for a wrong statement, a constraint, any other error, or Redis", () => {
    for (const code of ["23505", "42P01", "22P02", "57014"]) {
      expect(isDatabaseUnavailable(driverError({ code })), code).toBe(false);
    }
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    expect(isDatabaseUnavailable(new StoreUnavailableError("redis", "silent"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
