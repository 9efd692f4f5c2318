/**
 * The sign-in page: GET /sign-in asks for an address (or, with the e-mailed link's token, shows
 * the button that uses it); POST /sign-in/email sends the link; POST /sign-in exchanges the token
 * for a session and sets the svc_session cookie. The same domain operations and limits as the
 * auth API; POSTs from other sites are refused (no signing a browser into someone else's account).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { setCookie } from "hono/cookie";
import {
  SESSION_CREATIONS_PER_CLIENT_PER_HOUR,
  SIGN_IN_EMAILS_PER_ADDRESS_PER_HOUR,
  SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR,
} from "../../domain/accounts/account-constants.ts";

import { createSessionFromToken, normalizeEmail, startEmailSignIn } from "../../domain/accounts/sign-in.ts";
import { SITE_PATHS } from "../../domain/descriptor/site-documents.ts";
import { sha256Hex } from "../../domain/sha256.ts";
import type { AppEnv } from "../../http/context.ts";
import { consumeRateLimit } from "../../http/middleware/rate-limit.ts";
import { refuseCrossOriginBrowserMutations } from "../../http/middleware/refuse-cross-origin.ts";
import { renderSignInPage } from "../../web/pages/sign-in.tsx";
import { SESSION_COOKIE, sessionCookieOptions } from "../auth/schemas.ts";
import { attempt, pageHeaders } from "./page-errors.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

async function formField(c: { req: { parseBody: () => Promise<Record<string, unknown>> } }, name: string) {
  const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  const value = body[name];
  return typeof value === "string" ? value.trim() : "";
}

export function registerSignInPage(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_PATHS.signIn, async (c) => {
    const token = c.req.query("token");
    const page = await renderSignInPage(c.var.deps.origin, token ? { kind: "confirm", token } : { kind: "ask" });
    // The token is in this page's URL: never cached, and as a referrer sent only to the service's
    // own origin (Referrer-Policy: same-origin, as on every page). Not no-referrer: under it the
    // browser sends the button's POST with `Origin: null`, which the cross-origin guard refuses.
    return c.html(page, 200, pageHeaders(c, "no-store"));
  });

  app.post(`${SITE_PATHS.signIn}/email`, refuseCrossOriginBrowserMutations(), async (c) => {
    const { origin } = c.var.deps;
    const headers = pageHeaders(c, "no-store");
    const email = await formField(c, "email");
    if (!EMAIL.test(email) || email.length > 254) {
      return c.html(
        await renderSignInPage(origin, { kind: "ask", email, error: "That is not an e-mail address." }),
        400,
        headers,
      );
    }
    const outcome = await attempt(async () => {
      await consumeRateLimit(c, { name: "sign-in-client", limit: SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR, window: "1 h" });
      const addressKey = `email:${await sha256Hex(normalizeEmail(email))}`;
      await consumeRateLimit(c, {
        name: "sign-in-address",
        limit: SIGN_IN_EMAILS_PER_ADDRESS_PER_HOUR,
        window: "1 h",
        identify: () => addressKey,
      });
      await startEmailSignIn({ ctx: c.var.deps, input: { email } });
    });
    if (!outcome.ok) {
      const page = await renderSignInPage(origin, { kind: "ask", email, error: outcome.message });
      return c.html(page, outcome.status, { ...outcome.headers, ...headers });
    }
    return c.html(await renderSignInPage(origin, { kind: "sent", email }), 202, headers);
  });

  app.post(SITE_PATHS.signIn, refuseCrossOriginBrowserMutations(), async (c) => {
    const { origin } = c.var.deps;
    const headers = pageHeaders(c, "no-store");
    const token = await formField(c, "token");
    const outcome = await attempt(async () => {
      await consumeRateLimit(c, {
        name: "session-create",
        limit: SESSION_CREATIONS_PER_CLIENT_PER_HOUR,
        window: "1 h",
      });
      return createSessionFromToken({ ctx: c.var.deps, input: { token } });
    });
    if (!outcome.ok) {
      const page = await renderSignInPage(origin, { kind: "failed", error: outcome.message });
      return c.html(page, outcome.status, { ...outcome.headers, ...headers });
    }
    const session = outcome.value;
    setCookie(c, SESSION_COOKIE, session.token, sessionCookieOptions(session.expiresAt));
    const page = await renderSignInPage(origin, {
      kind: "signed-in",
      email: session.email,
      expiresAt: session.expiresAt,
    });
    return c.html(page, 200, headers);
  });
}
