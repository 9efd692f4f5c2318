import { describe, expect, it } from "vitest";
import { keyClient } from "../support/accounts.ts";
import type { OutcomeBody } from "../support/ticket-cases.ts";
import { handedOffTicket, postOutcome, searchDisclosing, ticketOk, ticketRequest } from "../support/tickets.ts";

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
