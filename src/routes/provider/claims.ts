/**
 * The provider setup endpoints on a session: claims of indexed domains, proven by DNS TXT, and
 * the claim-scoped provider key. Another account's claim is 404, never 403. Mutations come only
 * from the service's own pages or same-origin clients (the session is a browser cookie).
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { verifySessionToken } from "../../domain/accounts/sign-in.ts";
import { createClaim } from "../../domain/claims/create-claim.ts";
import { listClaims, revokeClaim, rotateChallenge, rotateProviderKey } from "../../domain/claims/manage-claims.ts";
import { verifyClaim } from "../../domain/claims/verify-claim.ts";
import type { AppEnv } from "../../http/context.ts";
import { requireSameOrigin } from "../../http/middleware/require-same-origin.ts";
import { requireSession, sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { storableText } from "../shared/text.ts";
import {
  ClaimChallengeResponseSchema,
  ClaimIdParamSchema,
  ClaimVerifyResponseSchema,
  ProviderClaimSchema,
  ProviderKeyMetadataSchema,
  SESSION_SECURITY,
} from "./schemas.ts";

const session = () => requireSession({ verify: verifySessionToken });
const readMiddleware = [session()];
const mutationMiddleware = [session(), requireSameOrigin()];
const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

export const listClaimsRoute = createRoute({
  method: "get",
  path: "/provider/claims",
  operationId: "listProviderClaims",
  tags: ["provider"],
  summary: "The signed-in account's claims",
  description:
    "Every claim of the account, revoked ones included, newest first. Never a challenge value or a DNS answer.",
  security: SESSION_SECURITY,
  middleware: readMiddleware,
  responses: {
    200: json(
      z.object({ claims: z.array(ProviderClaimSchema) }).openapi("ProviderClaimList"),
      "Every claim of the account, newest first",
    ),
    ...problemResponses(401, 503),
  },
});

export const CreateClaimRequestSchema = z
  .strictObject({
    domain: storableText().min(1).max(253).openapi({ description: "An indexed domain, without scheme" }),
  })
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
  middleware: mutationMiddleware,
  request: { body: { required: true, content: { "application/json": { schema: CreateClaimRequestSchema } } } },
  responses: {
    201: json(ClaimChallengeResponseSchema, "The pending claim and its challenge, shown once"),
    ...problemResponses(400, 401, 403, 404, 409, 503),
  },
});

export const verifyClaimRoute = createRoute({
  method: "post",
  path: "/provider/claims/{claim_id}/verify",
  operationId: "verifyProviderClaim",
  tags: ["provider"],
  summary: "Check the DNS TXT record now",
  description:
    "Verifies a pending claim (the first provider key is returned once, by the verification that verified it; a concurrent one answers provider_key_returned false with key_endpoint), or rechecks a verified one with the daily job's effects. 409 when the challenge is missing, mismatched or expired; a failed recheck of a verified claim advances its failure count, and the third revokes it.",
  security: SESSION_SECURITY,
  middleware: mutationMiddleware,
  request: { params: ClaimIdParamSchema },
  responses: {
    200: json(ClaimVerifyResponseSchema, "Ownership proven"),
    ...problemResponses(400, 401, 403, 404, 409, 503),
  },
});

export const rotateChallengeRoute = createRoute({
  method: "post",
  path: "/provider/claims/{claim_id}/challenge",
  operationId: "rotateProviderClaimChallenge",
  tags: ["provider"],
  summary: "Replace the DNS challenge",
  description:
    "A new challenge value, shown once; the old one stops counting. On a verified claim, later checks expect the new value.",
  security: SESSION_SECURITY,
  middleware: mutationMiddleware,
  request: { params: ClaimIdParamSchema },
  responses: {
    200: json(ClaimChallengeResponseSchema, "The claim with its rotated challenge, shown once"),
    ...problemResponses(400, 401, 403, 404, 409, 503),
  },
});

export const revokeClaimRoute = createRoute({
  method: "post",
  path: "/provider/claims/{claim_id}/revoke",
  operationId: "revokeProviderClaim",
  tags: ["provider"],
  summary: "Revoke the claim and every key it holds",
  description:
    "Revokes the claim and, in the same write, every key it holds. Revoking a revoked claim changes nothing.",
  security: SESSION_SECURITY,
  middleware: mutationMiddleware,
  request: { params: ClaimIdParamSchema },
  responses: {
    200: json(z.object({ claim: ProviderClaimSchema }).openapi("RevokedClaim"), "The claim, revoked"),
    ...problemResponses(400, 401, 403, 404, 503),
  },
});

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
  middleware: mutationMiddleware,
  request: { params: ClaimIdParamSchema },
  responses: {
    200: json(RotatedKeySchema, "The new key, returned once"),
    ...problemResponses(400, 401, 403, 404, 409, 503),
  },
});

export function registerClaimRoutes(app: OpenAPIHono<AppEnv>) {
  const ctx = (deps: AppEnv["Variables"]["deps"]) => ({ ...deps, now: new Date() });
  app.openapi(listClaimsRoute, async (c) => {
    c.header("Cache-Control", "private, no-store");
    return c.json(await listClaims({ ctx: c.var.deps, actor: sessionActorOf(c.var.actor) }), 200);
  });
  app.openapi(createClaimRoute, async (c) => {
    const { domain } = c.req.valid("json");
    c.header("Cache-Control", "private, no-store");
    return c.json(
      await createClaim({ ctx: ctx(c.var.deps), actor: sessionActorOf(c.var.actor), input: { domain } }),
      201,
    );
  });
  app.openapi(verifyClaimRoute, async (c) => {
    const { claim_id } = c.req.valid("param");
    c.header("Cache-Control", "private, no-store");
    return c.json(
      await verifyClaim({ ctx: ctx(c.var.deps), actor: sessionActorOf(c.var.actor), input: { claimId: claim_id } }),
      200,
    );
  });
  app.openapi(rotateChallengeRoute, async (c) => {
    const { claim_id } = c.req.valid("param");
    c.header("Cache-Control", "private, no-store");
    return c.json(
      await rotateChallenge({ ctx: ctx(c.var.deps), actor: sessionActorOf(c.var.actor), input: { claimId: claim_id } }),
      200,
    );
  });
  app.openapi(revokeClaimRoute, async (c) => {
    const { claim_id } = c.req.valid("param");
    c.header("Cache-Control", "private, no-store");
    return c.json(
      await revokeClaim({ ctx: ctx(c.var.deps), actor: sessionActorOf(c.var.actor), input: { claimId: claim_id } }),
      200,
    );
  });
  app.openapi(rotateKeyRoute, async (c) => {
    const { claim_id } = c.req.valid("param");
    c.header("Cache-Control", "private, no-store");
    return c.json(
      await rotateProviderKey({
        ctx: ctx(c.var.deps),
        actor: sessionActorOf(c.var.actor),
        input: { claimId: claim_id },
      }),
      200,
    );
  });
}
