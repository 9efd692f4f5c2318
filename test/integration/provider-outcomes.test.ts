import { describe, expect, it } from "vitest";
import { ageLastSuccess, sessionClient, verifiedClaimThroughApi } from "../support/accounts.ts";
import { insertExpiredTicket, ledgerOf, type OutcomeBody } from "../support/ticket-cases.ts";
import {
  activeOfferOfNewClaim,
  handedOffTicket,
  handoffRequest,
  postHandoff,
  postOutcome,
  searchDisclosing,
  ticketOk,
  ticketRequest,
} from "../support/tickets.ts";
import { expectInvalid, expectProblem } from "../support/worker.ts";

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
