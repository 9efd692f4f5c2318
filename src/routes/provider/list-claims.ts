/** The signed-in account's claims, revoked ones included. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { listClaims } from "../../domain/claims/manage-claims.ts";
import type { AppEnv } from "../../http/context.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { ProviderClaimSchema, SESSION_SECURITY } from "./schemas.ts";
import { jsonContent, sessionReadMiddleware } from "./session-routes.ts";

export const listClaimsRoute = createRoute({
  method: "get",
  path: "/provider/claims",
  operationId: "listProviderClaims",
  tags: ["provider"],
  summary: "The signed-in account's claims",
  description:
    "Every claim of the account, revoked ones included, newest first. Never a challenge value or a DNS answer.",
  security: SESSION_SECURITY,
  middleware: sessionReadMiddleware(),
  responses: {
    200: jsonContent(
      z.object({ claims: z.array(ProviderClaimSchema) }).openapi("ProviderClaimList"),
      "Every claim of the account, newest first",
    ),
    ...problemResponses(401, 503),
  },
});

export function registerListClaims(app: OpenAPIHono<AppEnv>) {
  app.openapi(listClaimsRoute, async (c) => {
    c.header("Cache-Control", "private, no-store");
    return c.json(await listClaims({ ctx: c.var.deps, actor: sessionActorOf(c.var.actor) }), 200);
  });
}
