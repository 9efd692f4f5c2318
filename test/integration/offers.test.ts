/**
 * Offers on a session and commercial acceptances with the provider key, end to end: the strict
 * offer request, action_url rules, the inventory cap, drafts-only updates as new versions, pause
 * from active, the three acceptance shapes with the Idempotency-Key rules, the operator's
 * verification and activation, and the shared security cases of every route.
 */
import { describe, expect, it } from "vitest";
import { recordCheckFailure } from "../../src/domain/claims/ownership-check.ts";
import type { ProblemCode } from "../../src/domain/problem-types.ts";
import {
  insertSession,
  insertVerifiedClaim,
  OWN_ORIGIN,
  sessionClient,
  verifiedClaimThroughApi,
} from "../support/accounts.ts";
import {
  acceptTerms,
  activeOffer,
  createOffer,
  newIdempotencyKey,
  type OfferBody,
  offerBody,
  operatorActivate,
  operatorVerify,
  postAcceptance,
  termsAcceptance,
} from "../support/offers.ts";
import { runSecurityCases } from "../support/security-cases.ts";
import { sqlRows, testDatabase } from "../support/sites.ts";
import { asClient, expectInvalid, expectProblem } from "../support/worker.ts";

const HEX64 = /^[0-9a-f]{64}$/;
const put = (body: unknown): RequestInit => ({
  method: "PUT",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});
const post = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** A verified claim with a session of its owner and its key, written by SQL. */
async function ownedClaim() {
  const claim = await insertVerifiedClaim();
  const session = await insertSession({ accountId: claim.accountId });
  return { ...claim, session };
}

