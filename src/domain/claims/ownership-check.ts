/**
 * One DNS ownership check of a claim and what it writes, shared by the owner's `verify` and the
 * daily recheck job: a success resets the failure count and schedules the next check a day later;
 * a failure of a verified claim counts, schedules an earlier retry, and the third consecutive one
 * revokes the claim and its keys in the same statement. Raw DNS answers are compared and dropped:
 * only the outcome is written.
 */
import { sql } from "drizzle-orm";
import { DnsLookupError } from "../../adapters/outbound/dns-over-https.ts";
import { sha256Hex } from "../sha256.ts";
import { revokeTicketsOf } from "../tickets/revoke-tickets.ts";
import {
  FAILURE_RETRY_SECONDS,
  PAID_ACTIONS_STOP_AFTER_CONSECUTIVE_FAILURES,
  RECHECK_INTERVAL_SECONDS,
} from "./claim-constants.ts";
import type { ClaimContext } from "./claim-context.ts";
import type { ClaimRow } from "./claim-record.ts";
import { revokeOffersOf } from "./revoke-offers.ts";

export type OwnershipProof =
  | { found: true }
  | { found: false; reason: "missing" | "mismatch" | "dns_failed"; detail: string };

/** Looks for the challenge value among the record's TXT values (by its hash: the value is not stored). */
export async function checkOwnershipProof(
  ctx: Pick<ClaimContext, "txtLookup">,
  claim: Pick<ClaimRow, "verification_record_name" | "challenge_sha256">,
): Promise<OwnershipProof> {
  let values: string[];
  try {
    values = await ctx.txtLookup(claim.verification_record_name);
  } catch (error) {
    const detail = error instanceof DnsLookupError ? error.message : "the DNS lookup failed";
    return { found: false, reason: "dns_failed", detail };
  }
  if (values.length === 0) {
    return {
      found: false,
      reason: "missing",
      detail: `no TXT record is published at ${claim.verification_record_name}`,
    };
  }
  const hashes = await Promise.all(values.map((value) => sha256Hex(value.trim())));
  if (hashes.includes(claim.challenge_sha256)) return { found: true };
  return {
    found: false,
    reason: "mismatch",
    detail: `the TXT record at ${claim.verification_record_name} does not hold the current challenge value`,
  };
}

/** Writes a successful check of a verified claim; the updated row, or undefined if it is no longer verified. */
export async function recordCheckSuccess(
  ctx: Pick<ClaimContext, "db" | "now">,
  claimId: string,
): Promise<ClaimRow | undefined> {
  const now = ctx.now.toISOString();
  const result = await ctx.db.execute(sql`
    update provider_claims set
      verification_last_succeeded_at = ${now}, verification_last_attempted_at = ${now},
      verification_consecutive_failures = 0,
      verification_next_check_at = ${now}::timestamptz + make_interval(secs => ${RECHECK_INTERVAL_SECONDS}),
      updated_at = ${now}
    where id = ${claimId} and status = 'verified'
    returning *`);
  return result.rows[0] as ClaimRow | undefined;
}

/**
 * Writes a failed check of a verified claim: one more consecutive failure, the retry after it, or
 * at the third the revocation of the claim with every key and offer it holds (one statement, so no
 * key or offer outlives its claim). Undefined if the claim is no longer verified.
 */
export async function recordCheckFailure(
  ctx: Pick<ClaimContext, "db" | "now">,
  claimId: string,
): Promise<ClaimRow | undefined> {
  const now = ctx.now.toISOString();
  const [firstRetry, secondRetry] = FAILURE_RETRY_SECONDS;
  const result = await ctx.db.execute(sql`
    with failed as (
      update provider_claims set
        verification_consecutive_failures = verification_consecutive_failures + 1,
        verification_last_attempted_at = ${now},
        status = case when verification_consecutive_failures + 1 >= ${PAID_ACTIONS_STOP_AFTER_CONSECUTIVE_FAILURES}
          then 'revoked' else status end,
        revoked_at = case when verification_consecutive_failures + 1 >= ${PAID_ACTIONS_STOP_AFTER_CONSECUTIVE_FAILURES}
          then ${now}::timestamptz else null end,
        verification_next_check_at = case
          when verification_consecutive_failures + 1 >= ${PAID_ACTIONS_STOP_AFTER_CONSECUTIVE_FAILURES} then null
          when verification_consecutive_failures = 0 then ${now}::timestamptz + make_interval(secs => ${firstRetry})
          else ${now}::timestamptz + make_interval(secs => ${secondRetry}) end,
        updated_at = ${now}
      where id = ${claimId} and status = 'verified'
      returning *
    ), revoked_keys as (
      update provider_api_keys set revoked_at = ${now}
      where claim_id in (select id from failed where status = 'revoked') and revoked_at is null
      returning id
    ), revoked_offers as (
      ${revokeOffersOf(sql`select id from failed where status = 'revoked'`, now)}
    ), revoked_tickets as (
      ${revokeTicketsOf(sql`select id from failed where status = 'revoked'`, now)}
    )
    select failed.*, (select count(*) from revoked_keys) as keys_revoked,
      (select count(*) from revoked_offers) as offers_revoked, (select count(*) from revoked_tickets) as tickets_revoked
    from failed`);
  return result.rows[0] as ClaimRow | undefined;
}
