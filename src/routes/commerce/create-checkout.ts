import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { CURRENCY, PRIORITY_PRODUCT_ID, PRODUCT_IDS, SCORE_FIX_PRODUCT_ID } from "../../domain/commerce/catalog.ts";
import { createScoreFixCheckout, normalizeOrderHost, paymentsUnavailable } from "../../domain/commerce/checkout.ts";
import { DomainError } from "../../domain/errors.ts";
import type { AppEnv } from "../../http/context.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { problemResponses } from "../shared/schemas.ts";
import { storableText } from "../shared/text.ts";

/** Checkouts opened per client; the spec leaves the figure open. */
export const CHECKOUT_LIMIT = { name: "checkout", limit: 20, window: "1 h" } as const;
export const NOTES_MAX_LENGTH = 2000;

export const CheckoutRequestSchema = z
  .strictObject({
    host: storableText()
      .min(1)
      .max(2048)
      .openapi({ description: "The site to fix: a domain or URL, normalised like a submitted URL" }),
    email: z.email({ error: "must be an e-mail address" }).max(254),
    product_id: z.enum(PRODUCT_IDS).default(SCORE_FIX_PRODUCT_ID),
    payment_mode: z
      .enum(["card_checkout", "card"])
      .default("card_checkout")
      .openapi({ description: "card_checkout: Stripe's hosted page; card (direct card entry) is not offered: 501" }),
    repo_url: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .max(2048)
      .optional(),
    notes: storableText()
      .max(NOTES_MAX_LENGTH)
      .optional()
      .openapi({ description: "Kept with the order as plain text; never shown as HTML" }),
  })
  .openapi("CheckoutRequest");

export const CheckoutSchema = z
  .object({
    order_id: z.uuid(),
    status: z.literal("pending"),
    product_id: z.literal(SCORE_FIX_PRODUCT_ID),
    host: z.string(),
    email: z.string(),
    amount: z.number().int(),
    total: z.number().int(),
    currency: z.literal(CURRENCY),
    payment_mode: z.literal("card_checkout"),
    checkout_url: z.string().openapi({ description: "Stripe Checkout's hosted page: send the buyer there" }),
    checkout_session_id: z.string(),
    created_at: z.iso.datetime(),
  })
  .openapi("Checkout");

export const createCheckoutRoute = createRoute({
  method: "post",
  path: "/checkout",
  operationId: "createCheckout",
  tags: ["commerce"],
  summary: "Order a score fix: records the order and answers Stripe Checkout's URL",
  description: `Records a score-fix order for \`host\` (normalised like a submitted URL: IDNA, lower case; a bare host is read as https) and opens a hosted Stripe Checkout for it (201 with \`checkout_url\`). \`payment_mode\` \`card\` (direct card entry) is 501: card data never reaches the service. \`product_id\` \`${PRIORITY_PRODUCT_ID}\` is bought through POST /api-keys/subscribe (400 here). The order is paid when Stripe's signed webhook says so. 503 when payments are not configured; ${CHECKOUT_LIMIT.limit} per hour per client.`,
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: CheckoutRequestSchema } } } },
  responses: {
    201: {
      description: "Order recorded; pay at checkout_url",
      content: { "application/json": { schema: CheckoutSchema } },
    },
    ...problemResponses(400, 429, 501, 503),
  },
});

export function registerCreateCheckout(app: OpenAPIHono<AppEnv>) {
  app.openapi(createCheckoutRoute, async (c) => {
    const body = c.req.valid("json");
    if (body.payment_mode === "card") {
      throw new DomainError(
        "not_implemented",
        "PAYMENT_MODE_UNSUPPORTED",
        "Direct card entry is not offered: use payment_mode card_checkout (Stripe's hosted page).",
      );
    }
    if (body.product_id !== SCORE_FIX_PRODUCT_ID) {
      throw new DomainError(
        "invalid",
        "PRODUCT_NOT_FOR_CHECKOUT",
        `${body.product_id} is a subscription: buy it through POST /api/v1/api-keys/subscribe.`,
      );
    }
    const deps = c.var.deps;
    const host = normalizeOrderHost(body.host, deps.allowPrivate);
    // Unconfigured payments cost the caller nothing: refused before the limit counts.
    if (!deps.payments) throw paymentsUnavailable();
    await spendRateLimit(c, CHECKOUT_LIMIT);
    const checkout = await createScoreFixCheckout({
      ctx: deps,
      input: { host, email: body.email, repoUrl: body.repo_url, notes: body.notes },
    });
    c.header("Cache-Control", "no-store");
    return c.json(checkout, 201);
  });
}
