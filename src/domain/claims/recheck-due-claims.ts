/**
 * The ownership recheck job: takes the verified claims whose next check is due (a lease keeps
 * concurrent runs off the same claim), checks each one's TXT record, and writes the outcome with
 * the same effects as an owner's verify. Bounded per run; the next check after a success is a day
 * after it, so checks stay spread over the day as claims were verified.
 */
import { sql } from "drizzle-orm";
import { RECHECK_BATCH_SIZE, RECHECK_LEASE_SECONDS } from "./claim-constants.ts";
import type { ClaimContext } from "./claim-context.ts";
import type { ClaimRow } from "./claim-record.ts";
import { checkOwnershipProof, recordCheckFailure, recordCheckSuccess } from "./ownership-check.ts";

const PARALLEL_CHECKS = 6;

export interface RecheckSummary {
  checked: number;
  succeeded: number;
  failed: number;
  revoked: number;
}

export async function recheckDueClaims(
  ctx: Omit<ClaimContext, "origin">,
  limit: number = RECHECK_BATCH_SIZE,
): Promise<RecheckSummary> {
  const now = ctx.now.toISOString();
  const leased = await ctx.db.execute(sql`
    update provider_claims set verification_next_check_at = ${now}::timestamptz + make_interval(secs => ${RECHECK_LEASE_SECONDS})
    where id in (
      select id from provider_claims
      where status = 'verified' and verification_next_check_at <= ${now}
      order by verification_next_check_at
      limit ${limit}
      for update skip locked
    )
    returning id, verification_record_name, challenge_sha256`);
  const due = leased.rows as unknown as Pick<ClaimRow, "id" | "verification_record_name" | "challenge_sha256">[];
  const summary: RecheckSummary = { checked: 0, succeeded: 0, failed: 0, revoked: 0 };
  for (let start = 0; start < due.length; start += PARALLEL_CHECKS) {
    await Promise.all(
      due.slice(start, start + PARALLEL_CHECKS).map(async (claim) => {
        const proof = await checkOwnershipProof(ctx, claim);
        summary.checked++;
        if (proof.found) {
          if (await recordCheckSuccess(ctx, claim.id)) summary.succeeded++;
          return;
        }
        const row = await recordCheckFailure(ctx, claim.id);
        if (row) summary.failed++;
        if (row?.status === "revoked") summary.revoked++;
      }),
    );
  }
  return summary;
}
