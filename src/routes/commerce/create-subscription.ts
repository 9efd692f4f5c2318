import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { PLAN_IDS, PRIORITY_PLAN, PRIORITY_PRODUCT_ID } from "../../domain/commerce/catalog.ts";
import { createPrioritySubscription, paymentsUnavailable } from "../../domain/commerce/checkout.ts";
import type { AppEnv } from "../../http/context.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { problemResponses } from "../shared/schemas.ts";
import { CHECKOUT_LIMIT } from "./create-checkout.ts";

export const SubscribeRequestSchema = z
  .strictObject({
    email: z.email({ error: "must be an e-mail address" }).max(254),
    plan: z.enum(PLAN_IDS).default(PRIORITY_PLAN),
  })
  .openapi("SubscribeRequest");

export const SubscriptionCheckoutSchema = z
  .object({
    order_id: z.uuid(),
    product_id: z.literal(PRIORITY_PRODUCT_ID),
    plan: z.enum(PLAN_IDS),
    amount: z.number().int(),
    currency: z.string(),
    interval: z.literal("month"),
    checkout_url: z.string().openapi({ description: "Stripe Checkout's hosted page: send the buyer there" }),
    checkout_session_id: z.string(),
    activation_url: z
      .string()
      .openapi({ description: "Open once the checkout is paid: shows the key once (Stripe also returns there)" }),
  })
  .openapi("SubscriptionCheckout");

export const createSubscriptionRoute = createRoute({
  method: "post",
  path: "/api-keys/subscribe",
  operationId: "createSubscription",
  tags: ["commerce"],
  summary: "Start buying a priority key: Stripe Checkout's URL and the activation URL",
  description: `Records a priority-key order and opens a hosted Stripe Checkout subscription for it. Pay at \`checkout_url\`; Stripe then sends the buyer to \`activation_url\`, which shows the key once. 503 when payments are not configured; ${CHECKOUT_LIMIT.limit} per hour per client (shared with POST /checkout).`,
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: SubscribeRequestSchema } } } },
  responses: {
    200: {
      description: "Checkout and activation URLs",
      content: { "application/json": { schema: SubscriptionCheckoutSchema } },
    },
    ...problemResponses(400, 429, 503),
  },
});

export function registerCreateSubscription(app: OpenAPIHono<AppEnv>) {
  app.openapi(createSubscriptionRoute, async (c) => {
    const { email, plan } = c.req.valid("json");
    if (!c.var.deps.payments) throw paymentsUnavailable();
    await spendRateLimit(c, CHECKOUT_LIMIT);
    const checkout = await createPrioritySubscription({ ctx: c.var.deps, input: { email, plan } });
    c.header("Cache-Control", "no-store");
    return c.json(checkout, 200);
  });
}
