import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { verifySessionToken } from "../../domain/accounts/sign-in.ts";
import { listOffers } from "../../domain/offers/manage-offers.ts";
import type { AppEnv } from "../../http/context.ts";
import { requireSession, sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { ListOffersQuerySchema, ProviderOfferListSchema } from "./offer-schemas.ts";
import { SESSION_SECURITY } from "./schemas.ts";

export const listOffersRoute = createRoute({
  method: "get",
  path: "/provider/offers",
  operationId: "listProviderOffers",
  tags: ["provider"],
  summary: "The account's offers and their commercial states",
  description:
    "Every offer of the signed-in account's claims (or of the claim named by `claim_id`), newest first, each with its current version, terms hash and commercial state (acceptances, owner verification, activation readiness). A claim of another account lists nothing.",
  security: SESSION_SECURITY,
  middleware: [requireSession({ verify: verifySessionToken })],
  request: { query: ListOffersQuerySchema },
  responses: {
    200: { description: "The offers", content: { "application/json": { schema: ProviderOfferListSchema } } },
    ...problemResponses(400, 401, 503),
  },
});

export function registerListOffers(app: OpenAPIHono<AppEnv>) {
  app.openapi(listOffersRoute, async (c) => {
    const { claim_id } = c.req.valid("query");
    const actor = sessionActorOf(c.var.actor);
    const body = await listOffers({ ctx: c.var.deps, actor, input: { claimId: claim_id } });
    c.header("Cache-Control", "private, no-store");
    return c.json(body, 200);
  });
}
