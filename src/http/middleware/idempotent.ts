import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { sha256Hex } from "../../domain/sha256.ts";
import type { AppEnv } from "../context.ts";
import { HttpProblem } from "../problem.ts";

/** What a route behind `idempotent` may read: the validated key, and the scope it counts in. */
export interface IdempotencyVariables {
  idempotency: { key: string; scope: string };
}

export interface IdempotentOptions<E extends AppEnv = AppEnv> {
  /** Names the kind of write in lock keys and logs, e.g. "commercial-acceptance". */
  name: string;
  /** Who the key is scoped to, e.g. the authenticated claim: one claim's key never meets another's. */
  scope: (c: Context<E>) => string;
  /** The request header carrying the key. */
  header: string;
  /** Length bounds of the key; the interface gives 8–128 for acceptances, 8–200 for outcomes. */
  minLength: number;
  maxLength: number;
  /** How long a concurrent duplicate waits for the first request before going on (ms). */
  waitMs?: number;
}

/** The shared lock store: Redis, or anything that speaks the same two commands. */
export interface LockStore {
  set(key: string, value: string, options: { nx: true; px: number }): Promise<unknown>;
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}

const LOCK_TTL_MS = 30_000;
const POLL_MS = 50;
// Deletes the lock only while it is still ours, so a slow request cannot free a later holder's lock.
const RELEASE_SCRIPT = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0';

function keyPattern(minLength: number, maxLength: number): RegExp {
  return new RegExp(`^[A-Za-z0-9][A-Za-z0-9._:-]{${minLength - 1},${maxLength - 1}}$`);
}

/**
 * Validates an idempotency key header (400 `INVALID_IDEMPOTENCY_KEY` when missing or malformed:
 * a letter or digit, then letters, digits and `._:-`, within the length bounds) and holds a Redis
 * lock on (name, scope, key) while the handler runs (freed once the answer is out, see
 * `releaseAfterAnswer`), so identical requests racing each other do the work once and the rest
 * replay the stored answer. The lock only spares duplicate work: the
 * handler's write must still be guarded by a unique constraint on (scope, key) holding the request
 * fingerprint, which decides replay (200) and conflict (409). A duplicate that waits longer than
 * `waitMs` goes on and meets that constraint. When Redis cannot take the lock the request is
 * refused with 503 `IDEMPOTENCY_UNAVAILABLE` (fail closed: a double write costs more than a retry).
 *
 * @example route.use(idempotent({ name: "outcome", scope: (c) => c.var.actor.claimId, header: "Idempotency-Key", minLength: 8, maxLength: 200 }));
 */
export function idempotent<E extends AppEnv = AppEnv>(options: IdempotentOptions<E>) {
  const readKey = idempotencyKeyReader(options);
  return createMiddleware<E & { Variables: IdempotencyVariables }>(async (c, next) => {
    const key = readKey(c.req.header(options.header));
    const scope = options.scope(c as unknown as Context<E>);
    const lock = await holdIdempotencyLock(c.var.deps, { name: options.name, scope, key, waitMs: options.waitMs });
    c.set("idempotency", { key, scope });
    try {
      await next();
    } finally {
      await releaseAfterAnswer(c, lock);
    }
  });
}

/** Reads the key from its header's value, or throws the 400 `INVALID_IDEMPOTENCY_KEY` problem. */
export function idempotencyKeyReader(
  options: Pick<IdempotentOptions, "header" | "minLength" | "maxLength">,
): (value: string | undefined) => string {
  const pattern = keyPattern(options.minLength, options.maxLength);
  return (key) => {
    if (!key || !pattern.test(key)) {
      throw new HttpProblem(
        400,
        "INVALID_IDEMPOTENCY_KEY",
        `Send the ${options.header} header: ${options.minLength} to ${options.maxLength} characters, a letter or digit first, then letters, digits, ".", "_", ":" or "-".`,
        { errors: [{ location: "header", field: options.header, message: "missing or malformed" }] },
      );
    }
    return key;
  };
}

/** A lock held on (name, scope, key), or none when the wait ran out (the database still decides). */
export interface HeldLock {
  release(): Promise<void>;
}

/**
 * Takes the lock on (name, scope, key), waiting up to `waitMs` (default 5 s) for a concurrent
 * holder; null when the wait ran out. Throws the 503 `IDEMPOTENCY_UNAVAILABLE` problem when Redis
 * cannot take it.
 */
export async function holdIdempotencyLock(
  deps: Pick<AppEnv["Variables"]["deps"], "redis" | "config">,
  { name, scope, key, waitMs = 5_000 }: { name: string; scope: string; key: string; waitMs?: number | undefined },
): Promise<HeldLock | null> {
  const store = deps.redis as unknown as LockStore;
  const lockKey = `${deps.config.REDIS_KEY_PREFIX}:idem:${name}:${await sha256Hex(`${scope}\n${key}`)}`;
  const holder = crypto.randomUUID();
  if (!(await acquireLock(store, lockKey, holder, waitMs))) return null;
  return {
    release: async () => {
      await store.eval(RELEASE_SCRIPT, [lockKey], [holder]).catch(() => undefined);
    },
  };
}

/**
 * Frees the lock once the answer is out (what it guarded is committed by then): the caller does
 * not wait a Redis round trip for it. Without an execution context (an app called directly) it
 * is freed before answering.
 */
export async function releaseAfterAnswer(c: Context, lock: HeldLock | null): Promise<void> {
  if (!lock) return;
  const released = lock.release();
  try {
    c.executionCtx.waitUntil(released);
  } catch {
    await released;
  }
}

/** True once the lock is ours; false when the wait ran out (the database still decides). */
async function acquireLock(store: LockStore, lockKey: string, holder: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    let result: unknown;
    try {
      result = await store.set(lockKey, holder, { nx: true, px: LOCK_TTL_MS });
    } catch (error) {
      console.error("idempotency lock unavailable", error);
      throw new HttpProblem(
        503,
        "IDEMPOTENCY_UNAVAILABLE",
        "Idempotent writes are paused while their lock store is unreachable; retry with the same key.",
        {},
        { "Retry-After": "5" },
      );
    }
    if (result === "OK") return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
