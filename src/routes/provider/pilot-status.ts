import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { readPilotStatus } from "../../domain/claims/pilot-status.ts";
import { verifyProviderKey } from "../../domain/claims/provider-keys.ts";
import type { AppEnv } from "../../http/context.ts";
import { providerKeyActorOf, requireProviderKey } from "../../http/middleware/require-provider-key.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { problemResponses } from "../shared/schemas.ts";
import { PROVIDER_KEY_SECURITY } from "./schemas.ts";

/** Provider reads: 240 per hour per key per read surface (the spec's Limits). */
export const PILOT_STATUS_LIMIT = { name: "provider-pilot-status", limit: 240, window: "1 h" } as const;

const PilotStatusQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ error: "must be an integer from 1 to 100" })
    .int("must be an integer from 1 to 100")
    .min(1, "must be an integer from 1 to 100")
    .max(100, "must be an integer from 1 to 100")
    .default(25)
    .openapi({ param: { name: "limit", in: "query" }, description: "Caps offers and recent handoffs (1 to 100)" }),
});

const PilotStatusSchema = z
  .object({
    pilot_status: z
      .object({
        as_of: z.iso.datetime().openapi({ description: "The read's consistency boundary" }),
        provider_claim_id: z.uuid(),
        domain: z.string(),
        claim_status: z.literal("verified"),
        verification_last_succeeded_at: z.iso.datetime(),
        verification_consecutive_failures: z.number().int().min(0),
        verification_next_check_at: z.iso.datetime().optional(),
        company_owner_verified: z.boolean(),
        offers: z.array(z.unknown()).max(100),
        recent_observed_handoffs: z.array(z.unknown()).max(100),
      })
      .strict(),
    evidence_scope: z.string(),
  })
  .openapi("PilotStatusResponse");

export const pilotStatusRoute = createRoute({
  method: "get",
  path: "/provider/pilot-status",
  operationId: "getProviderPilotStatus",
  tags: ["provider"],
  summary: "Where the key's claim stands in the pilot",
  description:
    "The authenticated claim's verification state (offers and observed handoffs join it with the offers and tickets capabilities). 404 when the claim is no longer verified and fresh; 503 when keys cannot be checked. 240 per hour per key.",
  security: PROVIDER_KEY_SECURITY,
  middleware: [requireProviderKey({ verify: verifyProviderKey, whenClaimNotFresh: 404 })],
  request: { query: PilotStatusQuerySchema },
  responses: {
    200: { description: "Pilot status", content: { "application/json": { schema: PilotStatusSchema } } },
    ...problemResponses(400, 401, 404, 429, 500, 503),
  },
});

export function registerPilotStatus(app: OpenAPIHono<AppEnv>) {
  app.openapi(pilotStatusRoute, async (c) => {
    c.req.valid("query");
    const actor = providerKeyActorOf(c.var.actor);
    await spendRateLimit(c, { ...PILOT_STATUS_LIMIT, identify: () => `key:${actor.keyId}` });
    const status = await readPilotStatus({ ctx: { ...c.var.deps, now: new Date() }, actor });
    c.header("Cache-Control", "private, no-store");
    return c.json(status, 200);
  });
}
