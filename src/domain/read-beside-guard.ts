/**
 * A guard (a rate-limit count) and a read-only step that does not depend on it, run side by side:
 * on a distant store that is one round trip instead of two (issue 32).
 */

/**
 * Waits for `guard` and `read` together. The guard decides: when it refuses, its error is thrown
 * whatever the read answered, so the request is answered exactly as if the guard had run first.
 * `read` must only read — a refused request still writes nothing — and its own error comes second.
 *
 * @example const status = await readBesideGuard(spendRateLimit(c, LIMIT), () => readPilotStatus(...));
 */
export async function readBesideGuard<T>(guard: Promise<unknown>, read: () => Promise<T>): Promise<T> {
  const [guarded, result] = await Promise.allSettled([guard, read()]);
  if (guarded.status === "rejected") throw guarded.reason;
  if (result.status === "rejected") throw result.reason;
  return result.value;
}
