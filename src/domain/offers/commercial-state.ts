/**
 * Where an offer stands commercially, from its provider acceptances and the owner's verification
 * of them: pure rules shared by the owner's offer records, the pilot status and the operator's
 * activation, so all three say the same thing.
 *
 * - The *current terms* are the offer's current `commercial_terms_sha256`.
 * - An acceptance counts for the current terms while its `valid_until` is ahead and the owner
 *   verified it (`current_terms_owner_verified`).
 * - A renewal can chain to any terms acceptance or renewal of the current terms
 *   (`renewal_eligible`), while the offer is a draft or active.
 * - Activation needs a draft of a verified-and-fresh claim whose current terms are owner-verified
 *   and capped (`terms_credit_limit_cents` set): only capped pay-per-action terms are launched.
 */
import type { OfferStatus } from "./offer-constants.ts";

/** One terms_acceptance or terms_renewal of an offer, with the owner's verification if any. */
export interface AcceptanceEvidence {
  id: string;
  provider_offer_id: string;
  event_type: "terms_acceptance" | "terms_renewal";
  exact_terms_sha256: string;
  provider_accepted_at: string | Date;
  valid_until: string | Date;
  owner_verified_at: string | Date | null;
}

export interface OfferForState {
  status: OfferStatus;
  commercial_terms_sha256: string;
  terms_credit_limit_cents: number | string | null;
  revoked_at: string | Date | null;
}

const time = (value: string | Date) => new Date(value).getTime();
const iso = (value: string | Date) => new Date(value).toISOString();

/** Newest first: by acceptance time, then id, so the order never depends on the query plan. */
function newestFirst(a: AcceptanceEvidence, b: AcceptanceEvidence) {
  return time(b.provider_accepted_at) - time(a.provider_accepted_at) || (a.id < b.id ? 1 : -1);
}

/** The commercial state of one offer at `now`, given all its terms acceptances. */
export function commercialState(
  offer: OfferForState,
  acceptances: AcceptanceEvidence[],
  claimVerifiedAndFresh: boolean,
  now: Date,
) {
  const sorted = [...acceptances].sort(newestFirst);
  const latest = sorted[0];
  const ofCurrentTerms = sorted.filter((event) => event.exact_terms_sha256 === offer.commercial_terms_sha256);
  const verifiedCurrent = ofCurrentTerms.filter(
    (event) => event.owner_verified_at !== null && time(event.valid_until) > now.getTime(),
  );
  const currentValidUntil = verifiedCurrent.reduce<string | Date | undefined>(
    (latestEnd, event) =>
      latestEnd === undefined || time(event.valid_until) > time(latestEnd) ? event.valid_until : latestEnd,
    undefined,
  );
  const live = offer.revoked_at === null;
  const currentTermsOwnerVerified = verifiedCurrent.length > 0;
  return {
    provider_acknowledges_merchant_of_record: ofCurrentTerms.length > 0,
    latest_acceptance_owner_verified: latest !== undefined && latest.owner_verified_at !== null,
    current_terms_owner_verified: currentTermsOwnerVerified,
    renewal_eligible: live && offer.status !== "paused" && ofCurrentTerms.length > 0,
    activation_ready:
      live &&
      offer.status === "draft" &&
      claimVerifiedAndFresh &&
      currentTermsOwnerVerified &&
      offer.terms_credit_limit_cents !== null,
    ...(latest
      ? {
          latest_acceptance_id: latest.id,
          latest_acceptance_type: latest.event_type,
          latest_acceptance_at: iso(latest.provider_accepted_at),
          latest_acceptance_valid_until: iso(latest.valid_until),
          ...(latest.owner_verified_at !== null
            ? { latest_acceptance_owner_verified_at: iso(latest.owner_verified_at) }
            : {}),
        }
      : {}),
    ...(currentValidUntil !== undefined ? { current_terms_valid_until: iso(currentValidUntil) } : {}),
  };
}

export type CommercialState = ReturnType<typeof commercialState>;

/** Groups evidence rows by offer id. */
export function evidenceByOffer(rows: AcceptanceEvidence[]): Map<string, AcceptanceEvidence[]> {
  const byOffer = new Map<string, AcceptanceEvidence[]>();
  for (const row of rows) {
    const list = byOffer.get(row.provider_offer_id) ?? [];
    list.push(row);
    byOffer.set(row.provider_offer_id, list);
  }
  return byOffer;
}