describe("POST /provider/offers", () => {
  it("creates a draft, version 1, with the terms hash and a commercial state", async () => {
    const claim = await ownedClaim();
    const response = await sessionClient(claim.session.token)(
      "/api/v1/provider/offers",
      post(offerBody(claim.claimId, claim.domain, { principal_price_mode: "fixed", principal_price_cents: 0 })),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const offer = (await response.json()) as OfferBody;
    expect(offer).toMatchObject({
      claim_id: claim.claimId,
      domain: claim.domain,
      status: "draft",
      version: 1,
      bounty_cents: 2500,
      principal_price_cents: 0,
      commercial_terms_contract_version: "svc-provider-commercial-terms-v1",
      activated_at: null,
      commercial_state: {
        activation_ready: false,
        current_terms_owner_verified: false,
        renewal_eligible: false,
        latest_acceptance_owner_verified: false,
      },
    });
    expect(offer.commercial_terms_sha256).toMatch(HEX64);
    const versions = await sqlRows(
      "select version, commercial_terms_sha256 from provider_offer_versions where offer_id = $1",
      [offer.id],
    );
    expect(versions).toEqual([{ version: 1, commercial_terms_sha256: offer.commercial_terms_sha256 }]);
  });

  it("refuses unknown fields, out-of-range values and enums, writing nothing", async () => {
    const claim = await ownedClaim();
    const client = sessionClient(claim.session.token);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ extra: 1 }, [""]],
      [{ name: "" }, ["name"]],
      [{ name: "x".repeat(81) }, ["name"]],
      [{ summary: "x".repeat(281) }, ["summary"]],
      [{ action_type: "donation" }, ["action_type"]],
      [{ charge_event: "redirected" }, ["charge_event"]],
      [{ bounty_cents: 0 }, ["bounty_cents"]],
      [{ bounty_cents: 1_000_001 }, ["bounty_cents"]],
      [{ bounty_cents: 1.5 }, ["bounty_cents"]],
      [{ currency: "eur" }, ["currency"]],
      [{ principal_price_mode: "auction" }, ["principal_price_mode"]],
      [{ principal_price_cents: 100_000_001 }, ["principal_price_cents"]],
      [{ principal_currency: "eur" }, ["principal_currency"]],
      [{ billing_mode: "prepaid" }, ["billing_mode"]],
      [{ terms_credit_limit_cents: 10_000_001 }, ["terms_credit_limit_cents"]],
      [{ terms_period_days: 91 }, ["terms_period_days"]],
      [{ terms_period_days: 0 }, ["terms_period_days"]],
      [{ action_url: `http://${claim.domain}/demo` }, ["action_url"]],
      [{ action_url: `https://${claim.domain}/demo?ref=1` }, ["action_url"]],
      [{ action_url: `https://${claim.domain}/demo#top` }, ["action_url"]],
      [{ action_url: "https://elsewhere.example/demo" }, ["action_url"]],
      [{ action_url: `https://${claim.domain}.evil.example/` }, ["action_url"]],
      [{ action_url: `https://x${claim.domain}/` }, ["action_url"]],
      [{ action_url: `https://${claim.domain}:8443/` }, ["action_url"]],
      [{ principal_price_mode: "fixed" }, ["principal_price_cents"]],
    ];
    for (const [override, fields] of cases) {
      const response = await client("/api/v1/provider/offers", post(offerBody(claim.claimId, claim.domain, override)));
      if (fields[0] === "") {
        expect(response.status, JSON.stringify(override)).toBe(400);
        await response.body?.cancel();
      } else {
        await expectInvalid(response, "body", fields);
      }
    }
    const { claim_id: _omit, ...noClaim } = offerBody(claim.claimId, claim.domain);
    await expectInvalid(await client("/api/v1/provider/offers", post(noClaim)), "body", ["claim_id"]);
    expect(await sqlRows("select id from provider_offers where claim_id = $1", [claim.claimId])).toEqual([]);
  });

  it("accepts subdomains and the domain itself in action_url", async () => {
    const claim = await ownedClaim();
    for (const url of [`https://${claim.domain}/`, `https://a.b.${claim.domain}/x/y`]) {
      const offer = await createOffer(claim.session, claim.claimId, claim.domain, { action_url: url });
      expect(offer.action_url).toBe(url);
    }
  });

  it("answers 404 for another account's claim and 409 for a claim that is not verified", async () => {
    const claim = await ownedClaim();
    const stranger = await insertSession();
    await expectProblem(
      await sessionClient(stranger.token)("/api/v1/provider/offers", post(offerBody(claim.claimId, claim.domain))),
      404,
      "CLAIM_NOT_FOUND",
    );
    await sqlRows("update provider_claims set status = 'revoked', revoked_at = now() where id = $1", [claim.claimId]);
    await expectProblem(
      await sessionClient(claim.session.token)("/api/v1/provider/offers", post(offerBody(claim.claimId, claim.domain))),
      409,
      "CLAIM_NOT_VERIFIED",
    );
  });

  it("stops at the inventory cap of 20 offers per claim (409), even when creations race", async () => {
    const claim = await ownedClaim();
    const client = sessionClient(claim.session.token);
    const responses = await Promise.all(
      Array.from({ length: 24 }, () => client("/api/v1/provider/offers", post(offerBody(claim.claimId, claim.domain)))),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(20);
    expect(statuses.filter((status) => status === 409)).toHaveLength(4);
    const refused = responses.find((response) => response.status === 409)!;
    await expectProblem(refused, 409, "OFFER_LIMIT_REACHED");
    const [count] = await sqlRows<{ n: number }>("select count(*)::int as n from provider_offers where claim_id = $1", [
      claim.claimId,
    ]);
    expect(count?.n).toBe(20);
  });
});

