import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { PRIORITY_PRODUCT_ID } from "../../domain/commerce/catalog.ts";
import { priorityPlanContract } from "../../domain/commerce/checkout.ts";
import type { AppEnv } from "../../http/context.ts";
import { problemResponses } from "../shared/schemas.ts";
import { PriorityLimitsSchema } from "./schemas.ts";

export const SubscriptionPlanSchema = z
  .object({
    product_id: z.literal(PRIORITY_PRODUCT_ID),
    name: z.string(),
    description: z.string(),
    plans: z.array(
      z.object({
        plan: z.string(),
        name: z.string(),
        description: z.string(),
        amount: z.number().int(),
        currency: z.string(),
        interval: z.literal("month"),
        limits: PriorityLimitsSchema,
      }),
    ),
    checkout: z.object({
      method: z.literal("POST"),
      url: z.string(),
      body: z.record(z.string(), z.string()),
      returns: z.array(z.string()),
    }),
    activation: z.object({ method: z.literal("GET"), url: z.string(), rule: z.string() }),
    presentation: z.literal("Authorization: Bearer <key>"),
    rules: z.array(z.string()),
  })
  .openapi("SubscriptionPlan");

export const getSubscriptionPlanRoute = createRoute({
  method: "get",
  path: "/api-keys/subscribe",
  operationId: "getSubscriptionPlan",
  tags: ["commerce"],
  summary: "The priority key's plan, limits and checkout contract",
  description:
    "The optional priority-throughput key: its plan (`unlimited`, monthly), its ceilings (search 5000/h, live verification and /check 100/h per key while the 50,000-call monthly allocation lasts, then the free tier), how to buy it (POST this path) and activate it, and how to present it (`Authorization: Bearer <key>`).",
  security: [],
  responses: {
    200: { description: "The plan and contract", content: { "application/json": { schema: SubscriptionPlanSchema } } },
    ...problemResponses(400),
  },
});

export function registerGetSubscriptionPlan(app: OpenAPIHono<AppEnv>) {
  app.openapi(getSubscriptionPlanRoute, (c) => {
    c.header("Cache-Control", "public, max-age=300");
    return c.json(priorityPlanContract(c.var.deps.origin), 200);
  });
}
