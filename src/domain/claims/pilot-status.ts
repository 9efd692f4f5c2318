/**
 * GET /provider/pilot-status: where the key's claim stands. Offers and observed handoffs join it
 * as the exchange grows; until then both collections are empty. Nothing the interface excludes is
 * read: no credentials, attribution material, receipts, intent, queries, identities or action URLs.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import type { ProviderKeyActor } from "../actor.ts";
import { DomainError } from "../errors.ts";
import { type ClaimRow, isVerifiedAndFresh } from "./claim-record.ts";

export const PILOT_STATUS_EVIDENCE_SCOPE =
  "authenticated_claim_only: this claim's verification state, its offers and their commercial evidence, and handoffs observed for them; provider assertions are not independently audited";

export async function readPilotStatus({ ctx, actor }: { ctx: { db: Database; now: Date }; actor: ProviderKeyActor }) {
  const result = await ctx.db.execute(
    sql`select *, statement_timestamp() as as_of from provider_claims where id = ${actor.claimId}`,
  );
  const row = result.rows[0] as (ClaimRow & { as_of: string | Date }) | undefined;
  // The key passed its check a moment ago; a claim revoked or gone stale since is unavailable.
  if (!row || !isVerifiedAndFresh(row, ctx.now)) {
    throw new DomainError("not_found", "CLAIM_NOT_FRESH", "The claim of this key is no longer verified and fresh.");
  }
  const iso = (value: string | Date) => new Date(value).toISOString();
  return {
    pilot_status: {
      as_of: iso(row.as_of),
      provider_claim_id: row.id,
      domain: row.domain,
      claim_status: "verified" as const,
      verification_last_succeeded_at: iso(row.verification_last_succeeded_at as string | Date),
      verification_consecutive_failures: Number(row.verification_consecutive_failures),
      ...(row.verification_next_check_at ? { verification_next_check_at: iso(row.verification_next_check_at) } : {}),
      company_owner_verified: false,
      // No offers or handoffs exist before the offers and tickets capabilities; the route's `limit` will cap them.
      offers: [] as unknown[],
      recent_observed_handoffs: [] as unknown[],
    },
    evidence_scope: PILOT_STATUS_EVIDENCE_SCOPE,
  };
}