describe("PUT /provider/offers/{offer_id}", () => {
  it("makes each update of a draft a new version; the terms hash follows the commercial terms only", async () => {
    const claim = await ownedClaim();
    const offer = await createOffer(claim.session, claim.claimId, claim.domain);
    const client = sessionClient(claim.session.token);
    const renamed = await client(
      `/api/v1/provider/offers/${offer.id}`,
      put(offerBody(undefined, claim.domain, { name: "Renamed" })),
    );
    expect(renamed.status).toBe(200);
    const v2 = (await renamed.json()) as OfferBody;
    expect(v2).toMatchObject({ version: 2, name: "Renamed", commercial_terms_sha256: offer.commercial_terms_sha256 });
    const repriced = (await (
      await client(
        `/api/v1/provider/offers/${offer.id}`,
        put(offerBody(claim.claimId, claim.domain, { bounty_cents: 3000 })),
      )
    ).json()) as OfferBody;
    expect(repriced.version).toBe(3);
    expect(repriced.commercial_terms_sha256).not.toBe(offer.commercial_terms_sha256);
    const versions = await sqlRows<{ version: number }>(
      "select version from provider_offer_versions where offer_id = $1 order by version",
      [offer.id],
    );
    expect(versions.map((row) => row.version)).toEqual([1, 2, 3]);
  });

  it("refuses a changed claim_id (400), a non-draft (409), an unknown field (400) and another owner (404)", async () => {
    const claim = await ownedClaim();
    const other = await ownedClaim();
    const offer = await activeOffer(claim);
    const client = sessionClient(claim.session.token);
    const draft = await createOffer(claim.session, claim.claimId, claim.domain);
    await expectInvalid(
      await client(`/api/v1/provider/offers/${draft.id}`, put(offerBody(other.claimId, claim.domain))),
      "body",
      ["claim_id"],
    );
    await expectProblem(
      await client(`/api/v1/provider/offers/${offer.id}`, put(offerBody(undefined, claim.domain))),
      409,
      "OFFER_NOT_DRAFT",
    );
    const unknown = await client(
      `/api/v1/provider/offers/${draft.id}`,
      put({ ...offerBody(undefined, claim.domain), status: "active" }),
    );
    expect(unknown.status).toBe(400);
    await unknown.body?.cancel();
    await expectProblem(
      await sessionClient(other.session.token)(
        `/api/v1/provider/offers/${draft.id}`,
        put(offerBody(undefined, other.domain)),
      ),
      404,
      "OFFER_NOT_FOUND",
    );
  });
});

describe("POST /provider/offers/{offer_id}/pause and GET", () => {
  it("pauses an active offer, keeps a paused one paused, refuses a draft", async () => {
    const claim = await ownedClaim();
    const client = sessionClient(claim.session.token);
    const offer = await activeOffer(claim);
    const got = (await (await client(`/api/v1/provider/offers/${offer.id}`)).json()) as OfferBody;
    expect(got).toMatchObject({ status: "active", commercial_state: { current_terms_owner_verified: true } });
    const paused = await client(`/api/v1/provider/offers/${offer.id}/pause`, { method: "POST" });
    expect(paused.status).toBe(200);
    expect(await paused.json()).toMatchObject({ status: "paused" });
    const again = await client(`/api/v1/provider/offers/${offer.id}/pause`, { method: "POST" });
    expect(again.status).toBe(200);
    await again.body?.cancel();
    const draft = await createOffer(claim.session, claim.claimId, claim.domain);
    await expectProblem(
      await client(`/api/v1/provider/offers/${draft.id}/pause`, { method: "POST" }),
      409,
      "OFFER_NOT_ACTIVE",
    );
    await expectProblem(await client(`/api/v1/provider/offers/${crypto.randomUUID()}`), 404, "OFFER_NOT_FOUND");
    await expectInvalid(await client("/api/v1/provider/offers/not-a-uuid"), "path", ["offer_id"]);
  });

  it("lists the account's offers, optionally of one claim, never another account's", async () => {
    const claim = await ownedClaim();
    const offer = await createOffer(claim.session, claim.claimId, claim.domain);
    const other = await ownedClaim();
    await createOffer(other.session, other.claimId, other.domain);
    const client = sessionClient(claim.session.token);
    const all = (await (await client("/api/v1/provider/offers")).json()) as { offers: OfferBody[] };
    expect(all.offers.map((item) => item.id)).toEqual([offer.id]);
    const ofClaim = (await (await client(`/api/v1/provider/offers?claim_id=${claim.claimId}`)).json()) as {
      offers: OfferBody[];
    };
    expect(ofClaim.offers).toHaveLength(1);
    const ofOther = (await (await client(`/api/v1/provider/offers?claim_id=${other.claimId}`)).json()) as {
      offers: OfferBody[];
    };
    expect(ofOther.offers).toEqual([]);
    await expectInvalid(await client("/api/v1/provider/offers?claim_id=x"), "query", ["claim_id"]);
    await expectInvalid(await client("/api/v1/provider/offers?other=1"), "query", ["other"]);
  });
});

