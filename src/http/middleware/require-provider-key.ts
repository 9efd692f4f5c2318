import { createMiddleware } from "hono/factory";
import type { VerifyProviderKey } from "../../domain/accounts/credentials.ts";
import type { Actor, ProviderKeyActor } from "../../domain/actor.ts";
import type { AppEnv } from "../context.ts";
import { HttpProblem } from "../problem.ts";
import { isWellFormedSecret } from "./require-session.ts";

/** The header a provider presents its claim-scoped key in. */
export const PROVIDER_KEY_HEADER = "X-SVC-Provider-Key";

/** What a route behind `requireProviderKey` may read: the key, its claim and domain. */
export interface ProviderKeyVariables {
  actor: ProviderKeyActor;
}

export interface RequireProviderKeyOptions {
  /** Looks the key up (by its hash) with its claim's state. */
  verify: VerifyProviderKey;
  /**
   * How this route answers an active key whose claim is no longer verified and fresh: the read
   * endpoints say 404 (the claim's data is unavailable), the commercial acceptance says 409
   * (stale claim), as the interface lists them.
   */
  whenClaimNotFresh: 404 | 409;
}

export const providerKeyRequiredProblem = () =>
  new HttpProblem(
    401,
    "PROVIDER_KEY_REQUIRED",
    `Send a valid, active provider key in the ${PROVIDER_KEY_HEADER} header.`,
  );

const claimNotFreshProblem = (status: 404 | 409) =>
  status === 404
    ? new HttpProblem(
        404,
        "CLAIM_NOT_FRESH",
        "The claim of this key is no longer verified and fresh: its DNS ownership proof must pass again.",
      )
    : new HttpProblem(
        409,
        "CLAIM_NOT_FRESH",
        "The claim of this key is no longer verified and fresh: its DNS ownership proof must pass again.",
      );

/**
 * Requires an active provider key whose claim is verified and fresh, and puts its actor on
 * `c.var.actor`. A missing, malformed, unknown, rotated or revoked key answers 401
 * `PROVIDER_KEY_REQUIRED`; an active key of a claim that is not fresh answers the route's
 * `whenClaimNotFresh`. When the key store cannot be read, the route answers 503
 * `PROVIDER_AUTH_UNAVAILABLE` (the interface's "key authentication unavailable"), never as if the
 * key were bad. Keys are not browser credentials, so no same-origin check applies.
 *
 * @example routes.use("/provider/pilot-status", requireProviderKey({ verify: verifyProviderKey, whenClaimNotFresh: 404 }));
 */
export function requireProviderKey(options: RequireProviderKeyOptions) {
  return createMiddleware<AppEnv & { Variables: ProviderKeyVariables }>(async (c, next) => {
    c.set("actor", await authenticateProviderKey(c.var.deps, c.req.header(PROVIDER_KEY_HEADER), options));
    await next();
  });
}

/**
 * The actor of the key presented in the PROVIDER_KEY_HEADER header, or the problem
 * `requireProviderKey` answers with (401, the route's `whenClaimNotFresh`, 503).
 */
export async function authenticateProviderKey(
  deps: AppEnv["Variables"]["deps"],
  key: string | undefined,
  options: RequireProviderKeyOptions,
): Promise<ProviderKeyActor> {
  if (!key || !isWellFormedSecret(key)) throw providerKeyRequiredProblem();
  let verification: Awaited<ReturnType<VerifyProviderKey>>;
  try {
    verification = await options.verify(deps, key);
  } catch (error) {
    console.error("provider key verification failed", error);
    throw new HttpProblem(
      503,
      "PROVIDER_AUTH_UNAVAILABLE",
      "Provider keys cannot be checked right now; try again shortly.",
      {},
      { "Retry-After": "5" },
    );
  }
  if (verification.status === "invalid") throw providerKeyRequiredProblem();
  if (verification.status === "claim_not_fresh") throw claimNotFreshProblem(options.whenClaimNotFresh);
  return verification.actor;
}

/** The provider-key actor of a request that passed `requireProviderKey` (see `sessionActorOf`). */
export function providerKeyActorOf(actor: Actor): ProviderKeyActor {
  if (actor.kind !== "provider_key") throw providerKeyRequiredProblem();
  return actor;
}
