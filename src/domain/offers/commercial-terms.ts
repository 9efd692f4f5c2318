/**
 * The commercial-terms hash every offer version carries (`commercial_terms_sha256`): SHA-256, in
 * lower-case hex, of the UTF-8 bytes of the RFC 8785 (JCS) canonical JSON of exactly the object
 * `commercialTermsObject` builds. The field list is published in docs/exchange.md so a provider
 * can recompute the hash before accepting the terms. Presentation (name, summary) is not part of
 * the terms: changing it makes a new version with the same hash.
 */
import canonicalize from "canonicalize";
import { sha256Hex } from "../sha256.ts";
import { COMMERCIAL_TERMS_CONTRACT_VERSION } from "./offer-constants.ts";

/** The terms of one offer version as stored (optional terms are null when absent). */
export interface CommercialTermsInput {
  offerId: string;
  providerClaimId: string;
  providerDomain: string;
  actionType: string;
  actionUrl: string;
  chargeEvent: string;
  bountyCents: number;
  currency: string;
  principalPriceMode: string;
  principalPriceCents: number | null;
  principalCurrency: string;
  billingMode: string;
  termsCreditLimitCents: number | null;
  termsPeriodDays: number | null;
}

/** The exact field names hashed, in the order docs/exchange.md lists them (JCS sorts them anyway). */
export const COMMERCIAL_TERMS_FIELDS = [
  "contract_version",
  "offer_id",
  "provider_claim_id",
  "provider_domain",
  "action_type",
  "action_url",
  "charge_event",
  "bounty_cents",
  "currency",
  "principal_price_mode",
  "principal_price_cents",
  "principal_currency",
  "billing_mode",
  "terms_credit_limit_cents",
  "terms_period_days",
] as const;

/** The object whose canonical JSON is hashed; every field present, absent optional terms as null. */
export function commercialTermsObject(
  terms: CommercialTermsInput,
): Record<(typeof COMMERCIAL_TERMS_FIELDS)[number], unknown> {
  return {
    contract_version: COMMERCIAL_TERMS_CONTRACT_VERSION,
    offer_id: terms.offerId,
    provider_claim_id: terms.providerClaimId,
    provider_domain: terms.providerDomain,
    action_type: terms.actionType,
    action_url: terms.actionUrl,
    charge_event: terms.chargeEvent,
    bounty_cents: terms.bountyCents,
    currency: terms.currency,
    principal_price_mode: terms.principalPriceMode,
    principal_price_cents: terms.principalPriceCents,
    principal_currency: terms.principalCurrency,
    billing_mode: terms.billingMode,
    terms_credit_limit_cents: terms.termsCreditLimitCents,
    terms_period_days: terms.termsPeriodDays,
  };
}

/** RFC 8785 canonical JSON of any JSON value (the maintained `canonicalize` package). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("value has no JSON representation");
  return text;
}

/** SHA-256 (lower-case hex) of the canonical JSON of a JSON value. */
export function canonicalSha256(value: unknown): Promise<string> {
  return sha256Hex(canonicalJson(value));
}

/** The offer version's `commercial_terms_sha256`. */
export function commercialTermsSha256(terms: CommercialTermsInput): Promise<string> {
  return canonicalSha256(commercialTermsObject(terms));
}
