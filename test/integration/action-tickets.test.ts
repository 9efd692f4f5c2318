/**
 * The agent-to-provider path end to end, as an agent and a provider's server call it: a search
 * that disclosed an offer, the ticket, the handoff, the controlled-intent resolve, outcomes with
 * their charge ledger, signed receipts and their public verification; every status code of each
 * endpoint, and the shared security cases of the provider-key routes.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { requestFingerprint } from "../../src/domain/tickets/ticket-context.ts";
import { createGroups } from "../../src/routes/groups.ts";
import { ageLastSuccess, keyClient, OWN_ORIGIN, sessionClient, verifiedClaimThroughApi } from "../support/accounts.ts";
import { runSecurityCases } from "../support/security-cases.ts";
import { sqlRows } from "../support/sites.ts";
import {
  activeOfferOfNewClaim,
  handedOffTicket,
  handoffRequest,
  postHandoff,
  postOutcome,
  postResolve,
  postTicket,
  postVerify,
  searchDisclosing,
  testSigning,
  ticketOk,
  ticketRequest,
} from "../support/tickets.ts";
import { asClient, awayFromWindowEdge, expectInvalid, expectProblem, newClientIp } from "../support/worker.ts";

const SHA256 = /^[0-9a-f]{64}$/;
const BEARER = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;

interface OutcomeBody {
  receipt_id: string;
  signed_receipt: string;
  signature: string;
  key_id: string;
  receipt: Record<string, unknown>;
  idempotent_replay: boolean;
}

const ledgerOf = (ticketId: string) =>
  sqlRows<{ entry_type: string; amount_cents: string }>(
    "select entry_type, amount_cents::text from exchange_charge_ledger where ticket_id = $1 order by created_at",
    [ticketId],
  );

/** A ticket row written by SQL whose authorization already ended (the bindings cannot be changed later). */
async function insertExpiredTicket(
  searchId: string,
  offer: { id: string; version: number; commercial_terms_sha256: string },
  claim: { claimId: string; domain: string },
  status = "created",
) {
  const body = ticketRequest(searchId, offer.id);
  const [row] = await sqlRows<{ id: string; created_at: string; expires_at: string }>(
    `with t as (
       insert into action_tickets (search_id, claim_id, offer_id, offer_version, commercial_terms_sha256, domain,
         charge_event, bounty_cents, contract_version, consent_version, request_sha256, status, created_at, expires_at)
       values ($1, $2, $3, $4, $5, $6, 'converted', 2500, 'svc-action-ticket-preparation-v2', 'principal-consent v1',
         $7, $8, now() - interval '2 hours', now() - interval '1 hour')
       returning id, created_at, expires_at
     ), i as (
       insert into action_ticket_intents (ticket_id, intent_topic, created_at, expires_at)
       select id, 'developer-tools', created_at, created_at + interval '30 days' from t
     )
     select id, created_at::text, expires_at::text from t`,
    [
      searchId,
      claim.claimId,
      offer.id,
      offer.version,
      offer.commercial_terms_sha256,
      claim.domain,
      await requestFingerprint(body),
      status,
    ],
  );
  const bearer = await testSigning().signing.signBearer({
    ticketId: row!.id,
    offerId: offer.id,
    offerVersion: offer.version,
    termsSha256: offer.commercial_terms_sha256,
    issuedAt: Math.floor(new Date(row!.created_at).getTime() / 1000),
    expiresAt: Math.floor(new Date(row!.expires_at).getTime() / 1000),
  });
  return { body, ticketId: row!.id, bearer };
}

