import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { prepareTicket } from "../../domain/tickets/prepare-ticket.ts";
import { TICKET_LIMIT } from "../../domain/tickets/ticket-constants.ts";
import { requestFingerprint, requireSigning } from "../../domain/tickets/ticket-context.ts";
import type { AppEnv } from "../../http/context.ts";
import { noStore } from "../../http/middleware/no-store.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { problemResponses } from "../shared/schemas.ts";
import { ActionTicketRequestSchema, ActionTicketSchema } from "./ticket-schemas.ts";

export const prepareActionTicketRoute = createRoute({
  method: "post",
  path: "/action-tickets",
  operationId: "prepareActionTicket",
  tags: ["exchange"],
  summary: "Prepare an action ticket for an offer a committed search disclosed",
  description:
    "Contract svc-action-ticket-preparation-v2. Requires a committed, live, non-synthetic search receipt whose paid_offers disclosed this offer, the caller's attestation of the principal's consent (consent_version \"principal-consent v1\") and a controlled intent from closed vocabularies; any other field (a name, e-mail, contact, prompt, agent or principal identity) is refused with 400. Returns the signed attribution bearer (compact JWS, HS256, with a key id, bound to the ticket, offer version and terms hash, expiring) and the POST handoff endpoint, never the provider's action URL. Charges nobody. 201 new ticket; 200 exact replay with the bearer rebuilt from the stored ticket; 404 offer or returned-offer evidence unavailable (indistinguishable); 409 provider claim, authorization, commercial evidence or funded capacity (the offer's terms_credit_limit_cents per terms_period_days, counting what is charged and what open tickets could still charge) unavailable, or a different earlier ticket of this search and offer; 410 replay of an expired authorization; 429 over 60 per hour per client; 503 signing not configured. Every answer is Cache-Control: private, no-store.",
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: ActionTicketRequestSchema } } } },
  responses: {
    201: { description: "New ticket", content: { "application/json": { schema: ActionTicketSchema } } },
    200: {
      description: "Exact replay of an earlier ticket (bearer rebuilt from its snapshot)",
      content: { "application/json": { schema: ActionTicketSchema } },
    },
    ...problemResponses(400, 404, 409, 410, 429, 503),
  },
});

export function registerPrepareActionTicket(app: OpenAPIHono<AppEnv>) {
  app.use(prepareActionTicketRoute.path, noStore());
  app.openapi(prepareActionTicketRoute, async (c) => {
    const body = c.req.valid("json");
    const ctx = c.var.deps;
    // No signer, no ticket: answered before any quota is spent or anything read.
    requireSigning(ctx);
    await spendRateLimit(c, TICKET_LIMIT);
    const { created, ticket } = await prepareTicket({
      ctx,
      input: {
        searchId: body.search_id,
        offerId: body.offer_id,
        intent: body.controlled_intent,
        requestSha256: await requestFingerprint(body),
      },
    });
    return created ? c.json(ticket, 201) : c.json(ticket, 200);
  });
}
