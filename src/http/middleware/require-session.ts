import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { VerifySession } from "../../domain/accounts/credentials.ts";
import type { Actor, SessionActor } from "../../domain/actor.ts";
import type { AppEnv } from "../context.ts";
import { HttpProblem } from "../problem.ts";

/** The session cookie the e-mail sign-in sets (HttpOnly; Secure; SameSite=Lax; Path=/). */
export const SESSION_COOKIE = "svc_session";

/** What a route behind `requireSession` may read: the signed-in person. */
export interface SessionVariables {
  actor: SessionActor;
}

export interface RequireSessionOptions {
  /** Looks the token up (by its hash); null for unknown, expired or ended sessions alike. */
  verify: VerifySession;
}

export const sessionRequiredProblem = () =>
  new HttpProblem(401, "SESSION_REQUIRED", "Sign in first: this request needs a live session.");

/**
 * Requires a live session from the `svc_session` cookie and puts its actor on `c.var.actor`.
 * No cookie, a malformed one, and an unknown, expired or ended session all answer the same 401
 * `SESSION_REQUIRED`, so nothing tells a guessed token from a dead one. A failed lookup (the
 * database down) is not a missing session: it propagates and answers 503, never as signed out.
 * Mutations also need `requireSameOrigin()`, since browsers send the cookie cross-site on
 * top-level navigations.
 *
 * @example routes.use("/provider/claims/*", requireSession({ verify: verifySessionToken }));
 */
export function requireSession(options: RequireSessionOptions) {
  return createMiddleware<AppEnv & { Variables: SessionVariables }>(async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (!token || !isWellFormedSecret(token)) throw sessionRequiredProblem();
    const actor = await options.verify(c.var.deps, token);
    if (!actor) throw sessionRequiredProblem();
    c.set("actor", actor);
    await next();
  });
}

/**
 * Every secret the service issues is URL-safe base64 or a prefix plus it; anything else is refused
 * before a lookup (and before hashing an arbitrarily long value).
 */
export function isWellFormedSecret(value: string): boolean {
  return /^[A-Za-z0-9_-]{16,200}$/.test(value);
}

/**
 * The session actor of a request that passed `requireSession` (route-level middleware arrays do
 * not carry its variable types into the handler); a request without one is refused the same way.
 */
export function sessionActorOf(actor: Actor): SessionActor {
  if (actor.kind !== "session") throw sessionRequiredProblem();
  return actor;
}
