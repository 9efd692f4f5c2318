/**
 * GET /provider/pilot-status with offers: every field of the pilot status and its offer records,
 * the company acceptance, `limit`, and nothing the interface excludes. (The claim part and the
 * shared security cases are in provider-security-cases.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { insertSession, insertVerifiedClaim, keyClient } from "../support/accounts.ts";
import {
  acceptTerms,
  activeOffer,
  createOffer,
  newIdempotencyKey,
  operatorVerify,
  postAcceptance,
} from "../support/offers.ts";
import { expectInvalid, expectProblem } from "../support/worker.ts";

async function ownedClaim() {
  const claim = await insertVerifiedClaim();
  const session = await insertSession({ accountId: claim.accountId });
  return { ...claim, session };
}

interface PilotBody {
  pilot_status: Record<string, unknown> & { offers: Record<string, unknown>[]; recent_observed_handoffs: unknown[] };
  evidence_scope: string;
}

const pilotStatus = async (key: string, query = "") => {
  const response = await keyClient(key)(`/api/v1/provider/pilot-status${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get("cache-control")).toBe("private, no-store");
  return (await response.json()) as PilotBody;
};

describe("GET /provider/pilot-status with offers", () => {
  it("reports each offer's commercial state and the company acceptance, never an action URL", async () => {
    const claim = await ownedClaim();
    const draft = await createOffer(claim.session, claim.claimId, claim.domain, { terms_period_days: undefined });
    const draftAcceptance = await acceptTerms(claim.key, draft);
    const active = await activeOffer(claim);
    const company = await postAcceptance(claim.key, newIdempotencyKey(), {
      event_type: "pilot_company",
      provider_acceptance_reference: "signed-order-form-7",
    });
    const companyId = ((await company.json()) as { acceptance: { id: string } }).acceptance.id;
    await operatorVerify(companyId);

    const body = await pilotStatus(claim.key);
    expect(Object.keys(body).sort()).toEqual(["evidence_scope", "pilot_status"]);
    const status = body.pilot_status;
    expect(status).toMatchObject({
      provider_claim_id: claim.claimId,
      domain: claim.domain,
      claim_status: "verified",
      company_owner_verified: true,
      company_acceptance_id: companyId,
      recent_observed_handoffs: [],
    });
    expect(typeof status.company_owner_verified_at).toBe("string");
    expect(status.offers.map((offer) => offer.offer_id)).toEqual([active.id, draft.id]);
    const [activeStatus, draftStatus] = status.offers;
    expect(activeStatus).toMatchObject({
      status: "active",
      version: 1,
      billing_mode: "terms",
      commercial_terms_contract_version: "svc-provider-commercial-terms-v1",
      commercial_terms_sha256: active.commercial_terms_sha256,
      provider_mor_acknowledgement_required: true,
      provider_acknowledges_merchant_of_record: true,
      latest_acceptance_owner_verified: true,
      current_terms_owner_verified: true,
      renewal_eligible: true,
      activation_ready: false,
      latest_acceptance_type: "terms_acceptance",
      terms_credit_limit_cents: 100_000,
      terms_period_days: 30,
    });
    expect(typeof activeStatus?.current_terms_valid_until).toBe("string");
    expect(draftStatus).toMatchObject({
      status: "draft",
      latest_acceptance_id: draftAcceptance,
      latest_acceptance_owner_verified: false,
      current_terms_owner_verified: false,
      renewal_eligible: true,
      activation_ready: false,
    });
    expect(draftStatus).not.toHaveProperty("terms_period_days");
    expect(draftStatus).not.toHaveProperty("latest_acceptance_owner_verified_at");
    expect(Object.keys(draftStatus ?? {})).not.toContain("action_url");
    expect(JSON.stringify(body)).not.toContain("https://");

    await operatorVerify(draftAcceptance);
    const ready = await pilotStatus(claim.key);
    expect(ready.pilot_status.offers[1]).toMatchObject({ current_terms_owner_verified: true, activation_ready: true });
  });

  it("caps the offers at limit (1 to 100) and refuses anything else with 400", async () => {
    const claim = await ownedClaim();
    for (let index = 0; index < 3; index++) await createOffer(claim.session, claim.claimId, claim.domain);
    expect((await pilotStatus(claim.key, "?limit=2")).pilot_status.offers).toHaveLength(2);
    expect((await pilotStatus(claim.key)).pilot_status.offers).toHaveLength(3);
    for (const bad of ["0", "101", "1.5", "x"]) {
      await expectInvalid(await keyClient(claim.key)(`/api/v1/provider/pilot-status?limit=${bad}`), "query", ["limit"]);
    }
  });

  it("answers 404 once the claim is no longer fresh", async () => {
    const stale = await insertVerifiedClaim({ lastSucceededSecondsAgo: 604_800 });
    await expectProblem(await keyClient(stale.key)("/api/v1/provider/pilot-status"), 404, "CLAIM_NOT_FRESH");
  });
});
