/**
 * The tickets part of the pilot status: the claim's tickets past an observed handoff, newest
 * handoff first, with where each stands now (its effective status at the read's own time, so the
 * snapshot's `as_of` and the statuses agree) and its latest outcome receipt. Only the fields of the
 * spec's Pilot recent event: no bearer, intent, search receipt or action URL is read.
 */
import { type SQL, sql } from "drizzle-orm";
import { authorizationLive } from "./ticket-sql.ts";

/** One statement for the pilot status's read-only snapshot; rows fit `pilotRecentEvent`. */
export function observedHandoffsQuery(claimId: string, limit: number): SQL {
  const now = sql`now()`;
  return sql`
    select t.id as ticket_id, t.offer_id, t.offer_version,
      case when t.status in ('created', 'redirected', 'accepted', 'activated') then
        case when not ${authorizationLive("t", now)} then 'revoked'
          when t.expires_at <= now() then 'expired' else t.status end
      else t.status end as ticket_status,
      h.id as handoff_receipt_id, h.observed_at as handoff_observed_at,
      r.id as outcome_receipt_id, r.outcome, r.charge_status, r.billed_cents, r.created_at as outcome_recorded_at
    from action_handoff_receipts h
    join action_tickets t on t.id = h.ticket_id
    left join provider_outcome_receipts r on r.id = t.last_outcome_receipt_id
    where h.claim_id = ${claimId}
    order by h.observed_at desc, h.id
    limit ${limit}`;
}
