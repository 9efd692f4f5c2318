/** Claim an indexed domain and get its DNS TXT challenge, once. Another account's claim is 404, never 403. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { createClaim } from "../../domain/claims/create-claim.ts";
import type { AppEnv } from "../../http/context.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { ClaimChallengeResponseSchema, SESSION_SECURITY } from "./schemas.ts";
import { jsonContent, sessionMutationMiddleware } from "./session-routes.ts";

export const CreateClaimRequestSchema = z
  .strictObject({ domain: z.string().min(1).max(253).openapi({ description: "An indexed domain, without scheme" }) })
  .openapi("CreateClaimRequest");

export const createClaimRoute = createRoute({
  method: "post",
  path: "/provider/claims",
  operationId: "createProviderClaim",
  tags: ["provider"],
  summary: "Claim an indexed domain: get its DNS TXT challenge",
  description:
    "Creates a pending claim and returns its DNS TXT challenge once (only its SHA-256 is kept). One live claim per account and per domain: 409 otherwise. A domain not in the index answers 404 DOMAIN_NOT_INDEXED (submit it first). A pending claim whose challenge expired no longer holds its domain.",
  security: SESSION_SECURITY,
  middleware: sessionMutationMiddleware(),
  request: { body: { required: true, content: { "application/json": { schema: CreateClaimRequestSchema } } } },
  responses: {
    201: jsonContent(ClaimChallengeResponseSchema, "The pending claim and its challenge, shown once"),
    ...problemResponses(400, 401, 403, 404, 409, 503),
  },
});

export function registerCreateClaim(app: OpenAPIHono<AppEnv>) {
  app.openapi(createClaimRoute, async (c) => {
    const { domain } = c.req.valid("json");
    c.header("Cache-Control", "private, no-store");
    return c.json(
      await createClaim({
        ctx: c.var.deps,
        actor: sessionActorOf(c.var.actor),
        input: { domain },
      }),
      201,
    );
  });
}
