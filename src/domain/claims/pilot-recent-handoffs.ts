/**
 * The pilot status's `recent_observed_handoffs`: tickets of this claim's offers past an observed
 * handoff, newest first. `recentObservedHandoffsQuery` returns the one statement (the tickets
 * part's, src/domain/tickets/recent-handoffs.ts; run inside the pilot status's repeatable-read
 * snapshot) and `pilotRecentEvent` maps
 * its rows: only the fields of the spec's Pilot recent event, never attribution material or
 * controlled intent.
 */
import type { SQL } from "drizzle-orm";
import { observedHandoffsQuery } from "../tickets/recent-handoffs.ts";
import { CHARGE_STATUSES, OUTCOMES, TICKET_STATUSES } from "../tickets/ticket-machine.ts";

export { CHARGE_STATUSES, OUTCOMES, TICKET_STATUSES };

/** A Pilot recent event row as the query returns it (snake case). */
export interface RecentHandoffRow {
  ticket_id: string;
  offer_id: string;
  offer_version: number | string;
  ticket_status: (typeof TICKET_STATUSES)[number];
  handoff_receipt_id: string;
  handoff_observed_at: string | Date;
  outcome_receipt_id?: string | null;
  outcome?: (typeof OUTCOMES)[number] | null;
  charge_status?: (typeof CHARGE_STATUSES)[number] | null;
  billed_cents?: number | string | null;
  outcome_recorded_at?: string | Date | null;
}

/** The statement reading at most `limit` recent observed handoffs of the claim (the tickets part's). */
export function recentObservedHandoffsQuery(claimId: string, limit: number): SQL | undefined {
  return observedHandoffsQuery(claimId, limit);
}

const iso = (value: string | Date) => new Date(value).toISOString();

/** The spec's Pilot recent event from one row; optional members only when present. */
export function pilotRecentEvent(row: RecentHandoffRow) {
  return {
    ticket_id: row.ticket_id,
    offer_id: row.offer_id,
    offer_version: Number(row.offer_version),
    ticket_status: row.ticket_status,
    handoff_receipt_id: row.handoff_receipt_id,
    handoff_observed_at: iso(row.handoff_observed_at),
    ...(row.outcome_receipt_id ? { outcome_receipt_id: row.outcome_receipt_id } : {}),
    ...(row.outcome ? { outcome: row.outcome } : {}),
    ...(row.charge_status ? { charge_status: row.charge_status } : {}),
    ...(row.billed_cents !== null && row.billed_cents !== undefined ? { billed_cents: Number(row.billed_cents) } : {}),
    ...(row.outcome_recorded_at ? { outcome_recorded_at: iso(row.outcome_recorded_at) } : {}),
  };
}
