import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { setCookie } from "hono/cookie";
import { SESSION_CREATIONS_PER_CLIENT_PER_HOUR } from "../../domain/accounts/account-constants.ts";
import { createSessionFromToken } from "../../domain/accounts/sign-in.ts";
import type { AppEnv } from "../../http/context.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { problemResponses } from "../shared/schemas.ts";
import { storableText } from "../shared/text.ts";
import { SESSION_COOKIE, SessionSchema, sessionCookieOptions } from "./schemas.ts";

export const CreateSessionRequestSchema = z
  .strictObject({
    token: storableText().min(1).max(200).openapi({ description: "The token of the e-mailed sign-in link" }),
  })
  .openapi("CreateSessionRequest");

export const createSessionRoute = createRoute({
  method: "post",
  path: "/auth/session",
  operationId: "createSession",
  tags: ["auth"],
  summary: "Exchange a sign-in token for a session",
  description:
    "Uses the sign-in link's token once and starts a session: the answer sets the svc_session cookie (HttpOnly; Secure; SameSite=Lax; Path=/). 401 SIGN_IN_TOKEN_INVALID for an unknown, used or expired token.",
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: CreateSessionRequestSchema } } } },
  responses: {
    201: {
      description: "Signed in; the session cookie is set",
      headers: {
        "Set-Cookie": {
          schema: { type: "string" },
          description: "svc_session=…; HttpOnly; Secure; SameSite=Lax; Path=/",
        },
      },
      content: { "application/json": { schema: SessionSchema } },
    },
    ...problemResponses(400, 401, 429, 503),
  },
});

export function registerCreateSession(app: OpenAPIHono<AppEnv>) {
  app.openapi(createSessionRoute, async (c) => {
    const { token } = c.req.valid("json");
    await spendRateLimit(c, { name: "session-create", limit: SESSION_CREATIONS_PER_CLIENT_PER_HOUR, window: "1 h" });
    const session = await createSessionFromToken({ ctx: c.var.deps, input: { token } });
    setCookie(c, SESSION_COOKIE, session.token, sessionCookieOptions(session.expiresAt));
    c.header("Cache-Control", "no-store");
    return c.json({ email: session.email, expires_at: session.expiresAt.toISOString() }, 201);
  });
}
