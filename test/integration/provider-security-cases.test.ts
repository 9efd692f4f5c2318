import { describe, expect } from "vitest";
import {
  createClaim,
  insertSession,
  insertSite,
  insertVerifiedClaim,
  OWN_ORIGIN,
  verifiedClaimThroughApi,
} from "../support/accounts.ts";
import { claimAction } from "../support/claims.ts";
import { runSecurityCases } from "../support/security-cases.ts";
import { asClient } from "../support/worker.ts";

describe("security cases of the authenticated routes", () => {
  /** An account with a session, an ended one and an expired one. */
  async function sessionsOfOneAccount() {
    const valid = await insertSession();
    const revoked = await insertSession({ accountId: valid.accountId, ended: true });
    const stale = await insertSession({ accountId: valid.accountId, expiresInSeconds: -60 });
    return { valid, revoked, stale };
  }

  const client = asClient();
  let listedClaimId = "";
  runSecurityCases(
    {
      name: "GET /api/v1/provider/claims",
      scheme: "session",
      mutation: false,
      okStatus: 200,
      staleStatus: 401,
      async setup() {
        const { valid, revoked, stale } = await sessionsOfOneAccount();
        listedClaimId = (await verifiedClaimThroughApi(valid)).claimId;
        const other = await insertSession();
        await createClaim(other, await insertSite());
        return { valid: valid.token, revoked: revoked.token, stale: stale.token, otherOwner: other.token };
      },
      send: (headers) => client("/api/v1/provider/claims", { headers }),
      async expectOtherOwner(response) {
        expect(response.status).toBe(200);
        const { claims } = (await response.json()) as { claims: { id: string }[] };
        expect(claims).toHaveLength(1);
        expect(claims.map((claim) => claim.id)).not.toContain(listedClaimId);
      },
    },
    { ownOrigin: OWN_ORIGIN },
  );

  for (const action of ["verify", "challenge", "keys/rotate", "revoke"]) {
    let claimId = "";
    runSecurityCases(
      {
        name: `POST /api/v1/provider/claims/{claim_id}/${action}`,
        scheme: "session",
        mutation: true,
        okStatus: 200,
        staleStatus: 401,
        async setup() {
          const { valid, revoked, stale } = await sessionsOfOneAccount();
          claimId = (await verifiedClaimThroughApi(valid)).claimId;
          // The other account holds a claim of its own, so its 404 is about ownership alone.
          const other = await verifiedClaimThroughApi();
          return { valid: valid.token, revoked: revoked.token, stale: stale.token, otherOwner: other.session.token };
        },
        send: (headers) => client(`/api/v1/provider/claims/${claimId}/${action}`, { method: "POST", headers }),
      },
      { ownOrigin: OWN_ORIGIN },
    );
  }

  let ownDomain = "";
  let otherDomain = "";
  let otherClaimId = "";
  runSecurityCases(
    {
      name: "GET /api/v1/provider/pilot-status",
      scheme: "provider_key",
      mutation: false,
      okStatus: 200,
      staleStatus: 404,
      async setup() {
        const owner = await insertSession();
        const own = await insertVerifiedClaim({ accountId: owner.accountId });
        ownDomain = own.domain;
        const rotated = await claimAction(owner, own.claimId, "keys/rotate");
        const { provider_key: valid } = (await rotated.json()) as { provider_key: string };
        const other = await insertVerifiedClaim();
        const stale = await insertVerifiedClaim({ lastSucceededSecondsAgo: 604_800 });
        otherDomain = other.domain;
        otherClaimId = other.claimId;
        return { valid, revoked: own.key, otherOwner: other.key, stale: stale.key };
      },
      send: (headers) => client("/api/v1/provider/pilot-status", { headers }),
      async expectOtherOwner(response) {
        expect(response.status).toBe(200);
        const { pilot_status } = (await response.json()) as { pilot_status: Record<string, unknown> };
        expect(pilot_status.domain).toBe(otherDomain);
        expect(pilot_status.provider_claim_id).toBe(otherClaimId);
        expect(pilot_status.domain).not.toBe(ownDomain);
      },
    },
    { ownOrigin: OWN_ORIGIN },
  );

  let sessionEmail = "";
  runSecurityCases(
    {
      name: "GET /api/v1/auth/session",
      scheme: "session",
      mutation: false,
      okStatus: 200,
      staleStatus: 401,
      async setup() {
        const { valid, revoked, stale } = await sessionsOfOneAccount();
        sessionEmail = valid.email;
        const other = await insertSession();
        return { valid: valid.token, revoked: revoked.token, stale: stale.token, otherOwner: other.token };
      },
      send: (headers) => client("/api/v1/auth/session", { headers }),
      async expectOtherOwner(response) {
        expect(response.status).toBe(200);
        const body = (await response.json()) as { email: string };
        expect(body.email).not.toBe(sessionEmail);
      },
    },
    { ownOrigin: OWN_ORIGIN },
  );
});
