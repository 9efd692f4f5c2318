import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { verifyProviderKey } from "../../domain/claims/provider-keys.ts";
import { ACCEPTANCE_IDEMPOTENCY_KEY, COMMERCIAL_TERMS_CONTRACT_VERSION } from "../../domain/offers/offer-constants.ts";
import { recordCommercialAcceptance } from "../../domain/offers/record-commercial-acceptance.ts";
import type { AppEnv } from "../../http/context.ts";
import { idempotent } from "../../http/middleware/idempotent.ts";
import { providerKeyActorOf, requireProviderKey } from "../../http/middleware/require-provider-key.ts";
import { problemResponses } from "../shared/schemas.ts";
import { PROVIDER_KEY_SECURITY } from "./schemas.ts";

const reference = z
  .string({ error: "must be text" })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{7,199}$/, {
    error: 'must be 8 to 200 characters: a letter or digit, then letters, digits, ".", "_", ":", "/" or "-"',
  })
  .openapi({ description: "A non-secret evidence reference (8 to 200 characters)" });
const offerId = z.uuid({ error: "must be an offer id (a UUID)" });
const offerVersion = z
  .number({ error: "must be an integer >= 1" })
  .int("must be an integer >= 1")
  .min(1, "must be an integer >= 1");
const termsHash = z
  .string({ error: "must be 64 lower-case hex characters" })
  .regex(/^[0-9a-f]{64}$/, { error: "must be 64 lower-case hex characters" });

export const CommercialAcceptanceRequestSchema = z
  .discriminatedUnion(
    "event_type",
    [
      z
        .strictObject({ event_type: z.literal("pilot_company"), provider_acceptance_reference: reference })
        .openapi("PilotCompanyAcceptanceRequest"),
      z
        .strictObject({
          event_type: z.literal("terms_acceptance"),
          offer_id: offerId,
          offer_version: offerVersion,
          exact_terms_sha256: termsHash,
          provider_acceptance_reference: reference,
        })
        .openapi("TermsAcceptanceRequest"),
      z
        .strictObject({
          event_type: z.literal("terms_renewal"),
          offer_id: offerId,
          related_acceptance_event_id: z.uuid({ error: "must be an acceptance event id (a UUID)" }),
          offer_version: offerVersion,
          exact_terms_sha256: termsHash,
          provider_acceptance_reference: reference,
        })
        .openapi("TermsRenewalRequest"),
    ],
    { error: "must be one of: pilot_company, terms_acceptance, terms_renewal" },
  )
  .openapi("CommercialAcceptanceRequest");

export const CommercialAcceptanceEventSchema = z
  .object({
    id: z.uuid(),
    provider_claim_id: z.uuid(),
    provider_api_key_id: z.number().int().openapi({ format: "int64" }),
    event_type: z.enum(["pilot_company", "terms_acceptance", "terms_renewal"]),
    provider_acceptance_reference: z.string(),
    provider_accepted_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
    provider_offer_id: z.uuid().optional(),
    related_acceptance_event_id: z.uuid().optional(),
    offer_version: z.number().int().min(1).optional(),
    terms_contract_version: z.literal(COMMERCIAL_TERMS_CONTRACT_VERSION).optional(),
    exact_terms_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    valid_until: z.iso.datetime().optional().openapi({ description: "Acceptance time plus the offer's terms period" }),
  })
  .strict()
  .openapi("CommercialAcceptanceEvent");

export const CommercialAcceptanceResponseSchema = z
  .object({
    acceptance: CommercialAcceptanceEventSchema,
    created: z.boolean(),
    idempotent_replay: z.boolean(),
    provider_authenticated: z.literal(true),
    owner_verification_required: z.literal(true),
    commercial_proof_created: z.literal(false),
    evidence_scope: z.string(),
  })
  .strict()
  .openapi("CommercialAcceptanceResponse");

const IdempotencyHeaderSchema = z.object({
  "idempotency-key": z
    .string()
    .optional()
    .openapi({
      param: { in: "header", required: true },
      description:
        "Required: 8 to 128 characters, ^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$, scoped to the key's claim. The same key with the same body replays the stored answer; with another body, 409.",
    }),
});

export const recordCommercialAcceptanceRoute = createRoute({
  method: "post",
  path: "/provider/commercial-acceptances",
  operationId: "recordCommercialAcceptance",
  tags: ["provider"],
  summary: "Record a provider-authenticated commercial acceptance",
  description:
    "Records one append-only acceptance event: pilot_company, terms_acceptance (offer_id, offer_version and exact_terms_sha256 of the offer's current version) or terms_renewal (also related_acceptance_event_id, an earlier acceptance or renewal of the same offer and exact terms). valid_until is the acceptance time plus the offer's terms_period_days (30 when the offer names none). Not owner verification and not commercial proof: an operator verifies it with the owner before activation. 201 new; 200 exact replay of the same Idempotency-Key and body (idempotent_replay true); 409 IDEMPOTENCY_KEY_REUSED for the same key with another body, CLAIM_NOT_FRESH, OFFER_MISMATCH, RENEWAL_CHAIN_INVALID.",
  security: PROVIDER_KEY_SECURITY,
  middleware: [
    requireProviderKey({ verify: verifyProviderKey, whenClaimNotFresh: 409 }),
    idempotent({
      name: "commercial-acceptance",
      scope: (c) => providerKeyActorOf(c.var.actor).claimId,
      ...ACCEPTANCE_IDEMPOTENCY_KEY,
      // A duplicate waits briefly for the first to finish (then replays cheaply); past that the
      // unique (claim, key) in Postgres decides, so a burst never queues for long behind the lock.
      waitMs: 1_000,
    }),
  ],
  request: {
    headers: IdempotencyHeaderSchema,
    body: { required: true, content: { "application/json": { schema: CommercialAcceptanceRequestSchema } } },
  },
  responses: {
    200: {
      description: "Exact replay: the stored acceptance",
      content: { "application/json": { schema: CommercialAcceptanceResponseSchema } },
    },
    201: {
      description: "New acceptance recorded",
      content: { "application/json": { schema: CommercialAcceptanceResponseSchema } },
    },
    ...problemResponses(400, 401, 409, 503),
  },
});

export function registerRecordCommercialAcceptance(app: OpenAPIHono<AppEnv>) {
  app.openapi(recordCommercialAcceptanceRoute, async (c) => {
    const request = c.req.valid("json");
    const actor = providerKeyActorOf(c.var.actor);
    // The idempotency middleware already refused a missing or malformed key.
    const idempotencyKey = c.req.header(ACCEPTANCE_IDEMPOTENCY_KEY.header) ?? "";
    const { status, body } = await recordCommercialAcceptance({
      ctx: c.var.deps,
      actor,
      input: { idempotencyKey, request },
    });
    c.header("Cache-Control", "private, no-store");
    return status === 201 ? c.json(body, 201) : c.json(body, 200);
  });
}
