import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { CHARGE_STATUSES, OUTCOMES, TICKET_STATUSES } from "../../domain/claims/pilot-recent-handoffs.ts";
import { readPilotStatus } from "../../domain/claims/pilot-status.ts";
import { verifyProviderKey } from "../../domain/claims/provider-keys.ts";
import {
  CHARGE_EVENTS,
  COMMERCIAL_TERMS_CONTRACT_VERSION,
  OFFER_ACTION_TYPES,
  OFFER_STATUSES,
} from "../../domain/offers/offer-constants.ts";
import { readBesideGuard } from "../../domain/read-beside-guard.ts";
import type { AppEnv } from "../../http/context.ts";
import { providerKeyActorOf, requireProviderKey } from "../../http/middleware/require-provider-key.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { problemResponses } from "../shared/schemas.ts";
import { PROVIDER_KEY_SECURITY } from "./schemas.ts";

/** Provider reads: 240 per hour per key per read surface (the spec's Limits). */
export const PILOT_STATUS_LIMIT = { name: "provider-pilot-status", limit: 240, window: "1 h" } as const;

const PilotStatusQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ error: "must be an integer from 1 to 100" })
    .int("must be an integer from 1 to 100")
    .min(1, "must be an integer from 1 to 100")
    .max(100, "must be an integer from 1 to 100")
    .default(25)
    .openapi({ param: { name: "limit", in: "query" }, description: "Caps offers and recent handoffs (1 to 100)" }),
});

const dateTime = z.iso.datetime();

export const PilotOfferStatusSchema = z
  .object({
    offer_id: z.uuid(),
    status: z.enum(OFFER_STATUSES),
    version: z.number().int().min(1),
    name: z.string(),
    action_type: z.enum(OFFER_ACTION_TYPES),
    charge_event: z.enum(CHARGE_EVENTS),
    bounty_cents: z.number().int().min(1).openapi({ format: "int64" }),
    currency: z.literal("usd"),
    billing_mode: z
      .enum(["prepaid", "terms"])
      .openapi({ description: "prepaid appears only for historical compatibility" }),
    commercial_terms_contract_version: z.literal(COMMERCIAL_TERMS_CONTRACT_VERSION),
    commercial_terms_sha256: z.string().regex(/^[0-9a-f]{64}$/),
    provider_mor_acknowledgement_required: z.literal(true),
    provider_acknowledges_merchant_of_record: z.boolean().openapi({
      description: "Provider-accepted (an acceptance of the current terms exists), not independently verified",
    }),
    latest_acceptance_owner_verified: z.boolean(),
    current_terms_owner_verified: z.boolean(),
    renewal_eligible: z.boolean(),
    activation_ready: z.boolean().openapi({ description: "Read-only evidence; does not activate" }),
    terms_credit_limit_cents: z.number().int().min(1).optional().openapi({ format: "int64" }),
    terms_period_days: z.number().int().min(1).max(90).optional(),
    latest_acceptance_id: z.uuid().optional(),
    latest_acceptance_type: z.enum(["terms_acceptance", "terms_renewal"]).optional(),
    latest_acceptance_at: dateTime.optional(),
    latest_acceptance_valid_until: dateTime.optional(),
    latest_acceptance_owner_verified_at: dateTime.optional(),
    current_terms_valid_until: dateTime.optional(),
  })
  .strict()
  .openapi("PilotOfferStatus");

export const PilotRecentEventSchema = z
  .object({
    ticket_id: z.uuid(),
    offer_id: z.uuid(),
    offer_version: z.number().int().min(1),
    ticket_status: z.enum(TICKET_STATUSES),
    handoff_receipt_id: z.uuid(),
    handoff_observed_at: dateTime,
    outcome_receipt_id: z.uuid().optional(),
    outcome: z.enum(OUTCOMES).optional(),
    charge_status: z.enum(CHARGE_STATUSES).optional(),
    billed_cents: z.number().int().min(0).optional().openapi({ format: "int64" }),
    outcome_recorded_at: dateTime.optional(),
  })
  .strict()
  .openapi("PilotRecentEvent");

const PilotStatusSchema = z
  .object({
    pilot_status: z
      .object({
        as_of: z.iso.datetime().openapi({ description: "The read's consistency boundary" }),
        provider_claim_id: z.uuid(),
        domain: z.string(),
        claim_status: z.literal("verified"),
        verification_last_succeeded_at: z.iso.datetime(),
        verification_consecutive_failures: z.number().int().min(0),
        verification_next_check_at: z.iso.datetime().optional(),
        company_owner_verified: z.boolean(),
        company_accepted_at: z.iso.datetime().optional(),
        company_owner_verified_at: z.iso.datetime().optional(),
        company_acceptance_id: z.uuid().optional(),
        offers: z.array(PilotOfferStatusSchema).max(100),
        recent_observed_handoffs: z.array(PilotRecentEventSchema).max(100),
      })
      .strict(),
    evidence_scope: z.string(),
  })
  .openapi("PilotStatusResponse");

export const pilotStatusRoute = createRoute({
  method: "get",
  path: "/provider/pilot-status",
  operationId: "getProviderPilotStatus",
  tags: ["provider"],
  summary: "Where the key's claim stands in the pilot",
  description:
    "The authenticated claim's verification state, its offers (newest first) with their commercial evidence, and recent tickets past an observed handoff, all read in one read-only repeatable-read transaction whose start is as_of. `limit` (1 to 100, default 25) caps each collection. Never credentials, attribution material, receipts, intent, queries, identities or action URLs. 404 when the claim is no longer verified and fresh; 503 when keys cannot be checked. 240 per hour per key. Cache-Control: private, no-store.",
  security: PROVIDER_KEY_SECURITY,
  middleware: [requireProviderKey({ verify: verifyProviderKey, whenClaimNotFresh: 404 })],
  request: { query: PilotStatusQuerySchema },
  responses: {
    200: { description: "Pilot status", content: { "application/json": { schema: PilotStatusSchema } } },
    ...problemResponses(400, 401, 404, 429, 500, 503),
  },
});

export function registerPilotStatus(app: OpenAPIHono<AppEnv>) {
  app.openapi(pilotStatusRoute, async (c) => {
    const { limit } = c.req.valid("query");
    const actor = providerKeyActorOf(c.var.actor);
    // The snapshot only reads: it runs beside the count, whose 429 still wins (one round trip saved).
    const status = await readBesideGuard(
      spendRateLimit(c, { ...PILOT_STATUS_LIMIT, identify: () => `key:${actor.keyId}` }),
      () => readPilotStatus({ ctx: c.var.deps, actor, input: { limit } }),
    );
    c.header("Cache-Control", "private, no-store");
    return c.json(status, 200);
  });
}
