import { type SQL, sql } from "drizzle-orm";

/**
 * The tickets' part of a claim's revocation, as one data-modifying CTE body for the statement that
 * revokes the claim (beside its keys' and offers'): every outstanding ticket (created, redirected,
 * accepted or activated) is revoked, so no handoff, resolution, positive outcome or new charge
 * follows. Settled tickets keep their status; a charged one may still be credited.
 */
export function revokeTicketsOf(claimIds: SQL, now: string): SQL {
  return sql`update action_tickets set status = 'revoked', revoked_at = ${now}::timestamptz,
      status_changed_at = ${now}::timestamptz
    where claim_id in (${claimIds}) and status in ('created', 'redirected', 'accepted', 'activated')
    returning id`;
}
