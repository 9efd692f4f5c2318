import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { paymentsUnavailable } from "../../domain/commerce/checkout.ts";
import { HANDLED_EVENT_TYPES, receiveStripeWebhook } from "../../domain/commerce/stripe-webhook.ts";
import type { AppEnv } from "../../http/context.ts";
import { problemResponses } from "../shared/schemas.ts";

export const WebhookReceiptSchema = z
  .object({
    received: z.literal(true),
    event_id: z.string(),
    type: z.string(),
    duplicate: z.boolean().openapi({ description: "True when this event was handled before: nothing changed now" }),
  })
  .openapi("StripeWebhookReceipt");

export const stripeWebhookRoute = createRoute({
  method: "post",
  path: "/webhooks/stripe",
  operationId: "receiveStripeWebhook",
  tags: ["commerce"],
  summary: "Stripe's webhook: signed events that fulfil orders and keep priority keys in step",
  description: `Called by Stripe, not by clients. The \`Stripe-Signature\` header is verified over the exact body with the endpoint's signing secret (\`constructEventAsync\`; timestamps older than 300 s are refused): 400 when it is missing, wrong or stale. Each event is handled once by its id (a redelivery answers \`duplicate: true\` and changes nothing). Handled: ${HANDLED_EVENT_TYPES.join(", ")}; other verified events are acknowledged and ignored. 503 when payments are not configured.`,
  security: [],
  request: {
    headers: z.object({ "stripe-signature": z.string().optional() }),
    body: { required: true, content: { "application/json": { schema: z.object({}).catchall(z.unknown()) } } },
  },
  responses: {
    200: { description: "Event received", content: { "application/json": { schema: WebhookReceiptSchema } } },
    ...problemResponses(400, 503),
  },
});

export function registerStripeWebhook(app: OpenAPIHono<AppEnv>) {
  // Registered without the JSON validator: the signature covers the exact bytes, so the body is
  // read as text and parsed only by the verifier.
  app.openAPIRegistry.registerPath(stripeWebhookRoute);
  app.post(stripeWebhookRoute.path, async (c) => {
    const deps = c.var.deps;
    // Unconfigured: refused before the body is read.
    if (!deps.payments) throw paymentsUnavailable();
    const { event, outcome } = await receiveStripeWebhook({
      ctx: deps,
      input: { payload: await c.req.text(), signature: c.req.header("stripe-signature") },
    });
    c.header("Cache-Control", "no-store");
    return c.json({ received: true as const, event_id: event.id, type: event.type, duplicate: !outcome.recorded }, 200);
  });
}
