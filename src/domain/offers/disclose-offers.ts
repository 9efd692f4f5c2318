/**
 * Offers beside organic results. The active offers of verified-and-fresh claims whose domain is
 * among a receipt's returned organic results are looked up and their disclosure to that receipt
 * recorded, in one statement run in the receipt's own transaction: an offer is shown only if its
 * disclosure row committed with the receipt, so what a caller saw and what a later action ticket
 * can cite are the same. Nothing here reads or changes the organic page.
 */
import { type SQL, sql } from "drizzle-orm";
import type { SqlRow } from "../../adapters/db.ts";
import { PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS } from "../claims/claim-constants.ts";
import { type OfferRow, publicOfferRecord } from "./offer-record.ts";

export type PublicOfferRecord = ReturnType<typeof publicOfferRecord>;

/**
 * The statement that records and returns the offers disclosed to the receipt `searchId`: it reads
 * the receipt's returned results (its row's result_domains), so it runs in the receipt's own transaction, after the receipt's
 * statements (`recordSearchReceipt`'s `alongside`): a disclosure then commits with its receipt or
 * not at all. Its rows go to `disclosedOffers`.
 */
export function discloseOffersStatement({ searchId, now }: { searchId: string; now: Date }): SQL {
  return sql`
    with candidates as (
      select o.*, c.domain as provider_domain, s.first_position + r.ordinality - 1 as position,
             s.expires_at as search_expires_at
      from search_receipts s
      cross join lateral unnest(s.result_domains) with ordinality as r(domain, ordinality)
      join provider_claims c on c.domain = r.domain and c.status = 'verified'
        and c.verification_last_succeeded_at > ${now.toISOString()}::timestamptz
          - make_interval(secs => ${PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS})
      join provider_offers o on o.claim_id = c.id and o.status = 'active' and o.revoked_at is null
      where s.search_id = ${searchId} and s.expires_at > now()
    ), disclosed as (
      insert into search_offer_disclosures (search_id, offer_id, offer_version, commercial_terms_sha256, domain, expires_at)
      select ${searchId}, id, version, commercial_terms_sha256, provider_domain, search_expires_at from candidates
      on conflict do nothing
      returning offer_id
    )
    select candidates.* from candidates join disclosed on disclosed.offer_id = candidates.id
    order by candidates.position, candidates.created_at, candidates.id`;
}

/**
 * The public records of the offers `discloseOffersStatement` disclosed, in the order of their
 * domains on the page (then oldest offer first).
 */
export function disclosedOffers(rows: SqlRow[]): PublicOfferRecord[] {
  return (rows as unknown as (OfferRow & { provider_domain: string })[]).map((row) =>
    publicOfferRecord(row, row.provider_domain),
  );
}
