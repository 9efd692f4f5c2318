/**
 * Tickets under concurrency, on the database the run uses (CI: a real Postgres, where requests
 * truly overlap): 100 identical outcomes make one receipt and at most one charge, racing
 * outcomes of one ticket with different keys charge it once, racing handoffs of one ticket make
 * one receipt, and racing tickets never hold more than the offer's credit limit.
 */
import { describe, expect, it } from "vitest";
import { sqlRows } from "../support/sites.ts";
import {
  activeOfferOfNewClaim,
  handedOffTicket,
  handoffRequest,
  postHandoff,
  postOutcome,
  postTicket,
  searchDisclosing,
  ticketOk,
  ticketRequest,
} from "../support/tickets.ts";

const statusesOf = (responses: Response[]) => responses.map((response) => response.status);

describe("racing outcomes", () => {
  // The Redis lock lines the identical requests up, so this takes seconds, not milliseconds.
  it("100 identical outcomes: one receipt, one charge, the rest replays of it", { timeout: 120_000 }, async () => {
    const { claim, ticket } = await handedOffTicket();
    const key = `race-${crypto.randomUUID()}`;
    const body = { attribution_token: ticket.attribution_bearer, outcome: "converted" };
    const responses = await Promise.all(Array.from({ length: 100 }, () => postOutcome(claim.key, body, key)));
    const statuses = statusesOf(responses);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(99);
    const ids = new Set(
      await Promise.all(
        responses.map(async (response) => ((await response.json()) as { receipt_id: string }).receipt_id),
      ),
    );
    expect(ids.size).toBe(1);
    expect(
      await sqlRows("select id from provider_outcome_receipts where ticket_id = $1", [ticket.ticket_id]),
    ).toHaveLength(1);
    expect(
      await sqlRows("select entry_type from exchange_charge_ledger where ticket_id = $1", [ticket.ticket_id]),
    ).toEqual([{ entry_type: "charge" }]);
  });

  it("20 converted outcomes with different keys: one moves the ticket and charges, the others meet an invalid transition", async () => {
    const { claim, ticket } = await handedOffTicket();
    const body = { attribution_token: ticket.attribution_bearer, outcome: "converted" };
    const responses = await Promise.all(Array.from({ length: 20 }, () => postOutcome(claim.key, body)));
    const statuses = statusesOf(responses);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    expect(
      await sqlRows("select entry_type from exchange_charge_ledger where ticket_id = $1", [ticket.ticket_id]),
    ).toEqual([{ entry_type: "charge" }]);
  });
});

describe("racing handoffs of one ticket", () => {
  it("make one receipt: one 201, the rest exact replays", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    const ticket = await ticketOk(ticketRequest(search.search_id, offer.id));
    const responses = await Promise.all(Array.from({ length: 30 }, () => postHandoff(handoffRequest(ticket))));
    const statuses = statusesOf(responses);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(29);
    expect(
      await sqlRows("select id from action_handoff_receipts where ticket_id = $1", [ticket.ticket_id]),
    ).toHaveLength(1);
  });
});

describe("racing tickets of one offer", () => {
  it("hold no more than the credit limit: 3 of 12 searches get a ticket", async () => {
    const { claim, offer } = await activeOfferOfNewClaim({ bounty_cents: 1000, terms_credit_limit_cents: 3000 });
    const searches = await Promise.all(Array.from({ length: 12 }, () => searchDisclosing(claim.domain)));
    const responses = await Promise.all(
      searches.map((search) => postTicket(ticketRequest(search.search_id, offer.id))),
    );
    const statuses = statusesOf(responses);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    expect(await sqlRows("select id from action_tickets where offer_id = $1", [offer.id])).toHaveLength(3);
  });

  it("one ticket per search and offer among identical racers", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => postTicket(ticketRequest(search.search_id, offer.id))),
    );
    const statuses = statusesOf(responses);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(19);
    const bearers = new Set(
      await Promise.all(
        responses.map(
          async (response) => ((await response.json()) as { attribution_bearer: string }).attribution_bearer,
        ),
      ),
    );
    expect(bearers.size).toBe(1);
  });
});
