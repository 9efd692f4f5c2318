import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { handOffTicket } from "../../domain/tickets/hand-off-ticket.ts";
import { HANDOFF_LIMIT } from "../../domain/tickets/ticket-constants.ts";
import { requireSigning } from "../../domain/tickets/ticket-context.ts";
import type { AppEnv } from "../../http/context.ts";
import { noStore } from "../../http/middleware/no-store.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { problemResponses } from "../shared/schemas.ts";
import { HandoffRequestSchema, HandoffSchema } from "./ticket-schemas.ts";

export const handOffActionTicketRoute = createRoute({
  method: "post",
  path: "/action-tickets/handoff",
  operationId: "handOffActionTicket",
  tags: ["exchange"],
  summary: "Hand the principal off to the provider and get the attributed action URL",
  description:
    "The body (never the URL) carries the ticket id, its raw attribution bearer and the svc-provider-handoff-consent-v1 attestation, and optionally the separate svc-provider-controlled-intent-disclosure-consent-v1 (declining it does not block the handoff). Atomically records one append-only svc-action-handoff-v1 receipt bound to the ticket, offer version, commercial-terms hash and consent versions, then returns the provider's action URL with the bearer in its svc_attribution_token parameter. The receipt holds no query, agent or principal identity, contact data, network address, referrer or user agent. Charges nobody. 201 new receipt and URL; 200 exact replay; 400 invalid JSON, unknown field, ticket id or empty bearer; 404 ticket or bearer not found; 409 commercial evidence unavailable, authorization revoked, ticket terminal or otherwise ineligible, or already handed off with another disclosure consent; 410 attribution expired; 429 over 60 per hour per client; 503 signing not configured. Every answer is Cache-Control: private, no-store.",
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: HandoffRequestSchema } } } },
  responses: {
    201: {
      description: "Handoff recorded; the attributed URL",
      content: { "application/json": { schema: HandoffSchema } },
    },
    200: { description: "Exact replay of the handoff", content: { "application/json": { schema: HandoffSchema } } },
    ...problemResponses(400, 404, 409, 410, 429, 503),
  },
});

export function registerHandOffActionTicket(app: OpenAPIHono<AppEnv>) {
  app.use(handOffActionTicketRoute.path, noStore());
  app.openapi(handOffActionTicketRoute, async (c) => {
    const body = c.req.valid("json");
    const ctx = c.var.deps;
    requireSigning(ctx);
    await spendRateLimit(c, HANDOFF_LIMIT);
    const { created, handoff } = await handOffTicket({
      ctx,
      input: {
        ticketId: body.ticket_id,
        bearer: body.attribution_bearer,
        disclosureConsent: body.controlled_intent_disclosure_consent_version !== undefined,
      },
    });
    return created ? c.json(handoff, 201) : c.json(handoff, 200);
  });
}
