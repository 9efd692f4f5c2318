import { describe, expect, it } from "vitest";
import { keyClient } from "../support/accounts.ts";
import { sqlRows } from "../support/sites.ts";
import { BEARER, ledgerOf, type OutcomeBody, SHA256 } from "../support/ticket-cases.ts";
import {
  activeOfferOfNewClaim,
  handoffRequest,
  postHandoff,
  postOutcome,
  postResolve,
  postTicket,
  postVerify,
  searchDisclosing,
  ticketRequest,
} from "../support/tickets.ts";
import { expectProblem } from "../support/worker.ts";

describe("the whole path: search → offer disclosed → ticket → handoff → resolve → outcomes → verify", () => {
  it("runs end to end, charges the bounty once on the charge event, and credits it on invalid", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    // The domain's words also find other sites (any word matches), whose offers may be disclosed beside.
    expect(search.paid_offers.map((disclosed) => disclosed.offer_id)).toContain(offer.id);

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
