/** Schemas of the offer endpoints and of the public offer record (the spec's ProviderOfferRequest). */
import { z } from "@hono/zod-openapi";
import {
  CHARGE_EVENTS,
  COMMERCIAL_TERMS_CONTRACT_VERSION,
  OFFER_ACTION_TYPES,
  OFFER_LIMITS,
  OFFER_STATUSES,
  PRINCIPAL_PRICE_MODES,
} from "../../domain/offers/offer-constants.ts";
import { storableText } from "../shared/text.ts";

const between = (min: number, max: number) =>
  z
    .number({ error: `must be an integer from ${min} to ${max}` })
    .int(`must be an integer from ${min} to ${max}`)
    .min(min, `must be an integer from ${min} to ${max}`)
    .max(max, `must be an integer from ${min} to ${max}`);

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of: ${values.join(", ")}` });

const parsesAsUrl = (value: string) => {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
};

const ActionUrlSchema = storableText("must be an HTTPS URL")
  .max(2048, "must be at most 2048 characters")
  .refine((value) => parsesAsUrl(value) && value.startsWith("https://"), "must be an HTTPS URL")
  .refine((value) => !value.includes("?"), "must not carry a query")
  .refine((value) => !value.includes("#"), "must not carry a fragment")
  .openapi({
    format: "uri",
    description: "HTTPS URL on the verified claim's domain or its subdomains; no query, no fragment",
  });

const offerFields = {
  name: storableText("must be text")
    .min(1, `must be 1 to ${OFFER_LIMITS.nameMax} characters`)
    .max(OFFER_LIMITS.nameMax, `must be 1 to ${OFFER_LIMITS.nameMax} characters`),
  summary: storableText("must be text")
    .min(1, `must be 1 to ${OFFER_LIMITS.summaryMax} characters`)
    .max(OFFER_LIMITS.summaryMax, `must be 1 to ${OFFER_LIMITS.summaryMax} characters`),
  action_type: oneOf(OFFER_ACTION_TYPES),
  action_url: ActionUrlSchema,
  charge_event: oneOf(CHARGE_EVENTS).openapi({
    description: "The provider-reported outcome whose authenticated receipt creates the charge of bounty_cents",
  }),
  bounty_cents: between(OFFER_LIMITS.bountyCentsMin, OFFER_LIMITS.bountyCentsMax),
  currency: z.literal("usd", { error: "must be usd" }),
  principal_price_mode: oneOf(PRINCIPAL_PRICE_MODES),
  principal_price_cents: between(0, OFFER_LIMITS.principalPriceCentsMax)
    .optional()
    .openapi({ description: "Required when principal_price_mode is fixed" }),
  principal_currency: z.literal("usd", { error: "must be usd" }),
  billing_mode: z.literal("terms", { error: "must be terms (only capped pay-per-action terms are launched)" }),
  terms_credit_limit_cents: between(OFFER_LIMITS.termsCreditLimitCentsMin, OFFER_LIMITS.termsCreditLimitCentsMax)
    .optional()
    .openapi({ description: "The cap of the terms; an offer is activated only with one" }),
  terms_period_days: between(OFFER_LIMITS.termsPeriodDaysMin, OFFER_LIMITS.termsPeriodDaysMax)
    .optional()
    .openapi({ description: "How long an acceptance of these terms is valid (30 days when absent)" }),
};

/** POST /provider/offers: every field of the offer request, claim_id required; nothing else. */
export const CreateOfferRequestSchema = z
  .strictObject({ claim_id: z.uuid({ error: "must be a claim id (a UUID)" }), ...offerFields })
  .openapi("ProviderOfferCreateRequest");

/** PUT /provider/offers/{offer_id}: the offer request; claim_id may be repeated but never changed. */
export const UpdateOfferRequestSchema = z
  .strictObject({ claim_id: z.uuid({ error: "must be a claim id (a UUID)" }).optional(), ...offerFields })
  .openapi("ProviderOfferRequest");

export const OfferIdParamSchema = z.object({
  offer_id: z.uuid({ error: "must be an offer id (a UUID)" }).openapi({ param: { name: "offer_id", in: "path" } }),
});

export const ListOffersQuerySchema = z.strictObject({
  claim_id: z
    .uuid({ error: "must be a claim id (a UUID)" })
    .optional()
    .openapi({ param: { name: "claim_id", in: "query" }, description: "Only this claim's offers" }),
});

const dateTime = z.iso.datetime();
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** The commercial state of an offer (the same rules as the pilot status's offer records). */
export const OfferCommercialStateSchema = z
  .object({
    provider_acknowledges_merchant_of_record: z.boolean(),
    latest_acceptance_owner_verified: z.boolean(),
    current_terms_owner_verified: z.boolean(),
    renewal_eligible: z.boolean(),
    activation_ready: z.boolean().openapi({ description: "Read-only evidence; activation is an operator act" }),
    latest_acceptance_id: z.uuid().optional(),
    latest_acceptance_type: z.enum(["terms_acceptance", "terms_renewal"]).optional(),
    latest_acceptance_at: dateTime.optional(),
    latest_acceptance_valid_until: dateTime.optional(),
    latest_acceptance_owner_verified_at: dateTime.optional(),
    current_terms_valid_until: dateTime.optional(),
  })
  .strict()
  .openapi("OfferCommercialState");

/** The owner's offer record. */
export const ProviderOfferSchema = z
  .object({
    id: z.uuid(),
    claim_id: z.uuid(),
    domain: z.string(),
    status: z.enum(OFFER_STATUSES),
    version: z.number().int().min(1),
    name: z.string(),
    summary: z.string(),
    action_url: z.string(),
    action_type: z.enum(OFFER_ACTION_TYPES),
    charge_event: z.enum(CHARGE_EVENTS),
    bounty_cents: z.number().int().min(1).openapi({ format: "int64" }),
    currency: z.literal("usd"),
    principal_price_mode: z.enum(PRINCIPAL_PRICE_MODES),
    principal_price_cents: z.number().int().min(0).optional().openapi({ format: "int64" }),
    principal_currency: z.literal("usd"),
    billing_mode: z.literal("terms"),
    terms_credit_limit_cents: z.number().int().min(1).optional().openapi({ format: "int64" }),
    terms_period_days: z.number().int().min(1).max(90).optional(),
    commercial_terms_contract_version: z.literal(COMMERCIAL_TERMS_CONTRACT_VERSION),
    commercial_terms_sha256: sha256.openapi({
      description: "SHA-256 of the RFC 8785 canonical JSON of the exact commercial terms (docs/exchange.md)",
    }),
    created_at: dateTime,
    updated_at: dateTime,
    activated_at: dateTime.nullable(),
    paused_at: dateTime.nullable(),
    revoked_at: dateTime.nullable().openapi({ description: "Set when the claim was revoked; the offer is over" }),
    commercial_state: OfferCommercialStateSchema,
  })
  .strict()
  .openapi("ProviderOffer");

export const ProviderOfferListSchema = z.object({ offers: z.array(ProviderOfferSchema) }).openapi("ProviderOfferList");

/** The public provider offer shown in `paid_offers` beside organic results. */
export const PublicProviderOfferSchema = z
  .object({
    offer_id: z.uuid(),
    offer_version: z.number().int().min(1),
    provider_domain: z
      .string()
      .openapi({ description: "The DNS-verified provider domain, one of the page's organic results" }),
    name: z.string(),
    summary: z.string(),
    action_type: z.enum(OFFER_ACTION_TYPES),
    charge_event: z.enum(CHARGE_EVENTS).openapi({
      description: "The provider-reported outcome whose authenticated receipt creates the charge",
    }),
    bounty_cents: z.number().int().min(1).openapi({
      format: "int64",
      description: "What the provider pays this service for that outcome; never hidden from the principal",
    }),
    currency: z.literal("usd"),
    principal_price_mode: z.enum(PRINCIPAL_PRICE_MODES),
    principal_price_cents: z.number().int().min(0).optional().openapi({ format: "int64" }),
    principal_currency: z.literal("usd"),
    billing_mode: z.literal("terms"),
    commercial_terms_contract_version: z.literal(COMMERCIAL_TERMS_CONTRACT_VERSION),
    commercial_terms_sha256: sha256,
    sponsored: z.literal(true),
    charge_disclosure: z.string().openapi({ description: "Who pays whom, how much, for which outcome, in words" }),
    organic_rank_affected: z.literal(false),
  })
  .strict()
  .openapi("PublicProviderOffer");
