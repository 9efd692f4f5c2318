import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { CURRENCY, PRIORITY_PRODUCT, SCORE_FIX } from "../../domain/commerce/catalog.ts";
import type { AppEnv } from "../../http/context.ts";
import { problemResponses } from "../shared/schemas.ts";
import { PriorityLimitsSchema } from "./schemas.ts";

export const CatalogSchema = z
  .object({
    currency: z.literal(CURRENCY),
    products: z.array(
      z.union([
        z.object({
          product_id: z.literal(SCORE_FIX.product_id),
          kind: z.literal("service"),
          name: z.string(),
          description: z.string(),
          amount: z.number().int().openapi({ description: "Price in the currency's smallest unit (cents)" }),
          currency: z.literal(CURRENCY),
          billing: z.literal("one_time"),
          checkout_endpoint: z.string(),
        }),
        z.object({
          product_id: z.literal(PRIORITY_PRODUCT.product_id),
          kind: z.literal("subscription"),
          name: z.string(),
          description: z.string(),
          plans: z.array(
            z.object({
              plan: z.string(),
              name: z.string(),
              description: z.string(),
              amount: z.number().int(),
              currency: z.literal(CURRENCY),
              interval: z.literal("month"),
              limits: PriorityLimitsSchema,
            }),
          ),
          checkout_endpoint: z.string(),
        }),
      ]),
    ),
    free_discovery: z.literal(true).openapi({ description: "Baseline discovery stays free" }),
  })
  .openapi("Catalog");

export const getCatalogRoute = createRoute({
  method: "get",
  path: "/catalog",
  operationId: "getCatalog",
  tags: ["commerce"],
  summary: "The score-fix service and the priority key's subscription plans, with prices",
  description:
    "What can be bought: the score-fix service (`svc_geo_fix_my_score`, one payment) and the priority-throughput key (`svc_api_unlimited`, plan `unlimited`, monthly). Amounts are in cents. Nothing here changes ranking or scores; discovery stays free.",
  security: [],
  responses: {
    200: { description: "The catalog", content: { "application/json": { schema: CatalogSchema } } },
    ...problemResponses(400),
  },
});

export function registerGetCatalog(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCatalogRoute, (c) => {
    c.header("Cache-Control", "public, max-age=300");
    return c.json({ currency: CURRENCY, products: [SCORE_FIX, PRIORITY_PRODUCT], free_discovery: true as const }, 200);
  });
}