describe("the whole path: search → offer disclosed → ticket → handoff → resolve → outcomes → verify", () => {
  it("runs end to end, charges the bounty once on the charge event, and credits it on invalid", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    expect(search.paid_offers.map((disclosed) => disclosed.offer_id)).toEqual([offer.id]);

    // The ticket: 201, then the exact replay 200 with the same bearer rebuilt from the snapshot.
    const request = ticketRequest(search.search_id, offer.id);
    const first = await postTicket(request);
    expect(first.status, await first.clone().text()).toBe(201);
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    const ticket = (await first.json()) as Record<string, unknown> & { ticket_id: string; attribution_bearer: string };
    expect(ticket).toMatchObject({
      contract_version: "svc-action-ticket-preparation-v2",
      ticket_status: "created",
      search_id: search.search_id,
      offer_id: offer.id,
      offer_version: offer.version,
      commercial_terms_sha256: offer.commercial_terms_sha256,
      provider_domain: claim.domain,
      charge_event: "converted",
      bounty_cents: 2500,
      consent_version: "principal-consent v1",
      controlled_intent: {
        topic: "developer-tools",
        region_code: "DE",
        budget_band: "usd_100_499",
        urgency: "this_week",
        requirement_flags: ["api_access"],
      },
      handoff_endpoint: "http://svc.test/api/v1/action-tickets/handoff",
      handoff_method: "POST",
      principal_charged: false,
      provider_charged: false,
      idempotent_replay: false,
    });
    expect(ticket.attribution_bearer).toMatch(BEARER);
    // Never the provider's action URL before the handoff.
    expect(JSON.stringify(ticket)).not.toContain("/demo");
    const replay = await postTicket({ ...request, controlled_intent: { ...request.controlled_intent } });
    expect(replay.status).toBe(200);
    const replayed = (await replay.json()) as typeof ticket;
    expect(replayed.attribution_bearer).toBe(ticket.attribution_bearer);
    expect(replayed.idempotent_replay).toBe(true);

    // The handoff: one receipt, the attributed URL carrying the bearer; its exact replay 200.
    const handoffBody = handoffRequest(ticket);
    const handoff = await postHandoff(handoffBody);
    expect(handoff.status, await handoff.clone().text()).toBe(201);
    expect(handoff.headers.get("cache-control")).toBe("private, no-store");
    const handed = (await handoff.json()) as Record<string, unknown> & { provider_action_url: string };
    expect(handed).toMatchObject({
      contract_version: "svc-action-handoff-v1",
      ticket_id: ticket.ticket_id,
      ticket_status: "redirected",
      offer_version: offer.version,
      commercial_terms_sha256: offer.commercial_terms_sha256,
      handoff_consent_version: "svc-provider-handoff-consent-v1",
      controlled_intent_disclosure_consent_version: "svc-provider-controlled-intent-disclosure-consent-v1",
      controlled_intent_disclosed: true,
      idempotent_replay: false,
    });
    const url = new URL(handed.provider_action_url);
    expect(`${url.origin}${url.pathname}`).toBe(`https://www.${claim.domain}/demo`);
    expect(url.searchParams.get("svc_attribution_token")).toBe(ticket.attribution_bearer);
    const handoffReplay = await postHandoff(handoffBody);
    expect(handoffReplay.status).toBe(200);
    expect(((await handoffReplay.json()) as typeof handed).handoff_receipt_id).toBe(handed.handoff_receipt_id);
    const [receiptRow] = await sqlRows("select * from action_handoff_receipts where ticket_id = $1", [
      ticket.ticket_id,
    ]);
    expect(Object.keys(receiptRow!).sort()).toEqual(
      [
        "id",
        "ticket_id",
        "claim_id",
        "offer_id",
        "offer_version",
        "commercial_terms_sha256",
        "contract_version",
        "handoff_consent_version",
        "intent_disclosure_consent_version",
        "observed_at",
      ].sort(),
    );

    // The provider resolves the controlled intent with the bearer from the URL: nothing beyond the list.
    const token = url.searchParams.get("svc_attribution_token") as string;
    const resolved = await postResolve(claim.key, { attribution_token: token });
    expect(resolved.status, await resolved.clone().text()).toBe(200);
    expect(resolved.headers.get("cache-control")).toBe("private, no-store");
    expect(await resolved.json()).toEqual({
      contract_version: "svc-provider-controlled-intent-resolver-v1",
      controlled_intent: ticket.controlled_intent,
      binding: {
        ticket_id: ticket.ticket_id,
        offer_id: offer.id,
        offer_version: offer.version,
        commercial_terms_sha256: offer.commercial_terms_sha256,
        handoff_receipt_id: handed.handoff_receipt_id,
      },
    });

    // accepted: not the charge event, no charge.
    const accepted = await postOutcome(claim.key, { attribution_token: token, outcome: "accepted" });
    expect(accepted.status, await accepted.clone().text()).toBe(201);
    const acceptedBody = (await accepted.json()) as OutcomeBody;
    expect(acceptedBody.receipt).toMatchObject({
      outcome: "accepted",
      previous_status: "redirected",
      ticket_status: "accepted",
      charge_status: "none",
      billed_cents: 0,
      ledger_entry: null,
    });
    expect(await ledgerOf(ticket.ticket_id)).toEqual([]);

    // converted: the charge event, charged once; its replay answers the same receipt.
    const key = `conv-${crypto.randomUUID()}`;
    const converted = await postOutcome(
      claim.key,
      { attribution_token: token, outcome: "converted", ticket_id: ticket.ticket_id },
      key,
    );
    expect(converted.status, await converted.clone().text()).toBe(201);
    const convertedBody = (await converted.json()) as OutcomeBody;
    expect(convertedBody.receipt).toMatchObject({
      receipt_type: "svc-provider-outcome-receipt-v1",
      receipt_id: convertedBody.receipt_id,
      key_id: "rcpt-test-2",
      signature_algorithm: "HMAC-SHA256",
      provider_claim_id: claim.claimId,
      provider_domain: claim.domain,
      ticket_id: ticket.ticket_id,
      offer_id: offer.id,
      offer_version: offer.version,
      handoff_receipt_id: handed.handoff_receipt_id,
      outcome: "converted",
      previous_status: "accepted",
      ticket_status: "converted",
      charge_event: "converted",
      charge_status: "charged",
      billed_cents: 2500,
      ledger_entry: "charge",
      ledger_amount_cents: 2500,
      currency: "usd",
    });
    expect(convertedBody.receipt.commercial_terms_sha256).toMatch(SHA256);
    const convertedReplay = await postOutcome(
      claim.key,
      { attribution_token: token, outcome: "converted", ticket_id: ticket.ticket_id },
      key,
    );
    expect(convertedReplay.status).toBe(200);
    const replayBody = (await convertedReplay.json()) as OutcomeBody;
    expect(replayBody).toEqual({ ...convertedBody, idempotent_replay: true });
    expect(await ledgerOf(ticket.ticket_id)).toEqual([{ entry_type: "charge", amount_cents: "2500" }]);

    // The receipt verifies, publicly, with its ticket's current state.
    const verified = await postVerify({
      signed_receipt: convertedBody.signed_receipt,
      signature: convertedBody.signature,
    });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toMatchObject({
      signature_valid: true,
      within_validity_window: true,
      time_status: "current",
      receipt: convertedBody.receipt,
      current_state_available: true,
      current_state_status: "current",
      current_state: {
        receipt_id: convertedBody.receipt_id,
        ticket_id: ticket.ticket_id,
        ticket_status: "converted",
        charge_status: "charged",
        latest_outcome_receipt_id: convertedBody.receipt_id,
        receipt_is_latest: true,
      },
    });

    // invalid after the charge: a credit; the earlier receipt's current state shows it.
    const invalid = await postOutcome(claim.key, { attribution_token: token, outcome: "invalid" });
    expect(invalid.status).toBe(201);
    const invalidBody = (await invalid.json()) as OutcomeBody;
    expect(invalidBody.receipt).toMatchObject({
      ticket_status: "invalid",
      charge_status: "credited",
      billed_cents: 0,
      ledger_entry: "credit",
      ledger_amount_cents: 2500,
    });
    expect(await ledgerOf(ticket.ticket_id)).toEqual([
      { entry_type: "charge", amount_cents: "2500" },
      { entry_type: "credit", amount_cents: "2500" },
    ]);
    const again = await postVerify({
      signed_receipt: convertedBody.signed_receipt,
      signature: convertedBody.signature,
    });
    expect(await again.json()).toMatchObject({
      signature_valid: true,
      current_state: { ticket_status: "invalid", charge_status: "credited", receipt_is_latest: false },
    });

    // Nothing moves a settled ticket again.
    await expectProblem(
      await postOutcome(claim.key, { attribution_token: token, outcome: "converted" }),
      409,
      "INVALID_TRANSITION",
    );

    // The provider reads its own receipts; GET is safe.
    const read = await keyClient(claim.key)(`/api/v1/provider/receipts/${convertedBody.receipt_id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ ...convertedBody, idempotent_replay: undefined });
  });
});

describe("POST /action-tickets: every status", () => {
  it("400: unknown fields (identity, contact, prompt), a missing attestation, words outside the vocabularies", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    const valid = ticketRequest(search.search_id, offer.id);
    for (const field of ["email", "name", "phone", "prompt", "query", "agent_id", "principal_id", "contact"]) {
      await expectInvalid(await postTicket({ ...valid, [field]: "someone" }), "body", [field]);
    }
    await expectInvalid(
      await postTicket({ ...valid, controlled_intent: { ...valid.controlled_intent, notes: "call me at 555" } }),
      "body",
      ["controlled_intent.notes"],
    );
    await expectInvalid(await postTicket({ ...valid, consent_version: "principal-consent v2" }), "body", [
      "consent_version",
    ]);
    await expectInvalid(await postTicket({ ...valid, caller_attests_principal_consent: false }), "body", [
      "caller_attests_principal_consent",
    ]);
    await expectInvalid(
      await postTicket({
        ...valid,
        controlled_intent: {
          topic: "gardening",
          region_code: "XX",
          budget_band: "lots",
          urgency: "now",
          requirement_flags: ["vip"],
        },
      }),
      "body",
      [
        "controlled_intent.topic",
        "controlled_intent.region_code",
        "controlled_intent.budget_band",
        "controlled_intent.urgency",
        "controlled_intent.requirement_flags.0",
      ],
    );
    const invalidJson = await asClient()("/api/v1/action-tickets", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect(invalidJson.status).toBe(400);
    expect(await sqlRows("select 1 from action_tickets where search_id = $1", [search.search_id])).toEqual([]);
  });

  it("404: an offer not disclosed, an unknown search, a synthetic search (indistinguishable)", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const other = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    const synthetic = await searchDisclosing(claim.domain, { "X-SVC-Synthetic": "true" });
    for (const body of [
      ticketRequest(search.search_id, other.offer.id),
      ticketRequest("AAAAAAAAAAAAAAAAAAAAAA", offer.id),
      ticketRequest(synthetic.search_id, offer.id),
    ]) {
      const problem = await expectProblem(await postTicket(body), 404, "TICKET_SOURCE_UNAVAILABLE");
      expect(problem.detail).toBe(
        "No live, non-synthetic search receipt disclosed this offer beside its organic results.",
      );
    }
  });

  it("409: another ticket of this search and offer, a stale claim, a paused offer, no funded capacity", async () => {
    // Capacity for exactly one open ticket: the second search's ticket finds the limit taken.
    const { claim, offer } = await activeOfferOfNewClaim({ bounty_cents: 2500, terms_credit_limit_cents: 2500 });
    const first = await searchDisclosing(claim.domain);
    await ticketOk(ticketRequest(first.search_id, offer.id));
    const conflict = await expectProblem(
      await postTicket(ticketRequest(first.search_id, offer.id, { urgency: "exploring" })),
      409,
      "TICKET_CONFLICT",
    );
    expect(conflict).toMatchObject({ principal_charged: false, provider_charged: false });
    const second = await searchDisclosing(claim.domain);
    await expectProblem(
      await postTicket(ticketRequest(second.search_id, offer.id)),
      409,
      "FUNDED_CAPACITY_UNAVAILABLE",
    );

    const stale = await activeOfferOfNewClaim();
    const staleSearch = await searchDisclosing(stale.claim.domain);
    await ageLastSuccess(stale.claim.claimId, 604_800);
    await expectProblem(
      await postTicket(ticketRequest(staleSearch.search_id, stale.offer.id)),
      409,
      "PROVIDER_CLAIM_UNAVAILABLE",
    );

    const paused = await activeOfferOfNewClaim();
    const pausedSearch = await searchDisclosing(paused.claim.domain);
    const pause = await sessionClient(paused.claim.session.token)(`/api/v1/provider/offers/${paused.offer.id}/pause`, {
      method: "POST",
    });
    expect(pause.status).toBe(200);
    await expectProblem(
      await postTicket(ticketRequest(pausedSearch.search_id, paused.offer.id)),
      409,
      "AUTHORIZATION_UNAVAILABLE",
    );
  });

  it("410: the replay of a ticket whose authorization expired", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    const expired = await insertExpiredTicket(search.search_id, offer, claim);
    await expectProblem(await postTicket(expired.body), 410, "TICKET_AUTHORIZATION_EXPIRED");
  });

  it("503 when signing is not configured (and /healthz says so), while the rest works", async () => {
    const app = createApp(createGroups());
    const unsigned = (path: string, init: RequestInit = {}) =>
      app.fetch(new Request(`http://svc.test${path}`, init), {
        ...(env as Record<string, unknown>),
        ATTRIBUTION_SIGNING_KEYS: "",
        RECEIPT_SIGNING_KEYS: "",
      });
    const post = (path: string, body: unknown) =>
      unsigned(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    await expectProblem(
      await post("/api/v1/action-tickets", ticketRequest(search.search_id, offer.id)),
      503,
      "SIGNING_UNAVAILABLE",
    );
    await expectProblem(
      await post("/api/v1/action-tickets/handoff", {
        ticket_id: crypto.randomUUID(),
        attribution_bearer: "a.b.c",
        handoff_consent_version: "svc-provider-handoff-consent-v1",
      }),
      503,
      "SIGNING_UNAVAILABLE",
    );
    await expectProblem(
      await post("/api/v1/action-receipts/verify", { signed_receipt: "{}", signature: "x" }),
      503,
      "SIGNING_UNAVAILABLE",
    );
    const resolve = await unsigned("/api/v1/provider/action-tickets/resolve", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-SVC-Provider-Key": claim.key },
      body: JSON.stringify({ attribution_token: "a.b.c" }),
    });
    await expectProblem(resolve, 503, "SIGNING_UNAVAILABLE");
    const outcome = await unsigned("/api/v1/provider/outcomes", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-SVC-Provider-Key": claim.key, "Idempotency-Key": "unsigned-1" },
      body: JSON.stringify({ attribution_token: "a.b.c", outcome: "accepted" }),
    });
    await expectProblem(outcome, 503, "SIGNING_UNAVAILABLE");
    expect(await sqlRows("select 1 from action_tickets where search_id = $1", [search.search_id])).toEqual([]);
    const health = (await (await unsigned("/healthz")).json()) as { capabilities: Record<string, string> };
    expect(health.capabilities.signing).toBe("not_configured");
    const signed = (await (await asClient()("/healthz")).json()) as { capabilities: Record<string, string> };
    expect(signed.capabilities.signing).toBe("configured");
    expect((await unsigned(`/api/v1/search?q=${claim.domain}`)).status).toBe(200);
  });
});

