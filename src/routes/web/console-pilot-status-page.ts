/**
 * GET /console/claims/{id}/pilot-status (view: src/web/pages/console-pilot-status.tsx): the
 * pilot status of the owner's own verified claim, the same domain read as
 * GET /api/v1/provider/pilot-status (see src/domain/claims/owner-pilot-status.ts for why a session
 * may read it without a key), each collection at the API's default cap. A claim no longer verified
 * and fresh is the API's 404, as a page.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { readOwnerPilotStatus } from "../../domain/claims/owner-pilot-status.ts";
import { PILOT_STATUS_DEFAULT_LIMIT } from "../../domain/claims/pilot-status.ts";
import type { AppEnv } from "../../http/context.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { CONSOLE_ROUTES } from "../../web/console-paths.ts";
import { renderPilotStatusPage } from "../../web/pages/console-pilot-status.tsx";
import { claimIdOf, consoleHeaders, consoleSession } from "./console-session.ts";

/** Serves the pilot status page of a claim. */
export function registerConsolePilotStatusPage(app: OpenAPIHono<AppEnv>) {
  app.get(CONSOLE_ROUTES.pilotStatus, consoleSession(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const claimId = claimIdOf(c);
    const status = await readOwnerPilotStatus({
      ctx: c.var.deps,
      actor,
      input: { claimId, limit: PILOT_STATUS_DEFAULT_LIMIT },
    });
    const page = await renderPilotStatusPage({ origin: c.var.deps.origin, claimId, status });
    return c.html(page, 200, await consoleHeaders(c));
  });
}
