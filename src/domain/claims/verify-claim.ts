/**
 * POST /provider/claims/{id}/verify: looks the challenge up in DNS. A pending claim whose record
 * holds the value becomes verified and — in the same statement — receives its first provider key,
 * returned once; a concurrent verification that lost that race answers without a key and points
 * at the rotation endpoint. On a verified claim it is a real recheck with the job's effects.
 */
import { sql } from "drizzle-orm";
import type { SessionActor } from "../actor.ts";
import { DomainError } from "../errors.ts";
import { RECHECK_INTERVAL_SECONDS } from "./claim-constants.ts";
import { type ClaimContext, claimLinks } from "./claim-context.ts";
import { type ClaimRow, claimRecord, ownershipFreshness } from "./claim-record.ts";
import { findOwnedClaim } from "./find-claim.ts";
import { checkOwnershipProof, type OwnershipProof, recordCheckFailure, recordCheckSuccess } from "./ownership-check.ts";
import { type IssuedKeyRow, newProviderKey, providerKeyMetadata } from "./provider-keys.ts";

function verifyResponse(row: ClaimRow, origin: string, issued?: { key: string; row: IssuedKeyRow }) {
  return {
    claim: claimRecord(row),
    verified: true as const,
    provider_key_returned: issued !== undefined,
    ownership_freshness: ownershipFreshness(row),
    ...(issued
      ? {
          provider_key: issued.key,
          provider_key_metadata: providerKeyMetadata(issued.row, row.id),
          save_this_key_now: true,
        }
      : { key_endpoint: claimLinks(origin, row.id).rotateKey }),
  };
}

export type ClaimVerifyResponse = ReturnType<typeof verifyResponse>;

const proofFailed = (proof: Exclude<OwnershipProof, { found: true }>, extra = "") =>
  new DomainError(
    "conflict",
    proof.reason === "mismatch"
      ? "CHALLENGE_MISMATCH"
      : proof.reason === "missing"
        ? "CHALLENGE_MISSING"
        : "CHALLENGE_CHECK_FAILED",
    `Ownership not proven: ${proof.detail}.${extra}`,
  );

export async function verifyClaim({
  ctx,
  actor,
  input,
}: {
  ctx: ClaimContext;
  actor: SessionActor;
  input: { claimId: string };
}): Promise<ClaimVerifyResponse> {
  const claim = await findOwnedClaim(ctx, actor, input.claimId);
  if (claim.status === "revoked")
    throw new DomainError("conflict", "CLAIM_REVOKED", "This claim is revoked; create a new claim.");
  if (claim.status === "pending" && new Date(claim.challenge_expires_at) <= ctx.now) {
    throw new DomainError(
      "conflict",
      "CHALLENGE_EXPIRED",
      "The challenge expired: ask for a new one (POST …/challenge) and publish it.",
    );
  }
  const proof = await checkOwnershipProof(ctx, claim);

  if (claim.status === "verified") {
    if (proof.found) {
      const row = await recordCheckSuccess(ctx, claim.id);
      if (row) return verifyResponse(row, ctx.origin);
    } else {
      const row = await recordCheckFailure(ctx, claim.id);
      const revoked = row?.status === "revoked" ? " The third consecutive failure revoked the claim and its keys." : "";
      throw proofFailed(proof, revoked);
    }
    // The claim changed under us (revoked meanwhile): answer as for its current state.
    return verifyClaim({ ctx, actor, input });
  }

  const now = ctx.now.toISOString();
  if (!proof.found) {
    await ctx.db.execute(sql`update provider_claims set verification_last_attempted_at = ${now}, updated_at = ${now}
      where id = ${claim.id} and status = 'pending'`);
    throw proofFailed(proof);
  }
  const key = await newProviderKey();
  const result = await ctx.db.execute(sql`
    with promoted as (
      update provider_claims set status = 'verified', verified_at = ${now},
        verification_last_succeeded_at = ${now}, verification_last_attempted_at = ${now},
        verification_consecutive_failures = 0,
        verification_next_check_at = ${now}::timestamptz + make_interval(secs => ${RECHECK_INTERVAL_SECONDS}),
        updated_at = ${now}
      where id = ${claim.id} and status = 'pending'
      returning *
    ), issued as (
      insert into provider_api_keys (claim_id, key_sha256, key_prefix, created_at)
      select id, ${key.keySha256}, ${key.keyPrefix}, ${now} from promoted
      on conflict do nothing
      returning id, key_prefix, created_at
    )
    select to_jsonb(promoted.*) as claim, (select to_jsonb(issued.*) from issued) as key from promoted`);
  const promoted = result.rows[0] as { claim: ClaimRow; key: IssuedKeyRow | null } | undefined;
  if (promoted?.key) return verifyResponse(promoted.claim, ctx.origin, { key: key.key, row: promoted.key });
  // Another verification promoted the claim first and issued its key: this one reports the state.
  const current = await findOwnedClaim(ctx, actor, claim.id);
  if (current.status !== "verified")
    throw proofFailed({ found: false, reason: "dns_failed", detail: "the claim changed during verification" });
  return verifyResponse(current, ctx.origin);
}
