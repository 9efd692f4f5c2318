/** Check a claim's DNS TXT record now: verifies a pending claim (its first key, once) or rechecks a verified one. */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { verifyClaim } from "../../domain/claims/verify-claim.ts";
import type { AppEnv } from "../../http/context.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { ClaimIdParamSchema, ClaimVerifyResponseSchema, SESSION_SECURITY } from "./schemas.ts";
import { jsonContent, sessionMutationMiddleware } from "./session-routes.ts";

export const verifyClaimRoute = createRoute({
  method: "post",
  path: "/provider/claims/{claim_id}/verify",
  operationId: "verifyProviderClaim",
  tags: ["provider"],
  summary: "Check the DNS TXT record now",
  description:
    "Verifies a pending claim (the first provider key is returned once, by the verification that verified it; a concurrent one answers provider_key_returned false with key_endpoint), or rechecks a verified one with the daily job's effects. 409 when the challenge is missing, mismatched or expired; a failed recheck of a verified claim advances its failure count, and the third revokes it.",
  security: SESSION_SECURITY,
  middleware: sessionMutationMiddleware(),
  request: { params: ClaimIdParamSchema },
  responses: {
    200: jsonContent(ClaimVerifyResponseSchema, "Ownership proven"),
    ...problemResponses(400, 401, 403, 404, 409, 503),
  },
});

export function registerVerifyClaim(app: OpenAPIHono<AppEnv>) {
  app.openapi(verifyClaimRoute, async (c) => {
    const { claim_id } = c.req.valid("param");
    c.header("Cache-Control", "private, no-store");
    return c.json(
      await verifyClaim({
        ctx: c.var.deps,
        actor: sessionActorOf(c.var.actor),
        input: { claimId: claim_id },
      }),
      200,
    );
  });
}
