/**
 * Request and response schemas of the agent-to-provider path: ticket preparation, handoff,
 * controlled-intent resolution, outcomes and their signed receipts. Requests are strict: an
 * unknown field (a name, an e-mail, a prompt, an identity…) is refused with 400 and nothing is
 * written. The vocabularies are the closed lists of src/domain/tickets/ticket-constants.ts.
 */
import { z } from "@hono/zod-openapi";
import { SEARCH_ID_PATTERN } from "../../domain/search-receipts/search-id.ts";
import {
  ATTRIBUTION_URL_PARAMETER,
  BUDGET_BANDS,
  HANDOFF_CONSENT_VERSION,
  HANDOFF_RECEIPT_CONTRACT_VERSION,
  INTENT_DISCLOSURE_CONSENT_VERSION,
  INTENT_RESOLVER_CONTRACT_VERSION,
  INTENT_TOPICS,
  PRINCIPAL_CONSENT_VERSION,
  REGION_CODES,
  REQUIREMENT_FLAGS,
  TICKET_PREPARATION_CONTRACT_VERSION,
  URGENCIES,
} from "../../domain/tickets/ticket-constants.ts";
import { CHARGE_EVENTS, OUTCOMES, TICKET_STATUSES } from "../../domain/tickets/ticket-machine.ts";
import { storableText } from "../shared/text.ts";

const oneOf = (values: readonly string[]) => ({ error: `must be one of ${values.join(", ")}` });
const SHA256_HEX = z.string().regex(/^[0-9a-f]{64}$/);
const BEARER = storableText()
  .min(1, "must not be empty")
  .max(4096, "must be at most 4096 characters")
  .openapi({ description: "The exact compact JWS attribution bearer, as issued" });

export const ControlledIntentSchema = z
  .strictObject({
    topic: z.enum(INTENT_TOPICS, oneOf(INTENT_TOPICS)),
    region_code: z
      .string()
      .refine((value) => REGION_CODES.includes(value), "must be an ISO 3166-1 alpha-2 code in capitals, e.g. US")
      .optional()
      .openapi({ description: "ISO 3166-1 alpha-2 (assigned codes only)", example: "US" }),
    budget_band: z.enum(BUDGET_BANDS, oneOf(BUDGET_BANDS)).optional(),
    urgency: z.enum(URGENCIES, oneOf(URGENCIES)).optional(),
    requirement_flags: z
      .array(z.enum(REQUIREMENT_FLAGS, oneOf(REQUIREMENT_FLAGS)))
      .max(REQUIREMENT_FLAGS.length)
      .refine((flags) => new Set(flags).size === flags.length, "must not repeat a flag")
      .default([]),
  })
  .openapi("ControlledIntent", {
    description:
      "Controlled constraints only, from closed vocabularies (docs/exchange-tickets.md): no free text, so no name, contact, prompt or identity.",
  });

export const ActionTicketRequestSchema = z
  .strictObject({
    search_id: z.string().regex(SEARCH_ID_PATTERN, { error: "must be a search_id as returned by search" }),
    offer_id: z.uuid({ error: "must be the id of an offer in that search's paid_offers" }),
    caller_attests_principal_consent: z.literal(true, {
      error: "must be true: the caller attests its principal's explicit consent to prepare this ticket",
    }),
    consent_version: z.literal(PRINCIPAL_CONSENT_VERSION, { error: `must be "${PRINCIPAL_CONSENT_VERSION}"` }),
    controlled_intent: ControlledIntentSchema,
  })
  .openapi("ActionTicketRequest");

const ControlledIntentOutSchema = z.object({
  topic: z.enum(INTENT_TOPICS),
  region_code: z.string().nullable(),
  budget_band: z.enum(BUDGET_BANDS).nullable(),
  urgency: z.enum(URGENCIES).nullable(),
  requirement_flags: z.array(z.enum(REQUIREMENT_FLAGS)),
});

export const ActionTicketSchema = z
  .object({
    ticket_id: z.uuid(),
    contract_version: z.literal(TICKET_PREPARATION_CONTRACT_VERSION),
    ticket_status: z.enum(TICKET_STATUSES),
    search_id: z.string(),
    offer_id: z.uuid(),
    offer_version: z.number().int().min(1),
    commercial_terms_sha256: SHA256_HEX,
    provider_domain: z.string(),
    charge_event: z.enum(CHARGE_EVENTS),
    bounty_cents: z.number().int().min(1),
    currency: z.literal("usd"),
    consent_version: z.literal(PRINCIPAL_CONSENT_VERSION),
    controlled_intent: ControlledIntentOutSchema,
    attribution_bearer: z.string().openapi({
      description: "Compact JWS (HS256, kid) bound to the ticket, offer version and terms hash; expires at expires_at",
    }),
    attribution_url_parameter: z.literal(ATTRIBUTION_URL_PARAMETER),
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
    handoff_endpoint: z.url(),
    handoff_method: z.literal("POST"),
    handoff_consent_version: z.literal(HANDOFF_CONSENT_VERSION),
    controlled_intent_disclosure_consent_version: z.literal(INTENT_DISCLOSURE_CONSENT_VERSION),
    controlled_intent_disclosure_default: z.literal(false),
    principal_charged: z.literal(false),
    provider_charged: z.literal(false),
    idempotent_replay: z.boolean(),
  })
  .openapi("ActionTicket");

