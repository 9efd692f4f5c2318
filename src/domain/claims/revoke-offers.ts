import { type SQL, sql } from "drizzle-orm";

/**
 * The offers' part of a claim's revocation, as one data-modifying CTE body for the statement that
 * revokes the claim (so no offer outlives its claim): an active offer is paused, and every offer
 * of the claim is marked revoked, which keeps it out of search, activation and updates for good.
 * The statement's other parts are the claim's and its keys' (see revokeClaim, recordCheckFailure).
 */
export function revokeOffersOf(claimIds: SQL, now: string): SQL {
  return sql`update provider_offers set
      status = case when status = 'active' then 'paused' else status end,
      paused_at = case when status = 'active' then ${now}::timestamptz else paused_at end,
      revoked_at = ${now}, updated_at = ${now}
    where claim_id in (${claimIds}) and revoked_at is null
    returning id`;
}
