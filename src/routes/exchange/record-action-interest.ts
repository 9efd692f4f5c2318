import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { ACTION_INTEREST_CONFIRMATION_VERSION, ACTION_TYPES } from "../../domain/search-receipts/receipt-constants.ts";
import { recordActionInterest } from "../../domain/search-receipts/record-action-interest.ts";
import { SEARCH_ID_PATTERN } from "../../domain/search-receipts/search-id.ts";
import type { AppEnv } from "../../http/context.ts";
import { refuseCrossOriginBrowserMutations } from "../../http/middleware/refuse-cross-origin.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { problemResponses } from "../shared/schemas.ts";
import { storableText } from "../shared/text.ts";

/** The abuse limit of action interests; the spec leaves the figure open. */
export const ACTION_INTEREST_LIMIT = { name: "action-interests", limit: 60, window: "1 h" } as const;

export const ActionInterestRequestSchema = z
  .strictObject({
    search_id: z
      .string()
      .regex(SEARCH_ID_PATTERN, { error: "must be a search_id as returned by search" })
      .openapi({ description: "The search_id of the search whose result the principal wants to act on" }),
    domain: storableText().min(1).max(253).openapi({ description: "One of the sidecar's eligible_domains" }),
    action_type: z
      .enum(ACTION_TYPES, { error: `must be one of ${ACTION_TYPES.join(", ")}` })
      .openapi({ description: "The action the principal explicitly asked for on that result" }),
    caller_attests_principal_interest: z
      .literal(true, {
        error: "must be true: the caller attests its principal's explicit, current interest",
      })
      .openapi({ description: "Always true: the caller attests its principal's explicit, current interest" }),
    confirmation_version: z
      .literal(ACTION_INTEREST_CONFIRMATION_VERSION, {
        error: `must be ${ACTION_INTEREST_CONFIRMATION_VERSION}`,
      })
      .openapi({ description: "The consent wording the attestation refers to, as the call contract fixes it" }),
  })
  .openapi("ActionInterestRequest");

export const ActionInterestReceiptSchema = z
  .object({
    receipt_id: z.uuid(),
    search_id: z.string(),
    domain: z.string(),
    action_type: z.enum(ACTION_TYPES),
    caller_attests_principal_interest: z.literal(true),
    confirmation_version: z.literal(ACTION_INTEREST_CONFIRMATION_VERSION),
    recorded_at: z.iso.datetime(),
    expires_at: z.iso.datetime().openapi({ description: "The source search's expiry" }),
    provider_contacted: z.literal(false),
    ticket_created: z.literal(false),
    charge_created: z.literal(false),
    commercial_proof: z.literal(false),
    organic_rank_affected: z.literal(false),
  })
  .openapi("ActionInterestReceipt");

export const recordActionInterestRoute = createRoute({
  method: "post",
  path: "/action-interests",
  operationId: "recordActionInterest",
  tags: ["exchange"],
  summary: "Record an attested principal interest in one action on one returned organic result",
  description:
    "Records a private, query-free demand receipt: the caller attests its principal's explicit, current interest (svc-action-interest-v1) in one action on one domain its search returned organically. The receipt expires with its source search. It contacts no provider, creates no ticket or charge, is not commercial proof and changes no rank or score. 404 when the source is missing, stale, synthetic or did not return the domain (indistinguishable); 409 when that result already recorded a different action; 403 for a cross-origin browser request. 60 per hour per client, counted once the body is valid.",
  // Public: the spec's Authentication lists it under "none".
  security: [],
  request: {
    body: { required: true, content: { "application/json": { schema: ActionInterestRequestSchema } } },
  },
  responses: {
    201: {
      description: "New receipt",
      content: { "application/json": { schema: ActionInterestReceiptSchema } },
    },
    200: {
      description: "Exact idempotent replay of an earlier receipt",
      content: { "application/json": { schema: ActionInterestReceiptSchema } },
    },
    ...problemResponses(400, 403, 404, 409, 429, 503),
  },
});

export function registerRecordActionInterest(app: OpenAPIHono<AppEnv>) {
  app.use(recordActionInterestRoute.path, refuseCrossOriginBrowserMutations());
  app.openapi(recordActionInterestRoute, async (c) => {
    const body = c.req.valid("json");
    await spendRateLimit(c, ACTION_INTEREST_LIMIT);
    const { created, receipt } = await recordActionInterest({
      ctx: c.var.deps,
      input: { searchId: body.search_id, domain: body.domain, actionType: body.action_type },
    });
    c.header("Cache-Control", "private, no-store");
    return created ? c.json(receipt, 201) : c.json(receipt, 200);
  });
}