describe("claim revocation", () => {
  it("pauses active offers and retires every offer of the claim in the same write", async () => {
    const claim = await verifiedClaimThroughApi();
    const active = await activeOffer(claim);
    const draft = await createOffer(claim.session, claim.claimId, claim.domain);
    const revoked = await sessionClient(claim.session.token)(`/api/v1/provider/claims/${claim.claimId}/revoke`, {
      method: "POST",
    });
    expect(revoked.status).toBe(200);
    await revoked.body?.cancel();
    const rows = await sqlRows<{ id: string; status: string; revoked_at: string | null }>(
      "select id, status, revoked_at from provider_offers where claim_id = $1",
      [claim.claimId],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(active.id)).toMatchObject({ status: "paused" });
    expect(byId.get(draft.id)).toMatchObject({ status: "draft" });
    for (const row of rows) expect(row.revoked_at).not.toBeNull();
    await expect(operatorActivate(draft.id)).rejects.toThrow(/cannot be activated/);
  });
});

describe("the third failed ownership check", () => {
  it("revokes the claim with its offers in the same statement", async () => {
    const claim = await ownedClaim();
    const active = await activeOffer(claim);
    const ctx = { db: testDatabase(), now: new Date() };
    for (let failure = 1; failure <= 3; failure++) await recordCheckFailure(ctx, claim.claimId);
    const [row] = await sqlRows<{ status: string; revoked_at: string | null }>(
      "select status, revoked_at from provider_offers where id = $1",
      [active.id],
    );
    expect(row?.status).toBe("paused");
    expect(row?.revoked_at).not.toBeNull();
  });
});

