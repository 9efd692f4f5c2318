import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { verifyProviderKey } from "../../domain/claims/provider-keys.ts";
import { recordOutcome } from "../../domain/tickets/record-outcome.ts";
import { OUTCOME_IDEMPOTENCY_KEY } from "../../domain/tickets/ticket-constants.ts";
import { requestFingerprint, requireSigning } from "../../domain/tickets/ticket-context.ts";
import type { AppEnv } from "../../http/context.ts";
import { noStore } from "../../http/middleware/no-store.ts";
import { providerKeyIdempotent } from "../../http/middleware/provider-key-idempotent.ts";
import { providerKeyActorOf } from "../../http/middleware/require-provider-key.ts";
import { OutcomeRequestSchema, OutcomeResponseSchema } from "../exchange/ticket-schemas.ts";
import { problemResponses } from "../shared/schemas.ts";
import { PROVIDER_KEY_SECURITY } from "./schemas.ts";

const IdempotencyHeaderSchema = z.object({
  "idempotency-key": z
    .string()
    .min(8)
    .max(200)
    .openapi({
      param: { name: "idempotency-key", in: "header", required: true },
      description:
        "Idempotency-Key (header names are case-insensitive): 8 to 200 characters, a letter or digit, then letters, digits, '.', '_', ':' or '-'; scoped to the key's claim",
    }),
});

export const recordOutcomeRoute = createRoute({
  method: "post",
  path: "/provider/outcomes",
  operationId: "recordProviderOutcome",
  tags: ["provider"],
  summary: "Report a ticket's outcome and get its signed receipt",
  description:
    "The provider reports what became of a ticket: attribution_token is the exact signed bearer from the attributed action URL (the authoritative ticket comes from it; a deprecated ticket_id that does not match is refused with 400), outcome one of accepted, activated, converted, rejected, duplicate, invalid. The transition follows the documented table (docs/exchange-tickets.md). The offer's bounty_cents is charged exactly when the outcome equals its charge_event, once per ticket, as a row of an append-only ledger; duplicate or invalid after a charge credits it, even after expiry or revocation, while no positive outcome or new charge crosses those. The receipt is RFC 8785 canonical JSON signed with HMAC-SHA256 (unpadded base64url, key_id, validity window). Idempotency-Key (required, claim-scoped): same key and body answer the stored receipt (200), another body 409. 201 new receipt; 200 exact replay; 400 bad header, body or token; 401 key required; 404 no ticket of this claim for the token; 409 invalid transition, revoked or expired authorization, stale claim or conflicting idempotency payload; 503 signing, key authentication or the idempotency lock unavailable. Cache-Control: private, no-store.",
  security: PROVIDER_KEY_SECURITY,
  // The key's check and the idempotency lock side by side: one store round trip (issue 32).
  middleware: [
    providerKeyIdempotent({
      key: { verify: verifyProviderKey, whenClaimNotFresh: 409 },
      idempotency: {
        name: "provider-outcome",
        ...OUTCOME_IDEMPOTENCY_KEY,
        // A duplicate waits at most 1 s for the first, then meets the unique constraint itself.
        waitMs: 1_000,
      },
    }),
  ],
  request: {
    headers: IdempotencyHeaderSchema,
    body: { required: true, content: { "application/json": { schema: OutcomeRequestSchema } } },
  },
  responses: {
    201: {
      description: "New signed outcome receipt",
      content: { "application/json": { schema: OutcomeResponseSchema } },
    },
    200: { description: "Exact idempotent replay", content: { "application/json": { schema: OutcomeResponseSchema } } },
    ...problemResponses(400, 401, 404, 409, 503),
  },
});

export function registerRecordOutcome(app: OpenAPIHono<AppEnv>) {
  app.use(recordOutcomeRoute.path, noStore());
  app.openapi(recordOutcomeRoute, async (c) => {
    const body = c.req.valid("json");
    const actor = providerKeyActorOf(c.var.actor);
    const ctx = c.var.deps;
    requireSigning(ctx);
    const { created, answer } = await recordOutcome({
      ctx,
      actor,
      input: {
        bearer: body.attribution_token,
        outcome: body.outcome,
        ticketId: body.ticket_id,
        idempotencyKey: c.req.valid("header")["idempotency-key"],
        requestSha256: await requestFingerprint(body),
      },
    });
    return created ? c.json(answer, 201) : c.json(answer, 200);
  });
}