export const HandoffRequestSchema = z
  .strictObject({
    ticket_id: z.uuid({ error: "must be the ticket_id the ticket was prepared with" }),
    attribution_bearer: BEARER,
    handoff_consent_version: z.literal(HANDOFF_CONSENT_VERSION, { error: `must be "${HANDOFF_CONSENT_VERSION}"` }),
    controlled_intent_disclosure_consent_version: z
      .literal(INTENT_DISCLOSURE_CONSENT_VERSION, { error: `must be "${INTENT_DISCLOSURE_CONSENT_VERSION}" or absent` })
      .optional()
      .openapi({ description: "Optional, separate consent: the provider may resolve the controlled intent" }),
  })
  .openapi("HandoffRequest");

export const HandoffSchema = z
  .object({
    handoff_receipt_id: z.uuid(),
    contract_version: z.literal(HANDOFF_RECEIPT_CONTRACT_VERSION),
    ticket_id: z.uuid(),
    ticket_status: z.enum(TICKET_STATUSES),
    offer_id: z.uuid(),
    offer_version: z.number().int().min(1),
    commercial_terms_sha256: SHA256_HEX,
    handoff_consent_version: z.literal(HANDOFF_CONSENT_VERSION),
    controlled_intent_disclosure_consent_version: z.literal(INTENT_DISCLOSURE_CONSENT_VERSION).nullable(),
    controlled_intent_disclosed: z.boolean(),
    observed_at: z.iso.datetime(),
    provider_domain: z.string(),
    provider_action_url: z.url().openapi({
      description: `The provider's action URL with the bearer in its ${ATTRIBUTION_URL_PARAMETER} parameter`,
    }),
    attribution_url_parameter: z.literal(ATTRIBUTION_URL_PARAMETER),
    principal_charged: z.literal(false),
    provider_charged: z.literal(false),
    idempotent_replay: z.boolean(),
  })
  .openapi("Handoff");

export const ResolveRequestSchema = z
  .strictObject({ attribution_token: BEARER })
  .openapi("ControlledIntentResolveRequest");

export const ControlledIntentResolutionSchema = z
  .object({
    contract_version: z.literal(INTENT_RESOLVER_CONTRACT_VERSION),
    controlled_intent: ControlledIntentOutSchema,
    binding: z
      .object({
        ticket_id: z.uuid(),
        offer_id: z.uuid(),
        offer_version: z.number().int().min(1),
        commercial_terms_sha256: SHA256_HEX,
        handoff_receipt_id: z.uuid(),
      })
      .openapi({ description: "Opaque binding metadata: which ticket, offer version, terms and handoff" }),
  })
  .openapi("ControlledIntentResolution");

export const OutcomeRequestSchema = z
  .strictObject({
    attribution_token: BEARER,
    outcome: z.enum(OUTCOMES, oneOf(OUTCOMES)),
    ticket_id: z
      .uuid({ error: "must be a ticket id (a UUID)" })
      .optional()
      .openapi({ deprecated: true, description: "Deprecated assertion; the ticket comes from the token" }),
  })
  .openapi("OutcomeRequest");

export const SignedOutcomeReceiptSchema = z
  .object({
    receipt_id: z.uuid(),
    signed_receipt: z.string().openapi({ description: "The exact RFC 8785 canonical JSON that was signed" }),
    signature: z.string().openapi({ description: "HMAC-SHA256 of signed_receipt's UTF-8 bytes, unpadded base64url" }),
    key_id: z.string(),
    signature_algorithm: z.literal("HMAC-SHA256"),
    receipt: z.record(z.string(), z.unknown()).openapi({ description: "signed_receipt, parsed" }),
  })
  .openapi("SignedOutcomeReceipt");

export const OutcomeResponseSchema = SignedOutcomeReceiptSchema.extend({ idempotent_replay: z.boolean() }).openapi(
  "OutcomeResponse",
);

export const ReceiptVerifyRequestSchema = z
  .strictObject({
    signed_receipt: storableText().min(1, "must not be empty").max(16_384),
    signature: storableText().min(1, "must not be empty").max(128),
  })
  .openapi("ReceiptVerifyRequest");

export const ReceiptVerificationSchema = z
  .object({
    signature_valid: z.boolean(),
    within_validity_window: z.boolean(),
    time_status: z.enum(["current", "expired", "not_yet_valid", "invalid_time"]),
    receipt: z.record(z.string(), z.unknown()),
    current_state_available: z.boolean(),
    current_state_status: z.enum(["current", "not_found", "unavailable"]),
    current_state: z
      .object({
        receipt_id: z.uuid(),
        ticket_id: z.uuid(),
        ticket_status: z.enum(TICKET_STATUSES),
        charge_status: z.enum(["none", "charged", "credited"]),
        latest_outcome_receipt_id: z.uuid().nullable(),
        receipt_is_latest: z.boolean(),
        as_of: z.iso.datetime(),
      })
      .nullable()
      .openapi("PublicOutcomeReceiptState"),
  })
  .openapi("ReceiptVerification");
