/**
 * The provider console's actions that cannot be undone, each behind a confirmation step (view:
 * src/web/pages/console.tsx): GET shows what will happen and a button; the button's POST does it.
 * POST /console/claims/{id}/keys/rotate issues a new key, shown once, and revokes the earlier ones
 * (as the API's …/keys/rotate); POST /console/claims/{id}/revoke revokes the claim and its keys
 * (as the API's …/revoke). A GET never changes anything.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { revokeClaim, rotateProviderKey } from "../../domain/claims/manage-claims.ts";
import { readOwnedClaim } from "../../domain/claims/read-claim.ts";
import type { AppEnv } from "../../http/context.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { CONSOLE_ROUTES } from "../../web/console-paths.ts";
import { renderClaimPage, renderConfirmPage } from "../../web/pages/console.tsx";
import { claimIdOf, consoleHeaders, consoleSameOrigin, consoleSession } from "./console-session.ts";
import { attempt } from "./page-errors.ts";

/** Serves the confirmation steps of key rotation and revocation, and does them. */
export function registerConsoleConfirmPages(app: OpenAPIHono<AppEnv>) {
  for (const [path, action] of [
    [CONSOLE_ROUTES.rotateKey, "rotate-key"],
    [CONSOLE_ROUTES.revoke, "revoke"],
  ] as const) {
    app.get(path, consoleSession(), async (c) => {
      const actor = sessionActorOf(c.var.actor);
      const view = await readOwnedClaim({ ctx: c.var.deps, actor, input: { claimId: claimIdOf(c) } });
      return c.html(await renderConfirmPage({ origin: c.var.deps.origin, view, action }), 200, await consoleHeaders(c));
    });
  }

  app.post(CONSOLE_ROUTES.rotateKey, consoleSession(), consoleSameOrigin(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const claimId = claimIdOf(c);
    const ctx = c.var.deps;
    const outcome = await attempt(() => rotateProviderKey({ ctx, actor, input: { claimId } }));
    const view = await readOwnedClaim({ ctx, actor, input: { claimId } });
    const origin = c.var.deps.origin;
    if (!outcome.ok) {
      const notice = { tone: "error" as const, title: "The key was not rotated.", text: outcome.message };
      const page = await renderClaimPage({ origin, view, notice });
      return c.html(page, outcome.status, { ...outcome.headers, ...(await consoleHeaders(c)) });
    }
    const { provider_key, provider_key_metadata } = outcome.value;
    const notice = {
      tone: "success" as const,
      title: "A new provider key is issued.",
      text: "Every earlier key of this claim stopped working.",
    };
    const page = await renderClaimPage({ origin, view, issuedKey: { provider_key, provider_key_metadata }, notice });
    return c.html(page, 200, await consoleHeaders(c, true));
  });

  app.post(CONSOLE_ROUTES.revoke, consoleSession(), consoleSameOrigin(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const claimId = claimIdOf(c);
    const ctx = c.var.deps;
    await revokeClaim({ ctx, actor, input: { claimId } });
    const view = await readOwnedClaim({ ctx, actor, input: { claimId } });
    const notice = {
      tone: "success" as const,
      title: `The claim of ${view.claim.domain} is revoked.`,
      text: "Its keys no longer work.",
    };
    return c.html(await renderClaimPage({ origin: c.var.deps.origin, view, notice }), 200, await consoleHeaders(c));
  });
}
