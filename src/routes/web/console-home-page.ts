/**
 * The provider console's home (view: src/web/pages/console.tsx): GET /console lists the account's
 * claims with the claim form; POST /console/claims claims a domain (the same domain operation as
 * POST /api/v1/provider/claims) and shows the DNS record to publish, once; POST /console/sign-out
 * ends the session (as DELETE /api/v1/auth/session). Every POST passes the same-origin rule.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { deleteCookie } from "hono/cookie";
import { endSession } from "../../domain/accounts/sign-in.ts";
import { createClaim } from "../../domain/claims/create-claim.ts";
import { listClaims } from "../../domain/claims/manage-claims.ts";
import type { AppEnv } from "../../http/context.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { CONSOLE_PATHS, CONSOLE_ROUTES } from "../../web/console-paths.ts";
import { renderClaimPage, renderConsoleHome } from "../../web/pages/console.tsx";
import { renderSignInPage } from "../../web/pages/sign-in.tsx";
import { SESSION_COOKIE } from "../auth/schemas.ts";
import { CreateClaimRequestSchema } from "../provider/create-claim.ts";
import { consoleHeaders, consoleSameOrigin, consoleSession } from "./console-session.ts";
import { attempt } from "./page-errors.ts";

/** Serves the console's home, its claim form and signing out. */
export function registerConsoleHomePage(app: OpenAPIHono<AppEnv>) {
  app.get(CONSOLE_ROUTES.home, consoleSession(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const { claims } = await listClaims({ ctx: c.var.deps, actor });
    const page = await renderConsoleHome({
      origin: c.var.deps.origin,
      email: actor.email,
      expiresAt: actor.expiresAt,
      claims,
    });
    return c.html(page, 200, await consoleHeaders(c));
  });

  // The addresses of the claim form's and sign-out's answers, opened again, lead to the console
  // (which asks to sign in when the session has ended): a GET never repeats the action.
  for (const path of [CONSOLE_ROUTES.claims, CONSOLE_ROUTES.signOut]) {
    app.get(path, (c) => c.redirect(CONSOLE_PATHS.home, 303));
  }

  app.post(CONSOLE_ROUTES.claims, consoleSession(), consoleSameOrigin(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const { origin } = c.var.deps;
    const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const typed = typeof body.domain === "string" ? body.domain.trim() : "";
    const refuse = async (status: 400 | 401 | 403 | 404 | 409 | 429 | 503, error: string, headers = {}) => {
      const { claims } = await listClaims({ ctx: c.var.deps, actor });
      const page = await renderConsoleHome({
        origin,
        email: actor.email,
        expiresAt: actor.expiresAt,
        claims,
        domain: typed,
        error,
      });
      return c.html(page, status, { ...headers, ...(await consoleHeaders(c)) });
    };
    // The API's own request schema: one field, a domain of at most 253 characters.
    const parsed = CreateClaimRequestSchema.safeParse({ domain: typed });
    if (!typed || !parsed.success) return refuse(400, "Enter a domain such as example.com, without https://.");
    const outcome = await attempt(() => createClaim({ ctx: c.var.deps, actor, input: { domain: parsed.data.domain } }));
    if (!outcome.ok) return refuse(outcome.status as 400, outcome.message, outcome.headers);
    const issued = outcome.value;
    const page = await renderClaimPage({
      origin,
      view: {
        claim: issued.claim,
        ownership_freshness: issued.ownership_freshness,
        verified_and_fresh: false,
        active_key: null,
      },
      challenge: issued.dns_challenge,
      notice: {
        tone: "info",
        title: `Claim of ${issued.claim.domain} started.`,
        text: "Publish the record, then verify.",
      },
    });
    return c.html(page, 200, await consoleHeaders(c, true));
  });

  app.post(CONSOLE_ROUTES.signOut, consoleSession(), consoleSameOrigin(), async (c) => {
    await endSession(c.var.deps, sessionActorOf(c.var.actor).sessionId);
    deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
    return c.html(await renderSignInPage(c.var.deps.origin, { kind: "signed-out" }), 200, await consoleHeaders(c));
  });
}