describe("abuse limits", () => {
  it("429 after 60 ticket requests an hour from one client, counted once the body is valid", async () => {
    await awayFromWindowEdge(3600, 60);
    const ip = newClientIp();
    const body = ticketRequest("AAAAAAAAAAAAAAAAAAAAAA", crypto.randomUUID());
    // Invalid bodies spend nothing.
    await expectInvalid(await postTicket({ ...body, email: "x@example.com" }, ip), "body", ["email"]);
    for (let i = 0; i < 60; i++) expect((await postTicket(body, ip)).status).toBe(404);
    const limited = await postTicket(body, ip);
    await expectProblem(limited, 429, "RATE_LIMITED");
    expect(limited.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("POST /action-tickets/handoff: every status", () => {
  it("400: a missing consent, an empty bearer, a bad ticket id, an unknown field", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const ticket = await ticketOk(ticketRequest((await searchDisclosing(claim.domain)).search_id, offer.id));
    const valid = handoffRequest(ticket);
    await expectInvalid(await postHandoff({ ...valid, handoff_consent_version: undefined }), "body", [
      "handoff_consent_version",
    ]);
    await expectInvalid(await postHandoff({ ...valid, attribution_bearer: "" }), "body", ["attribution_bearer"]);
    await expectInvalid(await postHandoff({ ...valid, ticket_id: "nope" }), "body", ["ticket_id"]);
    await expectInvalid(await postHandoff({ ...valid, referrer: "https://a.example" }), "body", ["referrer"]);
    const response = await postHandoff(valid);
    expect(response.status).toBe(201);
  });

  it("404: a forged bearer, or another ticket's id", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    const ticket = await ticketOk(ticketRequest(search.search_id, offer.id));
    const [head, payload] = ticket.attribution_bearer.split(".");
    await expectProblem(
      await postHandoff(handoffRequest({ ...ticket, attribution_bearer: `${head}.${payload}.${"A".repeat(43)}` })),
      404,
      "TICKET_NOT_FOUND",
    );
    await expectProblem(
      await postHandoff(handoffRequest({ ...ticket, ticket_id: crypto.randomUUID() })),
      404,
      "TICKET_NOT_FOUND",
    );
  });

  it("409: a replay with another disclosure consent, a revoked claim's ticket, a settled ticket", async () => {
    const { claim, ticket } = await handedOffTicket({ disclose: false });
    await expectProblem(await postHandoff(handoffRequest(ticket, true)), 409, "HANDOFF_CONFLICT");
    expect((await postHandoff(handoffRequest(ticket, false))).status).toBe(200);

    // Revoking the claim revokes its outstanding tickets in the same statement.
    const revoked = await activeOfferOfNewClaim();
    const revokedTicket = await ticketOk(
      ticketRequest((await searchDisclosing(revoked.claim.domain)).search_id, revoked.offer.id),
    );
    const revoke = await sessionClient(revoked.claim.session.token)(
      `/api/v1/provider/claims/${revoked.claim.claimId}/revoke`,
      {
        method: "POST",
      },
    );
    expect(revoke.status).toBe(200);
    expect(await sqlRows("select status from action_tickets where id = $1", [revokedTicket.ticket_id])).toEqual([
      { status: "revoked" },
    ]);
    await expectProblem(await postHandoff(handoffRequest(revokedTicket)), 409, "AUTHORIZATION_REVOKED");

    // A settled ticket is never handed off again; its replay still answers the one receipt.
    const rejected = await postOutcome(claim.key, {
      attribution_token: ticket.attribution_bearer,
      outcome: "rejected",
    });
    expect(rejected.status).toBe(201);
    expect((await postHandoff(handoffRequest(ticket, false))).status).toBe(200);
  });

  it("410: an expired attribution", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    const expired = await insertExpiredTicket(search.search_id, offer, claim);
    await expectProblem(
      await postHandoff(handoffRequest({ ticket_id: expired.ticketId, attribution_bearer: expired.bearer })),
      410,
      "ATTRIBUTION_EXPIRED",
    );
  });
});

describe("POST /provider/action-tickets/resolve: every status", () => {
  it("404 without the disclosure consent or for another claim, 400 for a bad bearer, 410 once expired", async () => {
    const declined = await handedOffTicket({ disclose: false });
    await expectProblem(
      await postResolve(declined.claim.key, { attribution_token: declined.ticket.attribution_bearer }),
      404,
      "CONTROLLED_INTENT_UNAVAILABLE",
    );
    const consented = await handedOffTicket();
    await expectProblem(
      await postResolve(declined.claim.key, { attribution_token: consented.ticket.attribution_bearer }),
      404,
      "CONTROLLED_INTENT_UNAVAILABLE",
    );
    expect(
      (await postResolve(consented.claim.key, { attribution_token: consented.ticket.attribution_bearer })).status,
    ).toBe(200);
    for (const token of ["", "not-a-jws", `${consented.ticket.attribution_bearer}x`]) {
      const response = await postResolve(consented.claim.key, { attribution_token: token });
      expect(response.status).toBe(400);
    }
    await expectInvalid(
      await postResolve(consented.claim.key, {
        attribution_token: consented.ticket.attribution_bearer,
        ticket_id: "x",
      }),
      "body",
      ["ticket_id"],
    );
    const search = await searchDisclosing(consented.claim.domain);
    const expired = await insertExpiredTicket(search.search_id, consented.offer, consented.claim, "redirected");
    await expectProblem(
      await postResolve(consented.claim.key, { attribution_token: expired.bearer }),
      410,
      "ATTRIBUTION_EXPIRED",
    );
  });
});

describe("POST /provider/outcomes: every status", () => {
  it("400 for a bad header, body, token or mismatching ticket_id; 409 before a handoff, for a conflicting key, for revoked authorization", async () => {
    const { claim, offer } = await activeOfferOfNewClaim({ charge_event: "accepted" });
    const search = await searchDisclosing(claim.domain);
    const created = await ticketOk(ticketRequest(search.search_id, offer.id));
    const token = created.attribution_bearer;
    await expectProblem(
      await postOutcome(claim.key, { attribution_token: token, outcome: "accepted" }, null),
      400,
      "INVALID_IDEMPOTENCY_KEY",
    );
    await expectProblem(
      await postOutcome(claim.key, { attribution_token: token, outcome: "accepted" }, "short"),
      400,
      "INVALID_IDEMPOTENCY_KEY",
    );
    await expectInvalid(await postOutcome(claim.key, { attribution_token: token, outcome: "won" }), "body", [
      "outcome",
    ]);
    await expectInvalid(
      await postOutcome(claim.key, { attribution_token: token, outcome: "accepted", amount: 5 }),
      "body",
      ["amount"],
    );
    await expectProblem(
      await postOutcome(claim.key, { attribution_token: "a.b.c", outcome: "accepted" }),
      400,
      "INVALID_ATTRIBUTION_TOKEN",
    );
    await expectProblem(
      await postOutcome(claim.key, { attribution_token: token, outcome: "accepted", ticket_id: crypto.randomUUID() }),
      400,
      "TICKET_ID_MISMATCH",
    );
    // No outcome before an observed handoff.
    await expectProblem(
      await postOutcome(claim.key, { attribution_token: token, outcome: "accepted" }),
      409,
      "INVALID_TRANSITION",
    );
    expect((await postHandoff(handoffRequest(created))).status).toBe(201);

    const key = `same-${crypto.randomUUID()}`;
    const accepted = await postOutcome(claim.key, { attribution_token: token, outcome: "accepted" }, key);
    expect(accepted.status).toBe(201);
    expect(((await accepted.json()) as OutcomeBody).receipt).toMatchObject({
      charge_status: "charged",
      billed_cents: 2500,
    });
    await expectProblem(
      await postOutcome(claim.key, { attribution_token: token, outcome: "activated" }, key),
      409,
      "IDEMPOTENCY_CONFLICT",
    );

    // Another claim's key finds no such ticket.
    const other = await verifiedClaimThroughApi();
    await expectProblem(
      await postOutcome(other.key, { attribution_token: token, outcome: "activated" }),
      404,
      "TICKET_NOT_FOUND",
    );

    // A paused offer revokes the authorization of its open tickets: no positive outcome, but the
    // charge may still be credited.
    const pause = await sessionClient(claim.session.token)(`/api/v1/provider/offers/${offer.id}/pause`, {
      method: "POST",
    });
    expect(pause.status).toBe(200);
    await expectProblem(
      await postOutcome(claim.key, { attribution_token: token, outcome: "activated" }),
      409,
      "AUTHORIZATION_REVOKED",
    );
    const credit = await postOutcome(claim.key, { attribution_token: token, outcome: "duplicate" });
    expect(credit.status).toBe(201);
    expect(((await credit.json()) as OutcomeBody).receipt).toMatchObject({
      previous_status: "revoked",
      ticket_status: "duplicate",
      charge_status: "credited",
    });
    expect(await ledgerOf(created.ticket_id)).toEqual([
      { entry_type: "charge", amount_cents: "2500" },
      { entry_type: "credit", amount_cents: "2500" },
    ]);
  });

  it("409 past expiry for a positive outcome, while a credit of the charge still crosses it", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    const expired = await insertExpiredTicket(search.search_id, offer, claim, "redirected");
    await expectProblem(
      await postOutcome(claim.key, { attribution_token: expired.bearer, outcome: "converted" }),
      409,
      "TICKET_EXPIRED",
    );
    await expectProblem(
      await postOutcome(claim.key, { attribution_token: expired.bearer, outcome: "invalid" }),
      409,
      "TICKET_EXPIRED",
    );
    expect(await ledgerOf(expired.ticketId)).toEqual([]);
  });

  it("409 for a stale claim's key; 401 once the claim is revoked", async () => {
    const { claim, ticket } = await handedOffTicket();
    await ageLastSuccess(claim.claimId, 604_800);
    await expectProblem(
      await postOutcome(claim.key, { attribution_token: ticket.attribution_bearer, outcome: "accepted" }),
      409,
      "CLAIM_NOT_FRESH",
    );
  });
});

describe("POST /action-receipts/verify", () => {
  it("tells a tampered receipt, a wrong signature and an unreadable window apart; 400 for what is not a receipt", async () => {
    const { claim, ticket } = await handedOffTicket();
    const response = await postOutcome(claim.key, {
      attribution_token: ticket.attribution_bearer,
      outcome: "rejected",
    });
    const outcome = (await response.json()) as OutcomeBody;
    const tampered = outcome.signed_receipt.replace('"rejected"', '"converted"');
    expect(await (await postVerify({ signed_receipt: tampered, signature: outcome.signature })).json()).toMatchObject({
      signature_valid: false,
      current_state_available: false,
      current_state_status: "not_found",
      current_state: null,
    });
    const wrong = await postVerify({ signed_receipt: outcome.signed_receipt, signature: "A".repeat(43) });
    expect(await wrong.json()).toMatchObject({ signature_valid: false, time_status: "current" });
    // A receipt signed with the ring's older key verifies, with an unreadable window.
    const { signing } = testSigning();
    const receiptKeys = testSigning().receiptKeys;
    const old = receiptKeys.keys[1]!;
    const text = JSON.stringify({
      key_id: old.kid,
      receipt_type: "svc-provider-outcome-receipt-v1",
      valid_from: "x",
      valid_until: "y",
    });
    const macKey = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(old.secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", macKey, new TextEncoder().encode(text)));
    const signature = btoa(String.fromCharCode(...mac))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");
    expect(await signing.verifyReceipt(text, signature, old.kid)).toBe(true);
    expect(await (await postVerify({ signed_receipt: text, signature })).json()).toMatchObject({
      signature_valid: true,
      within_validity_window: false,
      time_status: "invalid_time",
      current_state_status: "not_found",
    });
    await expectProblem(
      await postVerify({ signed_receipt: "[1]", signature: outcome.signature }),
      400,
      "INVALID_SIGNED_RECEIPT",
    );
    await expectInvalid(await postVerify({ signed_receipt: outcome.signed_receipt }), "body", ["signature"]);
    await expectInvalid(await postVerify({ ...outcome, extra: 1 }), "body", [
      "receipt_id",
      "key_id",
      "signature_algorithm",
      "receipt",
      "idempotent_replay",
      "extra",
    ]);
  });
});

runSecurityCases(
  {
    name: "POST /provider/action-tickets/resolve",
    scheme: "provider_key",
    mutation: false,
    okStatus: 200,
    staleStatus: 404,
    async setup() {
      const { claim, ticket } = await handedOffTicket();
      tokens.resolve = ticket.attribution_bearer;
      return securityCredentials(claim);
    },
    send: (headers) => {
      headers.set("Content-Type", "application/json");
      return asClient()("/api/v1/provider/action-tickets/resolve", {
        method: "POST",
        headers,
        body: JSON.stringify({ attribution_token: tokens.resolve }),
      });
    },
  },
  { ownOrigin: OWN_ORIGIN },
);

runSecurityCases(
  {
    name: "POST /provider/outcomes",
    scheme: "provider_key",
    mutation: true,
    okStatus: 201,
    staleStatus: 409,
    async setup() {
      const { claim, ticket } = await handedOffTicket();
      tokens.outcome = ticket.attribution_bearer;
      return securityCredentials(claim);
    },
    send: (headers) => {
      headers.set("Content-Type", "application/json");
      headers.set("Idempotency-Key", `sec-${crypto.randomUUID()}`);
      return asClient()("/api/v1/provider/outcomes", {
        method: "POST",
        headers,
        body: JSON.stringify({ attribution_token: tokens.outcome, outcome: "accepted" }),
      });
    },
  },
  { ownOrigin: OWN_ORIGIN },
);

runSecurityCases(
  {
    name: "GET /provider/receipts/{receipt_id}",
    scheme: "provider_key",
    mutation: false,
    okStatus: 200,
    staleStatus: 404,
    async setup() {
      const { claim, ticket } = await handedOffTicket();
      const response = await postOutcome(claim.key, {
        attribution_token: ticket.attribution_bearer,
        outcome: "accepted",
      });
      tokens.receipt = ((await response.json()) as OutcomeBody).receipt_id;
      return securityCredentials(claim);
    },
    send: (headers) => asClient()(`/api/v1/provider/receipts/${tokens.receipt}`, { headers }),
  },
  { ownOrigin: OWN_ORIGIN },
);

const tokens: Record<string, string> = {};

/**
 * The four keys of the shared cases: the claim's own (valid), a rotated-away one, another
 * verified claim's, and the key of a claim whose last proof is 604800 s old.
 */
async function securityCredentials(claim: { claimId: string; key: string; session: { token: string } }) {
  const rotated = await sessionClient(claim.session.token)(`/api/v1/provider/claims/${claim.claimId}/keys/rotate`, {
    method: "POST",
  });
  const valid = ((await rotated.json()) as { provider_key: string }).provider_key;
  const other = await verifiedClaimThroughApi();
  const stale = await verifiedClaimThroughApi();
  await ageLastSuccess(stale.claimId, 604_800);
  return { valid, revoked: claim.key, otherOwner: other.key, stale: stale.key };
}

describe("GET /provider/pilot-status: recent observed handoffs", () => {
  it("lists handed-off tickets with their latest outcome, never attribution material or intent", async () => {
    const { claim, offer, ticket, handoff } = await handedOffTicket();
    // A ticket that was never handed off stays out.
    await ticketOk(ticketRequest((await searchDisclosing(claim.domain)).search_id, offer.id));
    const before = await keyClient(claim.key)("/api/v1/provider/pilot-status");
    expect(before.status).toBe(200);
    const status = ((await before.json()) as { pilot_status: { recent_observed_handoffs: unknown[] } }).pilot_status;
    expect(status.recent_observed_handoffs).toEqual([
      {
        ticket_id: ticket.ticket_id,
        offer_id: offer.id,
        offer_version: offer.version,
        ticket_status: "redirected",
        handoff_receipt_id: handoff.handoff_receipt_id,
        handoff_observed_at: handoff.observed_at,
      },
    ]);
    const outcome = await postOutcome(claim.key, {
      attribution_token: ticket.attribution_bearer,
      outcome: "converted",
    });
    const receipt = (await outcome.json()) as OutcomeBody;
    const after = await keyClient(claim.key)("/api/v1/provider/pilot-status");
    const text = await after.text();
    expect(JSON.parse(text).pilot_status.recent_observed_handoffs).toEqual([
      {
        ticket_id: ticket.ticket_id,
        offer_id: offer.id,
        offer_version: offer.version,
        ticket_status: "converted",
        handoff_receipt_id: handoff.handoff_receipt_id,
        handoff_observed_at: handoff.observed_at,
        outcome_receipt_id: receipt.receipt_id,
        outcome: "converted",
        charge_status: "charged",
        billed_cents: 2500,
        outcome_recorded_at: receipt.receipt.issued_at,
      },
    ]);
    expect(text).not.toContain(ticket.attribution_bearer);
    expect(text).not.toContain("developer-tools");
  });
});
