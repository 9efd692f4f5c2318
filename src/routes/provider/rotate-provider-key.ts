/** Issue a new provider key for a verified claim; every earlier key is revoked in the same transaction. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { rotateProviderKey } from "../../domain/claims/manage-claims.ts";
import type { AppEnv } from "../../http/context.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { ClaimIdParamSchema, ProviderKeyMetadataSchema, SESSION_SECURITY } from "./schemas.ts";
import { jsonContent, sessionMutationMiddleware } from "./session-routes.ts";

export const RotatedKeySchema = z
  .object({
    claim_id: z.uuid(),
    provider_key: z.string().openapi({ description: "The new key, returned once" }),
    provider_key_metadata: ProviderKeyMetadataSchema,
    save_this_key_now: z.literal(true),
    prior_keys_revoked: z.literal(true),
  })
  .openapi("RotatedProviderKey");

export const rotateKeyRoute = createRoute({
  method: "post",
  path: "/provider/claims/{claim_id}/keys/rotate",
  operationId: "rotateProviderKey",
  tags: ["provider"],
  summary: "Issue a new provider key; every earlier key is revoked",
  description:
    "Returns a new key once and revokes every earlier key of the claim in the same transaction. Only a verified claim holds keys (409 otherwise).",
  security: SESSION_SECURITY,
  middleware: sessionMutationMiddleware(),
  request: { params: ClaimIdParamSchema },
  responses: {
    200: jsonContent(RotatedKeySchema, "The new key, returned once"),
    ...problemResponses(400, 401, 403, 404, 409, 503),
  },
});

export function registerRotateProviderKey(app: OpenAPIHono<AppEnv>) {
  app.openapi(rotateKeyRoute, async (c) => {
    const { claim_id } = c.req.valid("param");
    c.header("Cache-Control", "private, no-store");
    return c.json(
      await rotateProviderKey({
        ctx: c.var.deps,
        actor: sessionActorOf(c.var.actor),
        input: { claimId: claim_id },
      }),
      200,
    );
  });
}
