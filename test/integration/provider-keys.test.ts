import { describe, expect, it } from "vitest";
import {
  ageLastSuccess,
  createClaim,
  insertVerifiedClaim,
  verifiedClaimThroughApi,
  verifyClaim,
} from "../support/accounts.ts";
import {
  activeKeyCount,
  CLAIM_FIELDS,
  claimAction,
  claimRow,
  DAY,
  ISO,
  listClaims,
  pilotStatus,
} from "../support/claims.ts";
import { awayFromWindowEdge, expectInvalid, expectProblem } from "../support/worker.ts";

describe("provider keys", () => {
  it("reads the pilot status with the key: every required field, private and not stored", async () => {
    const claim = await verifiedClaimThroughApi();
    const response = await pilotStatus(claim.key);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const body = (await response.json()) as { pilot_status: Record<string, unknown>; evidence_scope: unknown };
    expect(Object.keys(body).sort()).toEqual(["evidence_scope", "pilot_status"]);
    expect(body.evidence_scope).toEqual(expect.any(String));
    const row = await claimRow(claim.claimId);
    expect(body.pilot_status).toEqual({
      as_of: expect.stringMatching(ISO),
      provider_claim_id: claim.claimId,
      domain: claim.domain,
      claim_status: "verified",
      verification_last_succeeded_at: new Date(row.verification_last_succeeded_at as string).toISOString(),
      verification_consecutive_failures: 0,
      verification_next_check_at: new Date(row.verification_next_check_at as string).toISOString(),
      company_owner_verified: false,
      offers: [],
      recent_observed_handoffs: [],
    });
    expect(JSON.stringify(body)).not.toContain(claim.key);

    for (const limit of ["1", "25", "100"]) expect((await pilotStatus(claim.key, `?limit=${limit}`)).status).toBe(200);
    for (const limit of ["0", "101", "-1", "2.5", "ten", ""]) {
      await expectInvalid(await pilotStatus(claim.key, `?limit=${limit}`), "query", ["limit"]);
    }
    await expectInvalid(await pilotStatus(claim.key, "?days=3"), "query", ["days"]);
  });

  it("reads at most 240 times an hour per key: the 241st answers 429, another key still reads", async () => {
    await awayFromWindowEdge(3600, 40);
    const claim = await insertVerifiedClaim();
    for (let batch = 0; batch < 6; batch++) {
      // Each request from its own address: the limit counts the key, not the client.
      const responses = await Promise.all(Array.from({ length: 40 }, () => pilotStatus(claim.key)));
      for (const response of responses) {
        expect(response.status).toBe(200);
        await response.body?.cancel();
      }
    }
    await expectProblem(await pilotStatus(claim.key), 429, "RATE_LIMITED");
    expect((await pilotStatus((await insertVerifiedClaim()).key)).status).toBe(200);
  }, 90_000);

  it("rotates the key: the new key works, every earlier one answers 401", async () => {
    const claim = await verifiedClaimThroughApi();
    const response = await claimAction(claim.session, claim.claimId, "keys/rotate");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const body = (await response.json()) as { provider_key: string; provider_key_metadata: Record<string, unknown> };
    expect(body).toEqual({
      claim_id: claim.claimId,
      provider_key: expect.stringMatching(/^svcpk_[A-Za-z0-9_-]{43}$/),
      provider_key_metadata: {
        provider_api_key_id: expect.any(Number),
        key_prefix: body.provider_key.slice(0, 10),
        claim_id: claim.claimId,
        created_at: expect.stringMatching(ISO),
        header: "X-SVC-Provider-Key",
      },
      save_this_key_now: true,
      prior_keys_revoked: true,
    });
    expect(body.provider_key).not.toBe(claim.key);
    expect(body.provider_key_metadata.provider_api_key_id).not.toBe(claim.keyId);

    expect((await pilotStatus(body.provider_key)).status).toBe(200);
    await expectProblem(await pilotStatus(claim.key), 401, "PROVIDER_KEY_REQUIRED");
    const again = (await (await claimAction(claim.session, claim.claimId, "keys/rotate")).json()) as {
      provider_key: string;
    };
    await expectProblem(await pilotStatus(body.provider_key), 401, "PROVIDER_KEY_REQUIRED");
    expect((await pilotStatus(again.provider_key)).status).toBe(200);
    expect(await activeKeyCount(claim.claimId)).toBe(1);
  });

  it("revokes the claim: its key answers 401, it can be neither verified nor given keys, and its domain is free", async () => {
    const claim = await verifiedClaimThroughApi();
    const response = await claimAction(claim.session, claim.claimId, "revoke");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { claim: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(["claim"]);
    expect(Object.keys(body.claim).sort()).toEqual(CLAIM_FIELDS);
    expect(body.claim).toMatchObject({ id: claim.claimId, status: "revoked", verification_next_check_at: null });
    expect(body.claim.revoked_at).toMatch(ISO);

    await expectProblem(await pilotStatus(claim.key), 401, "PROVIDER_KEY_REQUIRED");
    expect(await activeKeyCount(claim.claimId)).toBe(0);
    await expectProblem(await verifyClaim(claim.session, claim.claimId), 409, "CLAIM_REVOKED");
    await expectProblem(await claimAction(claim.session, claim.claimId, "keys/rotate"), 409, "CLAIM_NOT_VERIFIED");
    await expectProblem(await claimAction(claim.session, claim.claimId, "challenge"), 409, "CLAIM_REVOKED");
    // Revoking again changes nothing.
    const again = await claimAction(claim.session, claim.claimId, "revoke");
    expect(again.status).toBe(200);
    expect(((await again.json()) as typeof body).claim.revoked_at).toBe(body.claim.revoked_at);
    // The account and the domain may claim again.
    const next = await createClaim(claim.session, claim.domain);
    expect(next.claim.id).not.toBe(claim.claimId);
    expect((await listClaims(claim.session)).map((listed) => [listed.id, listed.status])).toEqual([
      [next.claim.id, "pending"],
      [claim.claimId, "revoked"],
    ]);
  });

  it("stops a key when its claim's last success is 604800 s old (404), not at 604799 s", async () => {
    const claim = await verifiedClaimThroughApi();
    await ageLastSuccess(claim.claimId, 604_799);
    expect((await pilotStatus(claim.key)).status).toBe(200);
    await ageLastSuccess(claim.claimId, 604_800);
    await expectProblem(await pilotStatus(claim.key), 404, "CLAIM_NOT_FRESH");
    await ageLastSuccess(claim.claimId, 30 * DAY);
    await expectProblem(await pilotStatus(claim.key), 404, "CLAIM_NOT_FRESH");
    // A successful recheck by the owner makes it fresh again.
    expect((await verifyClaim(claim.session, claim.claimId)).status).toBe(200);
    expect((await pilotStatus(claim.key)).status).toBe(200);
  });
});
