import { describe, expect, it } from "vitest";
import { sessionClient } from "../support/accounts.ts";
import { sqlRows } from "../support/sites.ts";
import { insertExpiredTicket } from "../support/ticket-cases.ts";
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
