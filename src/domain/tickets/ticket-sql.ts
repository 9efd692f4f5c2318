/**
 * The SQL conditions every ticket operation shares, so that reading a ticket's state and writing
 * its next one test the same things: whether its authorization is live (claim verified and
 * fresh, offer active at the ticket's version), and whether the offer's exact current terms carry
 * an owner-verified, unexpired provider acceptance (the commercial evidence).
 */
import { type SQL, sql } from "drizzle-orm";
import { PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS } from "../claims/claim-constants.ts";
import type { ChargeEvent, ChargeStatus, TicketStatus } from "./ticket-machine.ts";

/** An action_tickets row as raw SQL returns it, with its charge position and authorization. */
export interface TicketRow {
  id: string;
  search_id: string;
  claim_id: string;
  offer_id: string;
  offer_version: number | string;
  commercial_terms_sha256: string;
  domain: string;
  charge_event: ChargeEvent;
  bounty_cents: number | string;
  contract_version: string;
  consent_version: string;
  request_sha256: string;
  status: TicketStatus;
  status_changed_at: string | Date;
  last_outcome_receipt_id: string | null;
  revoked_at: string | Date | null;
  created_at: string | Date;
  expires_at: string | Date;
}

/** A ticket's controlled intent (action_ticket_intents), kept 30 days after the ticket's creation. */
export interface TicketIntentRow {
  intent_topic: string;
  intent_region_code: string | null;
  intent_budget_band: string | null;
  intent_urgency: string | null;
  intent_requirement_flags: string[] | string;
}

/**
 * The intent columns of `action_ticket_intents i` for a select list. Joined (left, where a purged
 * intent must not hide the ticket) by `ticket_id`.
 */
export const INTENT_COLUMNS = sql.raw(
  "i.intent_topic, i.intent_region_code, i.intent_budget_band, i.intent_urgency, i.intent_requirement_flags",
);

/** The claim of `claimId` is verified and its last DNS success younger than the paid-action age limit. */
export function claimFresh(claimId: SQL | string, now: string | SQL): SQL {
  return sql`exists (select 1 from provider_claims fc where fc.id = ${claimId} and fc.status = 'verified'
    and fc.verification_last_succeeded_at > ${now}::timestamptz
      - make_interval(secs => ${PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS}))`;
}

/** The offer is active (never revoked) at exactly this version. */
export function offerActive(offerId: SQL | string, offerVersion: SQL | number): SQL {
  return sql`exists (select 1 from provider_offers fo where fo.id = ${offerId} and fo.status = 'active'
    and fo.revoked_at is null and fo.version = ${offerVersion})`;
}

/** A ticket's authorization is live: its claim verified and fresh, its offer active at its version. */
export function authorizationLive(ticket: string, now: string | SQL): SQL {
  const t = sql.raw(ticket);
  return sql`(${claimFresh(sql`${t}.claim_id`, now)} and ${offerActive(sql`${t}.offer_id`, sql`${t}.offer_version`)})`;
}

/**
 * The latest end of an owner-verified provider acceptance of the offer's exact current terms
 * (version and hash) that is still valid at `now`; null when there is none.
 */
export function evidenceValidUntil(offer: string, now: string): SQL {
  const o = sql.raw(offer);
  return sql`(select max(a.valid_until) from commercial_acceptance_events a
    join acceptance_owner_verifications v on v.acceptance_id = a.id
    where a.provider_offer_id = ${o}.id and a.offer_version = ${o}.version
      and a.exact_terms_sha256 = ${o}.commercial_terms_sha256
      and a.event_type in ('terms_acceptance', 'terms_renewal') and a.valid_until > ${now}::timestamptz)`;
}

/** The ticket's charge position from the ledger: none, charged, or credited. */
export function chargeStatusOf(ticket: string): SQL {
  const t = sql.raw(ticket);
  return sql`(select case when bool_or(l.entry_type = 'credit') then 'credited'
      when bool_or(l.entry_type = 'charge') then 'charged' else 'none' end
    from exchange_charge_ledger l where l.ticket_id = ${t}.id)`;
}

export type { ChargeStatus };
