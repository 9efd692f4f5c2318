/**
 * `requireProviderKey` followed by `idempotent`, as one step for a provider's idempotent write on
 * a distant store (issue 32): the Redis lock is taken beside the key's SQL check instead of after
 * it, one store round trip instead of two.
 */
import { createMiddleware } from "hono/factory";
import { sha256Hex } from "../../domain/sha256.ts";
import type { AppEnv } from "../context.ts";
import {
  type HeldLock,
  holdIdempotencyLock,
  type IdempotencyVariables,
  type IdempotentOptions,
  idempotencyKeyReader,
  releaseAfterAnswer,
} from "./idempotent.ts";
import {
  authenticateProviderKey,
  PROVIDER_KEY_HEADER,
  type ProviderKeyVariables,
  providerKeyRequiredProblem,
  type RequireProviderKeyOptions,
} from "./require-provider-key.ts";
import { isWellFormedSecret } from "./require-session.ts";

export interface ProviderKeyIdempotentOptions {
  key: RequireProviderKeyOptions;
  idempotency: Omit<IdempotentOptions, "scope">;
}

/**
 * What `requireProviderKey` and then `idempotent` do, with the same answers in the same order:
 * 401 for a missing or bad key (before 400 for a bad Idempotency-Key), the route's
 * `whenClaimNotFresh` for a stale claim, 503 when keys cannot be checked, then 503
 * `IDEMPOTENCY_UNAVAILABLE` when the lock cannot be taken.
 *
 * One thing differs: the lock is scoped to the presented key (its SHA-256), since the claim is
 * not known until the check answers. A claim has at most one active key
 * (`provider_api_keys_one_active`), so the two scopes part only when a key is rotated while its
 * requests are in flight; duplicates across that rotation then meet the unique constraint on
 * (claim, Idempotency-Key), which decides replay and conflict either way — the lock only spares
 * duplicate work. A lock taken for a key that fails its check is freed at once.
 *
 * @example middleware: [providerKeyIdempotent({ key: { verify, whenClaimNotFresh: 409 }, idempotency: { name: "provider-outcome", ... } })]
 */
export function providerKeyIdempotent(options: ProviderKeyIdempotentOptions) {
  const readKey = idempotencyKeyReader(options.idempotency);
  return createMiddleware<AppEnv & { Variables: ProviderKeyVariables & IdempotencyVariables }>(async (c, next) => {
    const presented = c.req.header(PROVIDER_KEY_HEADER);
    if (!presented || !isWellFormedSecret(presented)) throw providerKeyRequiredProblem();
    const authenticating = authenticateProviderKey(c.var.deps, presented, options.key);
    // Awaited on every path below; this keeps an early refusal from counting as unhandled meanwhile.
    authenticating.catch(() => undefined);
    let key: string;
    try {
      key = readKey(c.req.header(options.idempotency.header));
    } catch (badIdempotencyKey) {
      // A bad key is told first: the check answers before the Idempotency-Key's 400.
      await authenticating;
      throw badIdempotencyKey;
    }
    const scope = `key:${await sha256Hex(presented)}`;
    const [authenticated, locked] = await Promise.allSettled([
      authenticating,
      holdIdempotencyLock(c.var.deps, {
        name: options.idempotency.name,
        scope,
        key,
        waitMs: options.idempotency.waitMs,
      }),
    ]);
    const lock: HeldLock | null = locked.status === "fulfilled" ? locked.value : null;
    if (authenticated.status === "rejected") {
      await releaseAfterAnswer(c, lock);
      throw authenticated.reason;
    }
    if (locked.status === "rejected") throw locked.reason;
    c.set("actor", authenticated.value);
    c.set("idempotency", { key, scope });
    try {
      await next();
    } finally {
      await releaseAfterAnswer(c, lock);
    }
  });
}
