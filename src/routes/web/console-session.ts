/**
 * What every provider console page shares: the session it needs (the same `requireSession` as the
 * provider API, so a console page and an API call accept exactly the same cookies), the same-origin
 * rule on every change, the claim id of its path, and its headers (private, never stored).
 */
import { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { verifySessionToken } from "../../domain/accounts/sign-in.ts";
import { claimNotFound } from "../../domain/claims/find-claim.ts";
import type { AppEnv } from "../../http/context.ts";
import { requireSameOrigin } from "../../http/middleware/require-same-origin.ts";
import { requireSession } from "../../http/middleware/require-session.ts";
import { copyScriptHash } from "../../web/copy-script.ts";
import { pageHeaders } from "./page-errors.ts";

/** A live session or the 401 sign-in page (page-errors renders SESSION_REQUIRED as the sign-in form). */
export function consoleSession(): MiddlewareHandler<AppEnv> {
  const session = requireSession({ verify: verifySessionToken });
  // Handlers read the actor through sessionActorOf, so the middleware's narrower variable type is
  // not carried into them (as with route-level middleware arrays in the API).
  return (c, next) => session(c as Parameters<typeof session>[0], next);
}

/**
 * Refuses a change a browser sent from another site (403 page), as the provider API does: the
 * console's own forms pass because the browser marks their POSTs `Sec-Fetch-Site: same-origin`
 * (older browsers: an `Origin` equal to the service's, which `Referrer-Policy: same-origin` keeps).
 */
export const consoleSameOrigin = () => requireSameOrigin();

const ClaimIdSchema = z.uuid();

/** The claim id of the path; one that cannot be an id is a claim that does not exist (404 page). */
export function claimIdOf(c: Context<AppEnv>): string {
  const parsed = ClaimIdSchema.safeParse(c.req.param("claim_id"));
  if (!parsed.success) throw claimNotFound();
  return parsed.data;
}

/** The headers of a console page: never cached anywhere; the copy script's hash when it runs. */
export async function consoleHeaders(c: Context<AppEnv>, withCopyScript = false) {
  return pageHeaders(c, "private, no-store", withCopyScript ? [await copyScriptHash()] : []);
}
