import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { verifyProviderKey } from "../../domain/claims/provider-keys.ts";
import { getProviderReceipt } from "../../domain/tickets/outcome-receipts.ts";
import { PROVIDER_RECEIPTS_LIMIT } from "../../domain/tickets/ticket-constants.ts";
import type { AppEnv } from "../../http/context.ts";
import { providerKeyActorOf, requireProviderKey } from "../../http/middleware/require-provider-key.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { SignedOutcomeReceiptSchema } from "../exchange/ticket-schemas.ts";
import { problemResponses } from "../shared/schemas.ts";
import { PROVIDER_KEY_SECURITY } from "./schemas.ts";

const ReceiptIdParamSchema = z.object({
  receipt_id: z.uuid({ error: "must be a receipt id (a UUID)" }).openapi({ param: { name: "receipt_id", in: "path" } }),
});

export const getProviderReceiptRoute = createRoute({
  method: "get",
  path: "/provider/receipts/{receipt_id}",
  operationId: "getProviderReceipt",
  tags: ["provider"],
  summary: "One of this provider's signed outcome receipts",
  description:
    "The signed outcome receipt exactly as first issued (signed_receipt, signature, key_id), for the key's own claim. 400 malformed id; 401 key required; 404 not found for this provider (another provider's receipt is the same 404), or the key's claim no longer verified and fresh; 429 over 240 per hour per key; 503 key authentication unavailable. Works without the signing capability: the stored signature is served as issued. Cache-Control: private, no-store.",
  security: PROVIDER_KEY_SECURITY,
  middleware: [requireProviderKey({ verify: verifyProviderKey, whenClaimNotFresh: 404 })],
  request: { params: ReceiptIdParamSchema },
  responses: {
    200: { description: "The signed receipt", content: { "application/json": { schema: SignedOutcomeReceiptSchema } } },
    ...problemResponses(400, 401, 404, 429, 503),
  },
});

export function registerGetProviderReceipt(app: OpenAPIHono<AppEnv>) {
  app.openapi(getProviderReceiptRoute, async (c) => {
    const { receipt_id } = c.req.valid("param");
    const actor = providerKeyActorOf(c.var.actor);
    await spendRateLimit(c, { ...PROVIDER_RECEIPTS_LIMIT, identify: () => `key:${actor.keyId}` });
    const answer = await getProviderReceipt({
      ctx: c.var.deps,
      actor,
      receiptId: receipt_id,
    });
    c.header("Cache-Control", "private, no-store");
    return c.json(answer, 200);
  });
}
