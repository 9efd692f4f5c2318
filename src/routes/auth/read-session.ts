import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { deleteCookie } from "hono/cookie";
import { endSession, verifySessionToken } from "../../domain/accounts/sign-in.ts";
import type { AppEnv } from "../../http/context.ts";
import { requireSameOrigin } from "../../http/middleware/require-same-origin.ts";
import { requireSession, sessionActorOf } from "../../http/middleware/require-session.ts";
import { problemResponses } from "../shared/schemas.ts";
import { SESSION_COOKIE, SESSION_SECURITY, SessionSchema } from "./schemas.ts";

export const readSessionRoute = createRoute({
  method: "get",
  path: "/auth/session",
  operationId: "readSession",
  tags: ["auth"],
  summary: "The signed-in person's session",
  description:
    "The session of the svc_session cookie: its e-mail address and when it ends. 401 without a live session.",
  security: SESSION_SECURITY,
  middleware: [requireSession({ verify: verifySessionToken })],
  responses: {
    200: { description: "The live session", content: { "application/json": { schema: SessionSchema } } },
    ...problemResponses(401, 503),
  },
});

export const endSessionRoute = createRoute({
  method: "delete",
  path: "/auth/session",
  operationId: "endSession",
  tags: ["auth"],
  summary: "Sign out",
  description: "Ends the session and clears the cookie. Only from the service's own pages (same-origin).",
  security: SESSION_SECURITY,
  middleware: [requireSession({ verify: verifySessionToken }), requireSameOrigin()],
  responses: {
    204: { description: "Signed out; the cookie is cleared" },
    ...problemResponses(401, 403, 503),
  },
});

export function registerSessionRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(readSessionRoute, (c) => {
    const actor = sessionActorOf(c.var.actor);
    c.header("Cache-Control", "private, no-store");
    return c.json({ email: actor.email, expires_at: actor.expiresAt.toISOString() }, 200);
  });
  app.openapi(endSessionRoute, async (c) => {
    await endSession(c.var.deps, sessionActorOf(c.var.actor).sessionId);
    deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
    return c.body(null, 204);
  });
}
