/**
 * A claim in the provider console (view: src/web/pages/console.tsx): GET /console/claims/{id}
 * shows it; POST …/verify checks the DNS record (as POST /api/v1/provider/claims/{id}/verify; the
 * first success shows the provider key once); POST …/challenge issues a new challenge value, shown
 * once (as …/challenge in the API). Another account's claim is a 404 page, as in the API. A refusal
 * (the record missing or wrong, the challenge expired) is shown on the claim's page with the
 * API's status.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { rotateChallenge } from "../../domain/claims/manage-claims.ts";
import { readOwnedClaim } from "../../domain/claims/read-claim.ts";
import { verifyClaim } from "../../domain/claims/verify-claim.ts";
import type { AppEnv } from "../../http/context.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { CONSOLE_PATHS, CONSOLE_ROUTES } from "../../web/console-paths.ts";
import { renderClaimPage } from "../../web/pages/console.tsx";
import { claimIdOf, consoleHeaders, consoleSameOrigin, consoleSession } from "./console-session.ts";
import { attempt } from "./page-errors.ts";

/** Serves a claim's page, its verification and a new challenge. */
export function registerConsoleClaimPage(app: OpenAPIHono<AppEnv>) {
  app.get(CONSOLE_ROUTES.claim, consoleSession(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const view = await readOwnedClaim({ ctx: c.var.deps, actor, input: { claimId: claimIdOf(c) } });
    return c.html(await renderClaimPage({ origin: c.var.deps.origin, view }), 200, await consoleHeaders(c));
  });

  // The address of an action's answer, opened again (a reload, a bookmark, the history), leads to
  // the claim's page: a GET never repeats the action.
  for (const path of [CONSOLE_ROUTES.verify, CONSOLE_ROUTES.challenge]) {
    app.get(path, (c) => c.redirect(CONSOLE_PATHS.claim(claimIdOf(c)), 303));
  }

  app.post(CONSOLE_ROUTES.verify, consoleSession(), consoleSameOrigin(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const claimId = claimIdOf(c);
    const ctx = c.var.deps;
    const outcome = await attempt(() => verifyClaim({ ctx, actor, input: { claimId } }));
    // Read after the verification, so the page shows the claim and key as they are now (and a
    // claim that is not this account's is the 404 page, whatever the verification said).
    const view = await readOwnedClaim({ ctx, actor, input: { claimId } });
    const origin = c.var.deps.origin;
    if (!outcome.ok) {
      const notice = { tone: "error" as const, title: "Ownership not proven.", text: outcome.message };
      const page = await renderClaimPage({ origin, view, notice });
      return c.html(page, outcome.status, { ...outcome.headers, ...(await consoleHeaders(c)) });
    }
    const verified = outcome.value;
    if ("provider_key" in verified) {
      const issuedKey = { provider_key: verified.provider_key, provider_key_metadata: verified.provider_key_metadata };
      const notice = {
        tone: "success" as const,
        title: `${view.claim.domain} is verified.`,
        text: "The provider key below is yours.",
      };
      return c.html(await renderClaimPage({ origin, view, issuedKey, notice }), 200, await consoleHeaders(c, true));
    }
    const notice = {
      tone: "success" as const,
      title: "The record is in place.",
      text: "Ownership is proven again; the next check is scheduled.",
    };
    return c.html(await renderClaimPage({ origin, view, notice }), 200, await consoleHeaders(c));
  });

  app.post(CONSOLE_ROUTES.challenge, consoleSession(), consoleSameOrigin(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const claimId = claimIdOf(c);
    const ctx = c.var.deps;
    const outcome = await attempt(() => rotateChallenge({ ctx, actor, input: { claimId } }));
    const view = await readOwnedClaim({ ctx, actor, input: { claimId } });
    const origin = c.var.deps.origin;
    if (!outcome.ok) {
      const notice = { tone: "error" as const, title: "No new challenge.", text: outcome.message };
      const page = await renderClaimPage({ origin, view, notice });
      return c.html(page, outcome.status, { ...outcome.headers, ...(await consoleHeaders(c)) });
    }
    const page = await renderClaimPage({ origin, view, challenge: outcome.value.dns_challenge });
    return c.html(page, 200, await consoleHeaders(c, true));
  });
}
