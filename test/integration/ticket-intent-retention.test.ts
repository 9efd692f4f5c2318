/**
 * A ticket's controlled intent leaves with the retention purge 30 days after the ticket's
 * creation, through the scheduled handler; the ticket, its handoff receipt, outcome receipts and
 * ledger (the money records) stay. The intent is append-only otherwise. The expired chain is
 * inserted by SQL at the age the case needs (nothing can age a row later: it is append-only).
 */
import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { requestFingerprint } from "../../src/domain/tickets/ticket-context.ts";
import type { VerifiedClaim } from "../support/accounts.ts";
import worker from "../support/all-in-one-jobs.ts";
import { sqlRows } from "../support/sites.ts";
import {
  handedOffTicket,
  type OfferBody,
  postResolve,
  searchDisclosing,
  testSigning,
  ticketRequest,
} from "../support/tickets.ts";

const runPurge = async () => {
  await worker.scheduled(
    createScheduledController({ cron: "40 3 * * *", scheduledTime: Date.now() }),
    env,
    createExecutionContext(),
  );
};

/**
 * A converted, charged ticket created 31 days ago, as the API would have left it: its intent
 * (expired a day ago), handoff receipt with disclosure consent, outcome receipt and ledger charge.
 */
async function insertOldChargedTicket(claim: VerifiedClaim, offer: OfferBody) {
  const search = await searchDisclosing(claim.domain);
  const [row] = await sqlRows<{ ticket_id: string; handoff_id: string; outcome_id: string; ledger_id: string }>(
    `with t as (
       insert into action_tickets (search_id, claim_id, offer_id, offer_version, commercial_terms_sha256, domain,
         charge_event, bounty_cents, contract_version, consent_version, request_sha256, status, created_at, expires_at)
       values ($1, $2, $3, $4, $5, $6, 'converted', 2500, 'svc-action-ticket-preparation-v2', 'principal-consent v1',
         $7, 'converted', now() - interval '31 days', now() - interval '24 days')
       returning *
     ), i as (
       insert into action_ticket_intents (ticket_id, intent_topic, intent_region_code, intent_requirement_flags,
         created_at, expires_at)
       select id, 'developer-tools', 'DE', '{api_access}', created_at, created_at + interval '30 days' from t
     ), h as (
       insert into action_handoff_receipts (ticket_id, claim_id, offer_id, offer_version, commercial_terms_sha256,
         contract_version, handoff_consent_version, intent_disclosure_consent_version, observed_at)
       select id, claim_id, offer_id, offer_version, commercial_terms_sha256, 'svc-action-handoff-v1',
         'svc-provider-handoff-consent-v1', 'svc-provider-controlled-intent-disclosure-consent-v1',
         created_at + interval '1 minute'
       from t returning id
     ), o as (
       insert into provider_outcome_receipts (id, claim_id, ticket_id, idempotency_key, request_sha256, outcome,
         previous_status, ticket_status, charge_status, billed_cents, key_id, signed_receipt, signature, created_at)
       select gen_random_uuid(), claim_id, id, 'old-' || id, $7, 'converted', 'redirected', 'converted', 'charged',
         2500, 'test', '{}', repeat('A', 43), created_at + interval '1 day'
       from t returning id, ticket_id, claim_id
     ), l as (
       insert into exchange_charge_ledger (entry_type, ticket_id, claim_id, offer_id, amount_cents, outcome_receipt_id)
       select 'charge', o.ticket_id, o.claim_id, $3, 2500, o.id from o returning id
     )
     select t.id as ticket_id, h.id as handoff_id, o.id as outcome_id, l.id as ledger_id from t, h, o, l`,
    [
      search.search_id,
      claim.claimId,
      offer.id,
      offer.version,
      offer.commercial_terms_sha256,
      claim.domain,
      await requestFingerprint(ticketRequest(search.search_id, offer.id)),
    ],
  );
  return row!;
}

const intentsOf = (ticketIds: string[]) =>
  sqlRows<{ ticket_id: string }>("select ticket_id from action_ticket_intents where ticket_id = any($1)", [ticketIds]);

