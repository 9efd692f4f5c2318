/**
 * GET /console/claims/{id}/demand (view: src/web/pages/console-demand.tsx): the demand of the
 * owner's own verified claim, the same domain read as GET /api/v1/provider/demand (see
 * src/domain/demand/owner-demand.ts for why a session may read it without a key). `days` is the
 * API's (a whole number from 1 to 30, default 30); reads count 240 an hour per account, the API's
 * number per key. A claim no longer verified and fresh is the API's 404, as a page.
 */
import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { DEMAND_DEFAULT_DAYS, DEMAND_MAX_DAYS, DEMAND_MIN_DAYS } from "../../domain/demand/demand-constants.ts";
import { readOwnerDemand } from "../../domain/demand/owner-demand.ts";
import { DomainError } from "../../domain/errors.ts";
import type { AppEnv } from "../../http/context.ts";
import { consumeRateLimit } from "../../http/middleware/rate-limit.ts";
import { sessionActorOf } from "../../http/middleware/require-session.ts";
import { CONSOLE_ROUTES } from "../../web/console-paths.ts";
import { renderDemandPage } from "../../web/pages/console-demand.tsx";
import { DEMAND_LIMIT } from "../provider/demand.ts";
import { claimIdOf, consoleHeaders, consoleSession } from "./console-session.ts";

const DaysSchema = z.coerce.number().int().min(DEMAND_MIN_DAYS).max(DEMAND_MAX_DAYS).default(DEMAND_DEFAULT_DAYS);

/** Serves the demand page of a claim. */
export function registerConsoleDemandPage(app: OpenAPIHono<AppEnv>) {
  app.get(CONSOLE_ROUTES.demand, consoleSession(), async (c) => {
    const actor = sessionActorOf(c.var.actor);
    const claimId = claimIdOf(c);
    const days = DaysSchema.safeParse(c.req.query("days") || undefined);
    if (!days.success) {
      throw new DomainError(
        "invalid",
        "INVALID_DAYS",
        `The period must be a whole number of days from ${DEMAND_MIN_DAYS} to ${DEMAND_MAX_DAYS}.`,
      );
    }
    const limitHeaders = await consumeRateLimit(c, {
      name: "console-demand",
      limit: DEMAND_LIMIT.limit,
      window: DEMAND_LIMIT.window,
      identify: () => `account:${actor.accountId}`,
    });
    const answer = await readOwnerDemand({ ctx: c.var.deps, actor, input: { claimId, days: days.data } });
    const page = await renderDemandPage({
      origin: c.var.deps.origin,
      claimId,
      demand: answer.demand,
      evidenceScope: answer.evidence_scope,
    });
    return c.html(page, 200, { ...limitHeaders, ...(await consoleHeaders(c)) });
  });
}
