import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { verifySessionToken } from "../../domain/accounts/sign-in.ts";
import { updateOffer } from "../../domain/offers/manage-offers.ts";
import type { AppEnv } from "../../http/context.ts";
import { requireSameOrigin } from "../../http/middleware/require-same-origin.ts";
import { requireSession, sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { OfferIdParamSchema, ProviderOfferSchema, UpdateOfferRequestSchema } from "./offer-schemas.ts";
import { SESSION_SECURITY } from "./schemas.ts";

export const updateOfferRoute = createRoute({
  method: "put",
  path: "/provider/offers/{offer_id}",
  operationId: "updateProviderOffer",
  tags: ["provider"],
  summary: "Replace a draft's terms (a new version)",
  description:
    "Replaces every field of a draft with the request's; the offer's version goes up by one and its terms hash is recomputed (an acceptance binds to a version and hash, so an earlier acceptance no longer matches changed terms). Only drafts: 409 OFFER_NOT_DRAFT. claim_id may be sent but never changed. 409 OFFER_CHANGED when another change won a race; 409 CLAIM_NOT_VERIFIED when the claim is not verified.",
  security: SESSION_SECURITY,
  middleware: [requireSession({ verify: verifySessionToken }), requireSameOrigin()],
  request: {
    params: OfferIdParamSchema,
    body: { required: true, content: { "application/json": { schema: UpdateOfferRequestSchema } } },
  },
  responses: {
    200: { description: "The draft's new version", content: { "application/json": { schema: ProviderOfferSchema } } },
    ...problemResponses(400, 401, 403, 404, 409, 503),
  },
});

export function registerUpdateOffer(app: OpenAPIHono<AppEnv>) {
  app.openapi(updateOfferRoute, async (c) => {
    const { offer_id } = c.req.valid("param");
    const body = c.req.valid("json");
    const actor = sessionActorOf(c.var.actor);
    const offer = await updateOffer({
      ctx: c.var.deps,
      actor,
      input: { ...body, offerId: offer_id },
    });
    c.header("Cache-Control", "private, no-store");
    return c.json(offer, 200);
  });
}
