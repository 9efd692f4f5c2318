/**
 * The exact text an offer's commercial-terms hash is taken over, for the owner to see and hash
 * again: the RFC 8785 canonical JSON of `commercialTermsObject` built from the owner's record, so
 * `sha256(text) === commercial_terms_sha256` (the integration tests check it).
 */
import { canonicalJson, commercialTermsObject } from "./commercial-terms.ts";
import type { OwnerOfferRecord } from "./offer-record.ts";

/** The canonical JSON of an offer version's commercial terms. */
export function canonicalTermsOf(offer: OwnerOfferRecord): string {
  return canonicalJson(
    commercialTermsObject({
      offerId: offer.id,
      providerClaimId: offer.claim_id,
      providerDomain: offer.domain,
      actionType: offer.action_type,
      actionUrl: offer.action_url,
      chargeEvent: offer.charge_event,
      bountyCents: offer.bounty_cents,
      currency: offer.currency,
      principalPriceMode: offer.principal_price_mode,
      principalPriceCents: offer.principal_price_cents ?? null,
      principalCurrency: offer.principal_currency,
      billingMode: offer.billing_mode,
      termsCreditLimitCents: offer.terms_credit_limit_cents ?? null,
      termsPeriodDays: offer.terms_period_days ?? null,
    }),
  );
}
