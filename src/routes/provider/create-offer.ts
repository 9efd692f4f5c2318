import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { verifySessionToken } from "../../domain/accounts/sign-in.ts";
import { createOffer } from "../../domain/offers/manage-offers.ts";
import { OFFER_INVENTORY_CAP_PER_CLAIM } from "../../domain/offers/offer-constants.ts";
import type { AppEnv } from "../../http/context.ts";
import { requireSameOrigin } from "../../http/middleware/require-same-origin.ts";
import { requireSession, sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { CreateOfferRequestSchema, ProviderOfferSchema } from "./offer-schemas.ts";
import { SESSION_SECURITY } from "./schemas.ts";

export const createOfferRoute = createRoute({
  method: "post",
  path: "/provider/offers",
  operationId: "createProviderOffer",
  tags: ["provider"],
  summary: "Create a draft offer on a verified claim",
  description: `Creates a draft (version 1) with its commercial_terms_sha256. The claim must be the account's (404 otherwise) and verified (409 CLAIM_NOT_VERIFIED); action_url must be HTTPS on the claim's domain or its subdomains, without query or fragment. A claim holds at most ${OFFER_INVENTORY_CAP_PER_CLAIM} offers: 409 OFFER_LIMIT_REACHED. Drafts never appear beside organic results.`,
  security: SESSION_SECURITY,
  middleware: [requireSession({ verify: verifySessionToken }), requireSameOrigin()],
  request: { body: { required: true, content: { "application/json": { schema: CreateOfferRequestSchema } } } },
  responses: {
    201: { description: "The draft", content: { "application/json": { schema: ProviderOfferSchema } } },
    ...problemResponses(400, 401, 403, 404, 409, 503),
  },
});

export function registerCreateOffer(app: OpenAPIHono<AppEnv>) {
  app.openapi(createOfferRoute, async (c) => {
    const input = c.req.valid("json");
    const actor = sessionActorOf(c.var.actor);
    const offer = await createOffer({ ctx: c.var.deps, actor, input });
    c.header("Cache-Control", "private, no-store");
    return c.json(offer, 201);
  });
}
