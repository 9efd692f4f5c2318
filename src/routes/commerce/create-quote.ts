import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { PLAN_IDS, PRODUCT_IDS } from "../../domain/commerce/catalog.ts";
import { createQuote } from "../../domain/commerce/checkout.ts";
import type { AppEnv } from "../../http/context.ts";
import { problemResponses } from "../shared/schemas.ts";

export const QuoteRequestSchema = z
  .strictObject({
    product_id: z.enum(PRODUCT_IDS).optional().openapi({ description: "Default svc_geo_fix_my_score" }),
    plan: z.enum(PLAN_IDS).optional().openapi({ description: "Only for svc_api_unlimited (default unlimited)" }),
  })
  .openapi("QuoteRequest");

export const QuoteSchema = z
  .object({
    product_id: z.enum(PRODUCT_IDS),
    plan: z.enum(PLAN_IDS).nullable(),
    name: z.string(),
    quantity: z.literal(1),
    amount: z.number().int().openapi({ description: "Unit price in cents" }),
    total: z.number().int().openapi({ description: "What the checkout charges, in cents (no tax is added)" }),
    currency: z.string(),
    interval: z
      .literal("month")
      .nullable()
      .openapi({ description: "month for the subscription, null for one payment" }),
    checkout: z
      .object({
        method: z.literal("POST"),
        url: z.string(),
        payment_mode: z.literal("card_checkout"),
        required_fields: z.array(z.string()),
        optional_fields: z.array(z.string()),
        metadata: z.record(z.string(), z.string()),
      })
      .openapi({ description: "The checkout this quote is paid through and the metadata it requires" }),
  })
  .openapi("Quote");

export const createQuoteRoute = createRoute({
  method: "post",
  path: "/quote",
  operationId: "createQuote",
  tags: ["commerce"],
  summary: "Price one catalog item and name the checkout it needs",
  description:
    "Optional body `{product_id, plan}`: no body (or `{}`) quotes the score fix; `plan` alone, or `product_id` `svc_api_unlimited`, quotes the priority key's plan. Unknown products, plans or fields, and a plan with the score fix, are 400. Nothing is stored.",
  security: [],
  request: { body: { required: false, content: { "application/json": { schema: QuoteRequestSchema } } } },
  responses: {
    200: { description: "The quote", content: { "application/json": { schema: QuoteSchema } } },
    ...problemResponses(400),
  },
});

export function registerCreateQuote(app: OpenAPIHono<AppEnv>) {
  app.openapi(createQuoteRoute, (c) => {
    const input = (c.req.valid("json") as z.output<typeof QuoteRequestSchema> | undefined) ?? {};
    c.header("Cache-Control", "no-store");
    return c.json(createQuote(c.var.deps.origin, input), 200);
  });
}
