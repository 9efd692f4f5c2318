/** Revoke a claim and every key it holds, in one write. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { revokeClaim } from "../../domain/claims/manage-claims.ts";
import type { AppEnv } from "../../http/context.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { ClaimIdParamSchema, ProviderClaimSchema, SESSION_SECURITY } from "./schemas.ts";
import { jsonContent, sessionMutationMiddleware } from "./session-routes.ts";

export const revokeClaimRoute = createRoute({
  method: "post",
  path: "/provider/claims/{claim_id}/revoke",
  operationId: "revokeProviderClaim",
  tags: ["provider"],
  summary: "Revoke the claim and every key it holds",
  description:
    "Revokes the claim and, in the same write, every key it holds. Revoking a revoked claim changes nothing.",
  security: SESSION_SECURITY,
  middleware: sessionMutationMiddleware(),
  request: { params: ClaimIdParamSchema },
  responses: {
    200: jsonContent(z.object({ claim: ProviderClaimSchema }).openapi("RevokedClaim"), "The claim, revoked"),
    ...problemResponses(400, 401, 403, 404, 503),
  },
});

export function registerRevokeClaim(app: OpenAPIHono<AppEnv>) {
  app.openapi(revokeClaimRoute, async (c) => {
    const { claim_id } = c.req.valid("param");
    c.header("Cache-Control", "private, no-store");
    return c.json(
      await revokeClaim({
        ctx: c.var.deps,
        actor: sessionActorOf(c.var.actor),
        input: { claimId: claim_id },
      }),
      200,
    );
  });
}
