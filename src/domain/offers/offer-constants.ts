/** Constants of provider offers and commercial acceptances (interface spec: offer request, Limits, Versioning). */

export const OFFER_STATUSES = ["draft", "active", "paused"] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const OFFER_ACTION_TYPES = [
  "lead",
  "demo",
  "trial",
  "signup",
  "purchase",
  "quote",
  "application",
  "booking",
] as const;
export type OfferActionType = (typeof OFFER_ACTION_TYPES)[number];

/** The provider-reported outcome whose authenticated receipt creates the disclosed charge. */
export const CHARGE_EVENTS = ["accepted", "activated", "converted"] as const;
export type ChargeEvent = (typeof CHARGE_EVENTS)[number];

export const PRINCIPAL_PRICE_MODES = ["free", "fixed", "quote", "provider_pricing"] as const;
export type PrincipalPriceMode = (typeof PRINCIPAL_PRICE_MODES)[number];

/** Only capped pay-per-action terms are launched; `prepaid` exists in records for historical compatibility. */
export const BILLING_MODES = ["terms"] as const;

export const OFFER_CURRENCY = "usd" as const;

/** The contract the commercial-terms hash is computed under (part of the hashed object). */
export const COMMERCIAL_TERMS_CONTRACT_VERSION = "svc-provider-commercial-terms-v1" as const;

export const OFFER_LIMITS = {
  nameMax: 80,
  summaryMax: 280,
  bountyCentsMin: 1,
  bountyCentsMax: 1_000_000,
  principalPriceCentsMax: 100_000_000,
  termsCreditLimitCentsMin: 1,
  termsCreditLimitCentsMax: 10_000_000,
  termsPeriodDaysMin: 1,
  termsPeriodDaysMax: 90,
} as const;

/**
 * How many offers one claim may hold, whatever their status (the spec leaves the cap open): enough
 * for a provider's distinct actions, few enough that a page of results never drowns in offers.
 */
export const OFFER_INVENTORY_CAP_PER_CLAIM = 20;

/** When an offer names no terms_period_days, an acceptance of its terms is valid this long. */
export const DEFAULT_TERMS_PERIOD_DAYS = 30;

export const ACCEPTANCE_EVENT_TYPES = ["pilot_company", "terms_acceptance", "terms_renewal"] as const;
export type AcceptanceEventType = (typeof ACCEPTANCE_EVENT_TYPES)[number];

/** The provider_acceptance_reference pattern (8 to 200 characters). */
export const ACCEPTANCE_REFERENCE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]{7,199}$/;

/** The Idempotency-Key bounds of acceptances (8 to 128 characters; the pattern lives in the middleware). */
export const ACCEPTANCE_IDEMPOTENCY_KEY = { header: "Idempotency-Key", minLength: 8, maxLength: 128 } as const;

/** The operator acts the audit table records. */
export const OPERATOR_ACTS = ["owner_verify_acceptance", "activate_offer"] as const;
export type OperatorAct = (typeof OPERATOR_ACTS)[number];
