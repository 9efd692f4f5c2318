import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { verifySessionToken } from "../../domain/accounts/sign-in.ts";
import { getOffer } from "../../domain/offers/manage-offers.ts";
import type { AppEnv } from "../../http/context.ts";
import { requireSession, sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { OfferIdParamSchema, ProviderOfferSchema } from "./offer-schemas.ts";
import { SESSION_SECURITY } from "./schemas.ts";

export const getOfferRoute = createRoute({
  method: "get",
  path: "/provider/offers/{offer_id}",
  operationId: "getProviderOffer",
  tags: ["provider"],
  summary: "One owned offer",
  description: "The offer with its current version, terms hash and commercial state. Another account's offer is 404.",
  security: SESSION_SECURITY,
  middleware: [requireSession({ verify: verifySessionToken })],
  request: { params: OfferIdParamSchema },
  responses: {
    200: { description: "The offer", content: { "application/json": { schema: ProviderOfferSchema } } },
    ...problemResponses(400, 401, 404, 503),
  },
});

export function registerGetOffer(app: OpenAPIHono<AppEnv>) {
  app.openapi(getOfferRoute, async (c) => {
    const { offer_id } = c.req.valid("param");
    const actor = sessionActorOf(c.var.actor);
    const offer = await getOffer({ ctx: c.var.deps, actor, input: { offerId: offer_id } });
    c.header("Cache-Control", "private, no-store");
    return c.json(offer, 200);
  });
}
