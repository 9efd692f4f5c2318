/** Replace a claim's DNS challenge; the new value is shown once. */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { rotateChallenge } from "../../domain/claims/manage-claims.ts";
import type { AppEnv } from "../../http/context.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { ClaimChallengeResponseSchema, ClaimIdParamSchema, SESSION_SECURITY } from "./schemas.ts";
import { jsonContent, sessionMutationMiddleware } from "./session-routes.ts";

export const rotateChallengeRoute = createRoute({
  method: "post",
  path: "/provider/claims/{claim_id}/challenge",
  operationId: "rotateProviderClaimChallenge",
  tags: ["provider"],
  summary: "Replace the DNS challenge",
  description:
    "A new challenge value, shown once; the old one stops counting. On a verified claim, later checks expect the new value.",
  security: SESSION_SECURITY,
  middleware: sessionMutationMiddleware(),
  request: { params: ClaimIdParamSchema },
  responses: {
    200: jsonContent(ClaimChallengeResponseSchema, "The claim with its rotated challenge, shown once"),
    ...problemResponses(400, 401, 403, 404, 409, 503),
  },
});

export function registerRotateClaimChallenge(app: OpenAPIHono<AppEnv>) {
  app.openapi(rotateChallengeRoute, async (c) => {
    const { claim_id } = c.req.valid("param");
    c.header("Cache-Control", "private, no-store");
    return c.json(
      await rotateChallenge({
        ctx: c.var.deps,
        actor: sessionActorOf(c.var.actor),
        input: { claimId: claim_id },
      }),
      200,
    );
  });
}
