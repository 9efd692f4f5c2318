import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { verifyOutcomeReceipt } from "../../domain/tickets/outcome-receipts.ts";
import { RECEIPT_VERIFY_LIMIT } from "../../domain/tickets/ticket-constants.ts";
import { requireSigning } from "../../domain/tickets/ticket-context.ts";
import type { AppEnv } from "../../http/context.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { problemResponses } from "../shared/schemas.ts";
import { ReceiptVerificationSchema, ReceiptVerifyRequestSchema } from "./ticket-schemas.ts";

export const verifyActionReceiptRoute = createRoute({
  method: "post",
  path: "/action-receipts/verify",
  operationId: "verifyActionReceipt",
  tags: ["exchange"],
  summary: "Verify a signed outcome receipt and read its ticket's current state",
  description:
    "Body: signed_receipt (the exact canonical JSON the service returned) and signature (its unpadded base64url HMAC-SHA256). 200 says whether the signature is valid under the receipt's key_id, where now stands in its validity window (time_status current, expired, not_yet_valid or invalid_time), and, for a validly signed receipt, the current public state of its ticket (current_state_status current, not_found or unavailable when the database cannot be read). 400 when signed_receipt is not a JSON object or a field is missing or unknown; 429 over 240 per hour per client; 503 signing not configured. Writes nothing.",
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: ReceiptVerifyRequestSchema } } } },
  responses: {
    200: { description: "The verification", content: { "application/json": { schema: ReceiptVerificationSchema } } },
    ...problemResponses(400, 429, 503),
  },
});

export function registerVerifyActionReceipt(app: OpenAPIHono<AppEnv>) {
  app.openapi(verifyActionReceiptRoute, async (c) => {
    const body = c.req.valid("json");
    const ctx = c.var.deps;
    requireSigning(ctx);
    await spendRateLimit(c, RECEIPT_VERIFY_LIMIT);
    const verification = await verifyOutcomeReceipt({
      ctx,
      input: { signedReceipt: body.signed_receipt, signature: body.signature },
    });
    c.header("Cache-Control", "no-store");
    return c.json(verification, 200);
  });
}
