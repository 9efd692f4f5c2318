/** The owner's other claim operations: list, rotate the challenge, revoke, rotate the provider key. */
import { sql } from "drizzle-orm";
import { postgresErrorCode, sqlBatchRunner } from "../../adapters/db.ts";
import type { SessionActor } from "../actor.ts";
import { DomainError } from "../errors.ts";
import { CHALLENGE_LIFETIME_SECONDS } from "./claim-constants.ts";
import type { ClaimContext } from "./claim-context.ts";
import { type ClaimRow, claimRecord } from "./claim-record.ts";
import { type ClaimChallengeResponse, challengeResponse, newChallenge } from "./create-claim.ts";
import { claimNotFound, findOwnedClaim } from "./find-claim.ts";
import { type IssuedKeyRow, newProviderKey, providerKeyMetadata } from "./provider-keys.ts";
import { revokeOffersOf } from "./revoke-offers.ts";

const claimRevoked = () => new DomainError("conflict", "CLAIM_REVOKED", "This claim is revoked; create a new claim.");

/** Every claim of the account, newest first, revoked ones included (they are its history). */
export async function listClaims({ ctx, actor }: { ctx: Pick<ClaimContext, "db">; actor: SessionActor }) {
  const result = await ctx.db.execute(
    sql`select * from provider_claims where account_id = ${actor.accountId} order by created_at desc, id`,
  );
  return { claims: (result.rows as unknown as ClaimRow[]).map(claimRecord) };
}

/**
 * Replaces the challenge with a new value, shown once. A pending claim also gets a new expiry; on
 * a verified claim the new value is what later checks expect, so it must be published before the
 * next check.
 */
export async function rotateChallenge({
  ctx,
  actor,
  input,
}: {
  ctx: Pick<ClaimContext, "db" | "origin" | "now">;
  actor: SessionActor;
  input: { claimId: string };
}): Promise<ClaimChallengeResponse> {
  const challenge = await newChallenge();
  const now = ctx.now.toISOString();
  const result = await ctx.db.execute(sql`
    update provider_claims set challenge_sha256 = ${challenge.sha256},
      challenge_expires_at = ${now}::timestamptz + make_interval(secs => ${CHALLENGE_LIFETIME_SECONDS}),
      updated_at = ${now}
    where id = ${input.claimId} and account_id = ${actor.accountId} and status <> 'revoked'
    returning *`);
  const row = result.rows[0] as ClaimRow | undefined;
  if (row) return challengeResponse(row, challenge.value, ctx.origin);
  await findOwnedClaim(ctx, actor, input.claimId);
  throw claimRevoked();
}

/** Revokes the claim with every key and offer it holds in one transaction; revoking a revoked claim changes nothing. */
export async function revokeClaim({
  ctx,
  actor,
  input,
}: {
  ctx: Pick<ClaimContext, "db" | "now">;
  actor: SessionActor;
  input: { claimId: string };
}) {
  const now = ctx.now.toISOString();
  const result = await ctx.db.execute(sql`
    with revoked as (
      update provider_claims set status = 'revoked', revoked_at = ${now}, verification_next_check_at = null, updated_at = ${now}
      where id = ${input.claimId} and account_id = ${actor.accountId} and status <> 'revoked'
      returning *
    ), revoked_keys as (
      update provider_api_keys set revoked_at = ${now}
      where claim_id in (select id from revoked) and revoked_at is null
      returning id
    ), revoked_offers as (
      ${revokeOffersOf(sql`select id from revoked`, now)}
    )
    select revoked.*, (select count(*) from revoked_keys) as keys_revoked,
      (select count(*) from revoked_offers) as offers_revoked
    from revoked`);
  const row = (result.rows[0] as ClaimRow | undefined) ?? (await findOwnedClaim(ctx, actor, input.claimId));
  return { claim: claimRecord(row) };
}

/**
 * Issues a new key for a verified claim and revokes every earlier one, in one transaction; the key
 * is returned once. Two rotations racing: one wins, the other answers 409 and may retry.
 */
export async function rotateProviderKey({
  ctx,
  actor,
  input,
}: {
  ctx: Pick<ClaimContext, "db" | "now">;
  actor: SessionActor;
  input: { claimId: string };
}) {
  const claim = await findOwnedClaim(ctx, actor, input.claimId);
  if (claim.status !== "verified") {
    throw new DomainError(
      "conflict",
      "CLAIM_NOT_VERIFIED",
      "Only a verified claim holds provider keys: verify it first.",
    );
  }
  const key = await newProviderKey();
  const now = ctx.now.toISOString();
  let issued: IssuedKeyRow | undefined;
  try {
    const [, inserted = []] = await sqlBatchRunner(ctx.db)([
      sql`update provider_api_keys set revoked_at = ${now} where claim_id = ${claim.id} and revoked_at is null`,
      sql`insert into provider_api_keys (claim_id, key_sha256, key_prefix, created_at)
          select id, ${key.keySha256}, ${key.keyPrefix}, ${now} from provider_claims
          where id = ${claim.id} and account_id = ${actor.accountId} and status = 'verified'
          returning id, key_prefix, created_at`,
    ]);
    issued = inserted[0] as IssuedKeyRow | undefined;
  } catch (error) {
    if (postgresErrorCode(error) === "23505") {
      throw new DomainError(
        "conflict",
        "KEY_ROTATION_CONFLICT",
        "Another rotation of this claim's key ran at the same time; try again.",
      );
    }
    throw error;
  }
  if (!issued) throw claimNotFound();
  return {
    claim_id: claim.id,
    provider_key: key.key,
    provider_key_metadata: providerKeyMetadata(issued, claim.id),
    save_this_key_now: true as const,
    prior_keys_revoked: true as const,
  };
}
