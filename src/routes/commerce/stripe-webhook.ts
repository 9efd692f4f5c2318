import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { WebhookSignatureError } from "../../adapters/stripe.ts";
import { paymentsUnavailable } from "../../domain/commerce/checkout.ts";
import { HANDLED_EVENT_TYPES, handleStripeEvent } from "../../domain/commerce/stripe-webhook.ts";
import { DomainError } from "../../domain/errors.ts";
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

const signatureInvalid = (why: string) =>
  new DomainError("invalid", "WEBHOOK_SIGNATURE_INVALID", `The Stripe-Signature header does not verify: ${why}`);

export function registerStripeWebhook(app: OpenAPIHono<AppEnv>) {
  // Registered without the JSON validator: the signature covers the exact bytes, so the body is
  // read as text and parsed only by the verifier.
  app.openAPIRegistry.registerPath(stripeWebhookRoute);
  app.post(stripeWebhookRoute.path, async (c) => {
    const deps = c.var.deps;
    if (!deps.payments) throw paymentsUnavailable();
    const signature = c.req.header("stripe-signature");
    if (!signature) throw signatureInvalid("the header is missing.");
    const payload = await c.req.text();
    let event: Awaited<ReturnType<typeof deps.payments.verifyWebhook>>;
    try {
      event = await deps.payments.verifyWebhook(payload, signature);
    } catch (error) {
      if (error instanceof WebhookSignatureError) throw signatureInvalid(error.message);
      throw error;
    }
    const outcome = await handleStripeEvent({ ctx: deps, event });
    c.header("Cache-Control", "no-store");
    return c.json({ received: true as const, event_id: event.id, type: event.type, duplicate: !outcome.recorded }, 200);
  });
}