describe("POST /provider/commercial-acceptances", () => {
  const CONSTANTS = {
    provider_authenticated: true,
    owner_verification_required: true,
    commercial_proof_created: false,
  };

  it("records the three shapes with exactly the event's fields, and valid_until from the terms period", async () => {
    const claim = await ownedClaim();
    const offer = await createOffer(claim.session, claim.claimId, claim.domain, { terms_period_days: 10 });
    const company = await postAcceptance(claim.key, newIdempotencyKey(), {
      event_type: "pilot_company",
      provider_acceptance_reference: "board-minutes/2026-11",
    });
    expect(company.status).toBe(201);
    const companyBody = (await company.json()) as { acceptance: Record<string, unknown> };
    expect(Object.keys(companyBody).sort()).toEqual(
      ["acceptance", "created", "idempotent_replay", "evidence_scope", ...Object.keys(CONSTANTS)].sort(),
    );
    expect(companyBody).toMatchObject({ created: true, idempotent_replay: false, ...CONSTANTS });
    expect(Object.keys(companyBody.acceptance).sort()).toEqual(
      [
        "id",
        "provider_claim_id",
        "provider_api_key_id",
        "event_type",
        "provider_acceptance_reference",
        "provider_accepted_at",
        "created_at",
      ].sort(),
    );
    expect(typeof companyBody.acceptance.provider_api_key_id).toBe("number");

    const terms = await postAcceptance(claim.key, newIdempotencyKey(), termsAcceptance(offer));
    expect(terms.status).toBe(201);
    const termsBody = (await terms.json()) as { acceptance: Record<string, string> };
    expect(termsBody.acceptance).toMatchObject({
      event_type: "terms_acceptance",
      provider_offer_id: offer.id,
      offer_version: 1,
      terms_contract_version: "svc-provider-commercial-terms-v1",
      exact_terms_sha256: offer.commercial_terms_sha256,
    });
    const period =
      Date.parse(termsBody.acceptance.valid_until!) - Date.parse(termsBody.acceptance.provider_accepted_at!);
    expect(period).toBe(10 * 86_400_000);

    const renewal = await postAcceptance(claim.key, newIdempotencyKey(), {
      ...termsAcceptance(offer),
      event_type: "terms_renewal",
      related_acceptance_event_id: termsBody.acceptance.id,
    });
    expect(renewal.status).toBe(201);
    expect(await renewal.json()).toMatchObject({
      acceptance: { event_type: "terms_renewal", related_acceptance_event_id: termsBody.acceptance.id },
    });
  });

  it("replays the same key and body (200, idempotent_replay) and refuses the same key with another body (409)", async () => {
    const claim = await ownedClaim();
    const offer = await createOffer(claim.session, claim.claimId, claim.domain);
    const key = newIdempotencyKey();
    const body = termsAcceptance(offer);
    const first = (await (await postAcceptance(claim.key, key, body)).json()) as { acceptance: unknown };
    const replay = await postAcceptance(claim.key, key, { ...body });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({
      acceptance: first.acceptance,
      created: false,
      idempotent_replay: true,
    });
    await expectProblem(
      await postAcceptance(claim.key, key, { ...body, provider_acceptance_reference: "another-reference" }),
      409,
      "IDEMPOTENCY_KEY_REUSED",
    );
    // The key is scoped to the claim: another claim may use the same key.
    const other = await ownedClaim();
    const otherOffer = await createOffer(other.session, other.claimId, other.domain);
    expect((await postAcceptance(other.key, key, termsAcceptance(otherOffer))).status).toBe(201);
  });

  it("refuses bad Idempotency-Keys, shapes, references and unknown or inappropriate fields (400), writing nothing", async () => {
    const claim = await ownedClaim();
    const offer = await createOffer(claim.session, claim.claimId, claim.domain);
    const good = termsAcceptance(offer);
    for (const key of [undefined, "short", "x".repeat(129), "-starts-with-dash", "has space inside"]) {
      await expectProblem(await postAcceptance(claim.key, key, good), 400, "INVALID_IDEMPOTENCY_KEY");
    }
    const bodies: unknown[] = [
      {},
      { ...good, event_type: "other" },
      { ...good, extra: true },
      { ...good, provider_acceptance_reference: "short" },
      { ...good, provider_acceptance_reference: "-bad-start-reference" },
      { ...good, exact_terms_sha256: good.exact_terms_sha256.toUpperCase() },
      { ...good, offer_version: 0 },
      { ...good, offer_id: "nope" },
      { event_type: "pilot_company", provider_acceptance_reference: "ref-12345678", offer_id: offer.id },
      { ...good, related_acceptance_event_id: crypto.randomUUID() },
      { ...good, event_type: "terms_renewal" },
    ];
    for (const body of bodies) {
      const response = await postAcceptance(claim.key, newIdempotencyKey(), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      await response.body?.cancel();
    }
    const invalidJson = await postAcceptance(claim.key, newIdempotencyKey(), undefined);
    expect(invalidJson.status).toBe(400);
    await invalidJson.body?.cancel();
    expect(
      await sqlRows("select id from commercial_acceptance_events where provider_claim_id = $1", [claim.claimId]),
    ).toEqual([]);
  });

  it("refuses a version or hash that is not current, another claim's offer, a paused offer and a broken renewal chain (409)", async () => {
    const claim = await ownedClaim();
    const offer = await createOffer(claim.session, claim.claimId, claim.domain);
    const accepted = await acceptTerms(claim.key, offer);
    const conflict = async (body: unknown, code: ProblemCode) =>
      expectProblem(await postAcceptance(claim.key, newIdempotencyKey(), body), 409, code);
    await conflict({ ...termsAcceptance(offer), offer_version: 2 }, "OFFER_MISMATCH");
    await conflict({ ...termsAcceptance(offer), exact_terms_sha256: "0".repeat(64) }, "OFFER_MISMATCH");
    await conflict({ ...termsAcceptance(offer), offer_id: crypto.randomUUID() }, "OFFER_MISMATCH");
    const other = await ownedClaim();
    const otherOffer = await createOffer(other.session, other.claimId, other.domain);
    await conflict(termsAcceptance(otherOffer), "OFFER_MISMATCH");

    const renewalOf = (related: string, target: OfferBody) => ({
      ...termsAcceptance(target),
      event_type: "terms_renewal",
      related_acceptance_event_id: related,
    });
    await conflict(renewalOf(crypto.randomUUID(), offer), "RENEWAL_CHAIN_INVALID");
    const company = await postAcceptance(claim.key, newIdempotencyKey(), {
      event_type: "pilot_company",
      provider_acceptance_reference: "company-ref-1",
    });
    const companyId = ((await company.json()) as { acceptance: { id: string } }).acceptance.id;
    await conflict(renewalOf(companyId, offer), "RENEWAL_CHAIN_INVALID");
    // After the terms change, the earlier acceptance is of other terms: no chain.
    const changed = (await (
      await sessionClient(claim.session.token)(
        `/api/v1/provider/offers/${offer.id}`,
        put(offerBody(undefined, claim.domain, { bounty_cents: 999 })),
      )
    ).json()) as OfferBody;
    await conflict(renewalOf(accepted, changed), "RENEWAL_CHAIN_INVALID");
    await conflict(termsAcceptance(offer), "OFFER_MISMATCH");

    const active = await activeOffer(claim);
    await sessionClient(claim.session.token)(`/api/v1/provider/offers/${active.id}/pause`, { method: "POST" });
    await conflict(termsAcceptance(active), "OFFER_MISMATCH");
  });

  it("answers a stale claim's key with 409 CLAIM_NOT_FRESH", async () => {
    const stale = await insertVerifiedClaim({ lastSucceededSecondsAgo: 604_800 });
    await expectProblem(
      await postAcceptance(stale.key, newIdempotencyKey(), {
        event_type: "pilot_company",
        provider_acceptance_reference: "ref-12345678",
      }),
      409,
      "CLAIM_NOT_FRESH",
    );
  });

  it("keeps acceptances, verifications and operator acts append-only in the database", async () => {
    const claim = await ownedClaim();
    const offer = await createOffer(claim.session, claim.claimId, claim.domain);
    const acceptanceId = await acceptTerms(claim.key, offer);
    await operatorVerify(acceptanceId);
    for (const statement of [
      "update commercial_acceptance_events set provider_acceptance_reference = 'changed-reference' where id = $1",
      "delete from commercial_acceptance_events where id = $1",
      "update acceptance_owner_verifications set verified_by = 'someone' where acceptance_id = $1",
      "delete from acceptance_owner_verifications where acceptance_id = $1",
      "delete from operator_acts where subject_id = $1",
    ]) {
      await expect(sqlRows(statement, [acceptanceId]), statement).rejects.toThrow(/append-only/);
    }
    await expect(sqlRows("delete from provider_offer_versions where offer_id = $1", [offer.id])).rejects.toThrow(
      /append-only/,
    );
  });
});

describe("operator acts", () => {
  it("verify once, activate only the exact current terms, and record who did it", async () => {
    const claim = await ownedClaim();
    const offer = await createOffer(claim.session, claim.claimId, claim.domain);
    await expect(operatorActivate(offer.id)).rejects.toThrow(/no owner-verified/);
    const acceptanceId = await acceptTerms(claim.key, offer);
    await expect(operatorActivate(offer.id)).rejects.toThrow(/no owner-verified/);
    const verified = await operatorVerify(acceptanceId);
    expect(verified).toMatchObject({ acceptance_id: acceptanceId, verified_by: "test-operator" });
    await expect(operatorVerify(acceptanceId)).rejects.toThrow(/already verified by test-operator/);
    await expect(operatorVerify(crypto.randomUUID())).rejects.toThrow(/No acceptance/);

    // Terms changed after the verified acceptance: it no longer counts.
    const client = sessionClient(claim.session.token);
    await client(
      `/api/v1/provider/offers/${offer.id}`,
      put(offerBody(undefined, claim.domain, { bounty_cents: 2600 })),
    );
    await expect(operatorActivate(offer.id)).rejects.toThrow(/no owner-verified/);
    const current = (await (await client(`/api/v1/provider/offers/${offer.id}`)).json()) as OfferBody;
    await operatorVerify(await acceptTerms(claim.key, current));
    const activated = await operatorActivate(offer.id);
    expect(activated).toMatchObject({
      offer_id: offer.id,
      status: "active",
      version: 2,
      activated_by: "test-operator",
    });
    const acts = await sqlRows<{ act: string; operator: string }>(
      "select act, operator from operator_acts where subject_id in ($1, $2) order by id",
      [offer.id, acceptanceId],
    );
    expect(acts).toEqual([
      { act: "owner_verify_acceptance", operator: "test-operator" },
      { act: "activate_offer", operator: "test-operator" },
    ]);
    await expect(operatorActivate(offer.id)).rejects.toThrow(/not a draft/);
  });

  it("refuses uncapped terms and a claim that is no longer fresh", async () => {
    const claim = await ownedClaim();
    const uncapped = await createOffer(claim.session, claim.claimId, claim.domain, {
      terms_credit_limit_cents: undefined,
    });
    await operatorVerify(await acceptTerms(claim.key, uncapped));
    await expect(operatorActivate(uncapped.id)).rejects.toThrow(/not capped/);
    const capped = await createOffer(claim.session, claim.claimId, claim.domain);
    await operatorVerify(await acceptTerms(claim.key, capped));
    await sqlRows(
      "update provider_claims set verification_last_succeeded_at = now() - interval '8 days' where id = $1",
      [claim.claimId],
    );
    await expect(operatorActivate(capped.id)).rejects.toThrow(/not verified and fresh/);
  });
});

describe("shared security cases", () => {
  async function sessionsOf(accountId?: string) {
    const valid = await insertSession(accountId ? { accountId } : {});
    const revoked = await insertSession({ accountId: valid.accountId, ended: true });
    const stale = await insertSession({ accountId: valid.accountId, expiresInSeconds: -60 });
    return { valid, revoked, stale };
  }
  const client = asClient();
  let ownOfferId = "";
  let ownClaim = { claimId: "", domain: "" };

  async function setupOwnOffer(status: "draft" | "active") {
    const claim = await ownedClaim();
    const { revoked, stale } = await sessionsOf(claim.accountId);
    ownClaim = claim;
    ownOfferId = (
      status === "active" ? await activeOffer(claim) : await createOffer(claim.session, claim.claimId, claim.domain)
    ).id;
    const other = await ownedClaim();
    await createOffer(other.session, other.claimId, other.domain);
    return { valid: claim.session.token, revoked: revoked.token, stale: stale.token, otherOwner: other.session.token };
  }

  runSecurityCases(
    {
      name: "GET /api/v1/provider/offers",
      scheme: "session",
      mutation: false,
      okStatus: 200,
      staleStatus: 401,
      setup: () => setupOwnOffer("draft"),
      send: (headers) => client("/api/v1/provider/offers", { headers }),
      async expectOtherOwner(response) {
        expect(response.status).toBe(200);
        const { offers } = (await response.json()) as { offers: { id: string }[] };
        expect(offers).toHaveLength(1);
        expect(offers.map((offer) => offer.id)).not.toContain(ownOfferId);
      },
    },
    { ownOrigin: OWN_ORIGIN },
  );

  runSecurityCases(
    {
      name: "POST /api/v1/provider/offers",
      scheme: "session",
      mutation: true,
      okStatus: 201,
      staleStatus: 401,
      setup: () => setupOwnOffer("draft"),
      send: (headers) => {
        headers.set("Content-Type", "application/json");
        return client("/api/v1/provider/offers", {
          method: "POST",
          headers,
          body: JSON.stringify(offerBody(ownClaim.claimId, ownClaim.domain)),
        });
      },
    },
    { ownOrigin: OWN_ORIGIN },
  );

  runSecurityCases(
    {
      name: "GET /api/v1/provider/offers/{offer_id}",
      scheme: "session",
      mutation: false,
      okStatus: 200,
      staleStatus: 401,
      setup: () => setupOwnOffer("draft"),
      send: (headers) => client(`/api/v1/provider/offers/${ownOfferId}`, { headers }),
    },
    { ownOrigin: OWN_ORIGIN },
  );

  runSecurityCases(
    {
      name: "PUT /api/v1/provider/offers/{offer_id}",
      scheme: "session",
      mutation: true,
      okStatus: 200,
      staleStatus: 401,
      setup: () => setupOwnOffer("draft"),
      send: (headers) => {
        headers.set("Content-Type", "application/json");
        return client(`/api/v1/provider/offers/${ownOfferId}`, {
          method: "PUT",
          headers,
          body: JSON.stringify(offerBody(undefined, ownClaim.domain)),
        });
      },
    },
    { ownOrigin: OWN_ORIGIN },
  );

  runSecurityCases(
    {
      name: "POST /api/v1/provider/offers/{offer_id}/pause",
      scheme: "session",
      mutation: true,
      okStatus: 200,
      staleStatus: 401,
      setup: () => setupOwnOffer("active"),
      send: (headers) => client(`/api/v1/provider/offers/${ownOfferId}/pause`, { method: "POST", headers }),
    },
    { ownOrigin: OWN_ORIGIN },
  );

  runSecurityCases(
    {
      name: "POST /api/v1/provider/commercial-acceptances",
      scheme: "provider_key",
      mutation: true,
      okStatus: 201,
      staleStatus: 409,
      async setup() {
        const own = await insertVerifiedClaim();
        const ownSession = await insertSession({ accountId: own.accountId });
        const rotated = await sessionClient(ownSession.token)(`/api/v1/provider/claims/${own.claimId}/keys/rotate`, {
          method: "POST",
        });
        const { provider_key: valid } = (await rotated.json()) as { provider_key: string };
        const offer = await createOffer(ownSession, own.claimId, own.domain);
        ownOfferId = offer.id;
        ownTerms = termsAcceptance(offer);
        const other = await insertVerifiedClaim();
        const stale = await insertVerifiedClaim({ lastSucceededSecondsAgo: 604_800 });
        return { valid, revoked: own.key, otherOwner: other.key, stale: stale.key };
      },
      send: (headers) => {
        headers.set("Content-Type", "application/json");
        headers.set("Idempotency-Key", newIdempotencyKey());
        return client("/api/v1/provider/commercial-acceptances", {
          method: "POST",
          headers,
          body: JSON.stringify(ownTerms),
        });
      },
      // Another claim's key cannot see this claim's offer: the same 409 as an unknown offer.
      async expectOtherOwner(response) {
        await expectProblem(response, 409, "OFFER_MISMATCH");
      },
    },
    { ownOrigin: OWN_ORIGIN },
  );
  let ownTerms: unknown = {};
});
