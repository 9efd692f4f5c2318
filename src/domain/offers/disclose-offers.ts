/**
 * Offers beside organic results. After a search's receipt committed, the active offers of
 * verified-and-fresh claims whose domain is among that page's returned organic results are looked
 * up and their disclosure to that receipt recorded, in one statement: an offer is shown only if
 * its disclosure row was written, so what a caller saw and what a later action ticket can cite are
 * the same. Nothing here reads or changes the organic page.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import { PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS } from "../claims/claim-constants.ts";
import { type OfferRow, publicOfferRecord } from "./offer-record.ts";

export type PublicOfferRecord = ReturnType<typeof publicOfferRecord>;

/**
 * Records and returns the offers disclosed to this committed receipt, in the order of their
 * domains on the page (then oldest offer first). Never fails the search: an error means no offer
 * is disclosed (and none recorded).
 */
export async function discloseOffers({
  ctx,
  input,
}: {
  ctx: { db: Database; now?: Date };
  input: { searchId: string };
}): Promise<PublicOfferRecord[]> {
  const now = (ctx.now ?? new Date()).toISOString();
  try {
    const result = await ctx.db.execute(sql`
      with candidates as (
        select o.*, c.domain as provider_domain, r.position
        from search_receipt_results r
        join provider_claims c on c.domain = r.domain and c.status = 'verified'
          and c.verification_last_succeeded_at > ${now}::timestamptz
            - make_interval(secs => ${PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS})
        join provider_offers o on o.claim_id = c.id and o.status = 'active' and o.revoked_at is null
        where r.search_id = ${input.searchId}
      ), disclosed as (
        insert into search_offer_disclosures (search_id, offer_id, offer_version, commercial_terms_sha256, domain)
        select ${input.searchId}, id, version, commercial_terms_sha256, provider_domain from candidates
        on conflict do nothing
        returning offer_id
      )
      select candidates.* from candidates join disclosed on disclosed.offer_id = candidates.id
      order by candidates.position, candidates.created_at, candidates.id`);
    return (result.rows as unknown as (OfferRow & { provider_domain: string })[]).map((row) =>
      publicOfferRecord(row, row.provider_domain),
    );
  } catch (error) {
    console.error("offers not disclosed", String(error));
    return [];
  }
}
