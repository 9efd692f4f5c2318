/** The ownership recheck cron: a claim stays verified while its record stays published, and is revoked at the third failure. */
import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  createClaim,
  insertSession,
  insertSite,
  publishTxt,
  removeTxt,
  verifiedClaimThroughApi,
} from "../support/accounts.ts";
import worker from "../support/all-in-one-jobs.ts";
import { activeKeyCount, claimRow, DAY, pilotStatus, seconds } from "../support/claims.ts";
import { sqlRows } from "../support/sites.ts";
import { expectProblem } from "../support/worker.ts";

// Runs last in this file: the cron's clock is days ahead, so it also rechecks this file's other claims.
describe("the ownership recheck cron", () => {
  const runAt = async (scheduledTime: number) => {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/15 * * * *", scheduledTime }), env, ctx);
  };
  const state = async (claimId: string) => {
    const row = await claimRow(claimId);
    return {
      status: row.status,
      failures: Number(row.verification_consecutive_failures),
      lastSucceeded: row.verification_last_succeeded_at ? seconds(row.verification_last_succeeded_at) : null,
      lastAttempted: row.verification_last_attempted_at ? seconds(row.verification_last_attempted_at) : null,
      nextCheck: row.verification_next_check_at ? seconds(row.verification_next_check_at) : null,
      revokedAt: row.revoked_at ? seconds(row.revoked_at) : null,
    };
  };

  it("succeeds while the record stays published, then counts failures (+6 h, +12 h) and revokes at the third", async () => {
    const claim = await verifiedClaimThroughApi();
    const verifiedAt = (await state(claim.claimId)).lastSucceeded as number;
    // A verified claim of the same run whose check is not due yet, and a pending claim: both untouched.
    const later = await verifiedClaimThroughApi();
    const pending = await createClaim(await insertSession(), await insertSite());
    const t1 = Math.ceil(verifiedAt + DAY + 1) * 1000;
    await sqlRows("update provider_claims set verification_next_check_at = $2 where id = $1", [
      later.claimId,
      new Date(t1 + 3600_000).toISOString(),
    ]);
    const untouched = [await claimRow(later.claimId), await claimRow(pending.claim.id)];

    await runAt(t1);
    expect(await state(claim.claimId)).toEqual({
      status: "verified",
      failures: 0,
      lastSucceeded: t1 / 1000,
      lastAttempted: t1 / 1000,
      nextCheck: t1 / 1000 + DAY,
      revokedAt: null,
    });
    expect([await claimRow(later.claimId), await claimRow(pending.claim.id)]).toEqual(untouched);

    await removeTxt(claim.recordName);
    const t2 = t1 + (DAY + 1) * 1000;
    await runAt(t2);
    expect(await state(claim.claimId)).toEqual({
      status: "verified",
      failures: 1,
      lastSucceeded: t1 / 1000,
      lastAttempted: t2 / 1000,
      nextCheck: t2 / 1000 + 6 * 3600,
      revokedAt: null,
    });
    // Paid actions continue until the third failure.
    expect((await pilotStatus(claim.key)).status).toBe(200);

    // Not due yet: a run in between changes nothing.
    await runAt(t2 + 6 * 3600_000 - 1000);
    expect((await state(claim.claimId)).failures).toBe(1);

    const t3 = t2 + (6 * 3600 + 1) * 1000;
    await runAt(t3);
    expect(await state(claim.claimId)).toMatchObject({
      status: "verified",
      failures: 2,
      lastAttempted: t3 / 1000,
      nextCheck: t3 / 1000 + 12 * 3600,
    });
    expect((await pilotStatus(claim.key)).status).toBe(200);

    const t4 = t3 + (12 * 3600 + 1) * 1000;
    await runAt(t4);
    expect(await state(claim.claimId)).toEqual({
      status: "revoked",
      failures: 3,
      lastSucceeded: t1 / 1000,
      lastAttempted: t4 / 1000,
      nextCheck: null,
      revokedAt: t4 / 1000,
    });
    expect(await activeKeyCount(claim.claimId)).toBe(0);
    await expectProblem(await pilotStatus(claim.key), 401, "PROVIDER_KEY_REQUIRED");

    // A revoked claim is never checked again.
    const revoked = await claimRow(claim.claimId);
    await runAt(t4 + 30 * DAY * 1000);
    expect(await claimRow(claim.claimId)).toEqual(revoked);
  });

  it("resets the failure count when the record is back before the third check", async () => {
    const claim = await verifiedClaimThroughApi();
    const verifiedAt = (await state(claim.claimId)).lastSucceeded as number;
    await removeTxt(claim.recordName);
    const t1 = Math.ceil(verifiedAt + DAY + 1) * 1000;
    await runAt(t1);
    expect(await state(claim.claimId)).toMatchObject({ status: "verified", failures: 1 });
    await publishTxt(claim.recordName, claim.recordValue);
    const t2 = t1 + (6 * 3600 + 1) * 1000;
    await runAt(t2);
    expect(await state(claim.claimId)).toMatchObject({
      status: "verified",
      failures: 0,
      lastSucceeded: t2 / 1000,
      nextCheck: t2 / 1000 + DAY,
    });
    expect((await pilotStatus(claim.key)).status).toBe(200);
  });
});