/** The money records of a ticket, which the purge never touches. */
const moneyRecordsOf = async (ticketId: string) => {
  const [row] = await sqlRows<{ tickets: number; handoffs: number; outcomes: number; ledger: number }>(
    `select (select count(*)::int from action_tickets where id = $1) as tickets,
            (select count(*)::int from action_handoff_receipts where ticket_id = $1) as handoffs,
            (select count(*)::int from provider_outcome_receipts where ticket_id = $1) as outcomes,
            (select count(*)::int from exchange_charge_ledger where ticket_id = $1) as ledger`,
    [ticketId],
  );
  return row;
};

describe("the controlled intent's retention", () => {
  let live: Awaited<ReturnType<typeof handedOffTicket>>;
  let old: Awaited<ReturnType<typeof insertOldChargedTicket>>;
  beforeAll(async () => {
    live = await handedOffTicket();
    old = await insertOldChargedTicket(live.claim, live.offer);
  });

  it("is written with its ticket, 30 days from the ticket's creation", async () => {
    const [row] = await sqlRows<{ intent_topic: string; flags: string; kept: string; same_start: boolean }>(
      `select i.intent_topic, array_to_string(i.intent_requirement_flags, ',') as flags,
              (i.expires_at - t.created_at)::text as kept, i.created_at = t.created_at as same_start
       from action_ticket_intents i join action_tickets t on t.id = i.ticket_id where i.ticket_id = $1`,
      [live.ticket.ticket_id],
    );
    expect(row).toEqual({ intent_topic: "developer-tools", flags: "api_access", kept: "30 days", same_start: true });
  });

  it("is refused every UPDATE, DELETE and TRUNCATE, even once expired", async () => {
    for (const [statement, ticketId] of [
      ["update action_ticket_intents set intent_urgency = 'exploring' where ticket_id = $1", live.ticket.ticket_id],
      [
        "update action_ticket_intents set expires_at = now() - interval '1 day' where ticket_id = $1",
        live.ticket.ticket_id,
      ],
      ["delete from action_ticket_intents where ticket_id = $1", live.ticket.ticket_id],
      ["delete from action_ticket_intents where ticket_id = $1", old.ticket_id],
    ] as const) {
      await expect(sqlRows(statement, [ticketId]), statement).rejects.toThrow(/append-only/);
    }
    await expect(sqlRows("truncate action_ticket_intents cascade")).rejects.toThrow(/append-only/);
    expect(await intentsOf([live.ticket.ticket_id, old.ticket_id])).toHaveLength(2);
  });

  it("leaves through the scheduled purge once expired, and the money records stay", async () => {
    expect(await moneyRecordsOf(old.ticket_id)).toEqual({ tickets: 1, handoffs: 1, outcomes: 1, ledger: 1 });
    await runPurge();

    expect(await intentsOf([live.ticket.ticket_id, old.ticket_id])).toEqual([{ ticket_id: live.ticket.ticket_id }]);
    expect(await moneyRecordsOf(old.ticket_id)).toEqual({ tickets: 1, handoffs: 1, outcomes: 1, ledger: 1 });
    expect(await moneyRecordsOf(live.ticket.ticket_id)).toMatchObject({ tickets: 1, handoffs: 1 });
    const [ticket] = await sqlRows<{ status: string }>("select status from action_tickets where id = $1", [
      old.ticket_id,
    ]);
    expect(ticket?.status).toBe("converted");
  });

  it("answers resolve as for an ineligible ticket once purged (404), and still resolves a live one", async () => {
    await runPurge();
    // A bearer for the purged ticket, signed with the service's own key and not yet expired.
    const now = Math.floor(Date.now() / 1000);
    const bearer = await testSigning().signing.signBearer({
      ticketId: old.ticket_id,
      offerId: live.offer.id,
      offerVersion: live.offer.version,
      termsSha256: live.offer.commercial_terms_sha256,
      issuedAt: now - 60,
      expiresAt: now + 3600,
    });
    const purged = await postResolve(live.claim.key, { attribution_token: bearer });
    expect(purged.status).toBe(404);
    expect(await purged.json()).toMatchObject({ code: "CONTROLLED_INTENT_UNAVAILABLE" });

    const url = new URL(live.handoff.provider_action_url as string);
    const resolved = await postResolve(live.claim.key, {
      attribution_token: url.searchParams.get("svc_attribution_token"),
    });
    expect(resolved.status, await resolved.clone().text()).toBe(200);
    expect(((await resolved.json()) as { controlled_intent: unknown }).controlled_intent).toEqual(
      live.ticket.controlled_intent,
    );
  });
});
