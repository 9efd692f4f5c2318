import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { verifyProviderKey } from "../../domain/claims/provider-keys.ts";
import { resolveIntent } from "../../domain/tickets/resolve-intent.ts";
import { RESOLVE_LIMIT } from "../../domain/tickets/ticket-constants.ts";
import { requireSigning } from "../../domain/tickets/ticket-context.ts";
import type { AppEnv } from "../../http/context.ts";
import { noStore } from "../../http/middleware/no-store.ts";
import { providerKeyActorOf, requireProviderKey } from "../../http/middleware/require-provider-key.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { ControlledIntentResolutionSchema, ResolveRequestSchema } from "../exchange/ticket-schemas.ts";
import { problemResponses } from "../shared/schemas.ts";
import { PROVIDER_KEY_SECURITY } from "./schemas.ts";

export const resolveControlledIntentRoute = createRoute({
  method: "post",
  path: "/provider/action-tickets/resolve",
  operationId: "resolveControlledIntent",
  tags: ["provider"],
  summary: "Resolve a handed-off ticket's controlled intent",
  description:
    "Contract svc-provider-controlled-intent-resolver-v1. The body is only the exact signed attribution bearer (attribution_token) the provider received in the attributed action URL. Returns only the controlled topic, the optional region code, the USD budget band, the urgency, the allowlisted requirement flags and opaque binding metadata: no query, search receipt, identity, contact, network data, action URL, price, accounting data, charge, outcome or commercial proof. Available only to the ticket's own claim, only after an observed handoff that carried svc-provider-controlled-intent-disclosure-consent-v1, and only while the ticket's authorization runs. Free. 400 malformed, unknown-field, empty or badly signed bearer; 401 key required; 404 wrong claim, missing consent or ineligible state (indistinguishable), or the key's claim no longer verified and fresh; 410 a correctly signed bearer that expired; 429 over 240 per hour per key; 503 signing or key authentication unavailable. Cache-Control: private, no-store.",
  security: PROVIDER_KEY_SECURITY,
  middleware: [requireProviderKey({ verify: verifyProviderKey, whenClaimNotFresh: 404 })],
  request: { body: { required: true, content: { "application/json": { schema: ResolveRequestSchema } } } },
  responses: {
    200: {
      description: "The controlled-intent bundle",
      content: { "application/json": { schema: ControlledIntentResolutionSchema } },
    },
    ...problemResponses(400, 401, 404, 410, 429, 503),
  },
});

export function registerResolveControlledIntent(app: OpenAPIHono<AppEnv>) {
  app.use(resolveControlledIntentRoute.path, noStore());
  app.openapi(resolveControlledIntentRoute, async (c) => {
    const body = c.req.valid("json");
    const actor = providerKeyActorOf(c.var.actor);
    const ctx = c.var.deps;
    requireSigning(ctx);
    await spendRateLimit(c, { ...RESOLVE_LIMIT, identify: () => `key:${actor.keyId}` });
    return c.json(await resolveIntent({ ctx, actor, input: { bearer: body.attribution_token } }), 200);
  });
}
