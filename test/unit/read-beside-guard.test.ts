/** readBesideGuard: the guard's refusal wins, the read runs beside it, and the read's error comes second. */
import { describe, expect, it } from "vitest";
import { readBesideGuard } from "../../src/domain/read-beside-guard.ts";

/** A promise settled from outside, to decide the order of events. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("readBesideGuard", () => {
  it("starts the read before the guard has answered, and returns what it read", async () => {
    const guard = deferred<void>();
    let readStarted = false;
    const result = readBesideGuard(guard.promise, async () => {
      readStarted = true;
      return 42;
    });
    expect(readStarted).toBe(true);
    guard.resolve();
    await expect(result).resolves.toBe(42);
  });

  it("throws the guard's refusal whatever the read answered, even when the read fails first", async () => {
    const refusal = new Error("429");
    await expect(readBesideGuard(Promise.reject(refusal), async () => 1)).rejects.toBe(refusal);
    const guard = deferred<void>();
    const result = readBesideGuard(guard.promise, () => Promise.reject(new Error("read failed")));
    guard.reject(refusal);
    await expect(result).rejects.toBe(refusal);
  });

  it("throws the read's error when the guard lets the request through", async () => {
    const failure = new Error("not found");
    await expect(readBesideGuard(Promise.resolve(), () => Promise.reject(failure))).rejects.toBe(failure);
  });
});
