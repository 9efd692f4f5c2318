import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { verifySessionToken } from "../../domain/accounts/sign-in.ts";
import { pauseOffer } from "../../domain/offers/manage-offers.ts";
import type { AppEnv } from "../../http/context.ts";
import { requireSameOrigin } from "../../http/middleware/require-same-origin.ts";
import { requireSession, sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { OfferIdParamSchema, ProviderOfferSchema } from "./offer-schemas.ts";
import { SESSION_SECURITY } from "./schemas.ts";

export const pauseOfferRoute = createRoute({
  method: "post",
  path: "/provider/offers/{offer_id}/pause",
  operationId: "pauseProviderOffer",
  tags: ["provider"],
  summary: "Pause an active offer",
  description:
    "An active offer stops being disclosed beside organic results at once. Pausing a paused offer changes nothing (200); a draft cannot be paused (409 OFFER_NOT_ACTIVE). Another account's offer is 404.",
  security: SESSION_SECURITY,
  middleware: [requireSession({ verify: verifySessionToken }), requireSameOrigin()],
  request: { params: OfferIdParamSchema },
  responses: {
    200: { description: "The offer, paused", content: { "application/json": { schema: ProviderOfferSchema } } },
    ...problemResponses(400, 401, 403, 404, 409, 503),
  },
});

export function registerPauseOffer(app: OpenAPIHono<AppEnv>) {
  app.openapi(pauseOfferRoute, async (c) => {
    const { offer_id } = c.req.valid("param");
    const actor = sessionActorOf(c.var.actor);
    const offer = await pauseOffer({ ctx: c.var.deps, actor, input: { offerId: offer_id } });
    c.header("Cache-Control", "private, no-store");
    return c.json(offer, 200);
  });
}
