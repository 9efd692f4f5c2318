/**
 * One claim of the signed-in owner as the provider console shows it: the ProviderClaim record,
 * where its ownership proof stands, and the metadata of its active key (never the key or its hash).
 * Another account's claim is indistinguishable from none (404), as in every claim operation.
 */
import { sql } from "drizzle-orm";
import type { SessionActor } from "../actor.ts";
import type { ClaimContext } from "./claim-context.ts";
import { type ClaimRow, claimRecord, isVerifiedAndFresh, ownershipFreshness } from "./claim-record.ts";
import { claimNotFound } from "./find-claim.ts";
import { providerKeyMetadata } from "./provider-keys.ts";

/** A claim row with its active key's columns (null without one), as one statement returns them. */
interface ClaimWithKeyRow extends ClaimRow {
  key_id: string | number | null;
  key_prefix: string | null;
  key_created_at: string | Date | null;
}

/** The owner's claim, its freshness, whether paid actions may use it now, and its active key. */
export async function readOwnedClaim({
  ctx,
  actor,
  input,
}: {
  ctx: Pick<ClaimContext, "db" | "now">;
  actor: SessionActor;
  input: { claimId: string };
}) {
  // One statement, so the key shown belongs to the claim state shown.
  const result = await ctx.db.execute(sql`
    select c.*, k.id as key_id, k.key_prefix, k.created_at as key_created_at
    from provider_claims c
    left join lateral (
      select id, key_prefix, created_at from provider_api_keys
      where claim_id = c.id and revoked_at is null order by created_at desc, id desc limit 1
    ) k on true
    where c.id = ${input.claimId} and c.account_id = ${actor.accountId}`);
  const row = result.rows[0] as ClaimWithKeyRow | undefined;
  if (!row) throw claimNotFound();
  return {
    claim: claimRecord(row),
    ownership_freshness: ownershipFreshness(row),
    verified_and_fresh: isVerifiedAndFresh(row, ctx.now),
    active_key:
      row.key_id !== null && row.key_prefix !== null && row.key_created_at !== null
        ? providerKeyMetadata({ id: row.key_id, key_prefix: row.key_prefix, created_at: row.key_created_at }, row.id)
        : null,
  };
}

export type OwnedClaimView = Awaited<ReturnType<typeof readOwnedClaim>>;
