/**
 * GET /state: the state of the agent web (view: src/web/pages/state.tsx), from the same domain
 * operation and cache as GET /api/v1/stats/adoption, over the longest window it offers (365 days).
 * `category` picks one category and `sort` the order of the latest figures; a bad value of either
 * is a 400 page. Other parameters are ignored, as on the other pages.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { SITE_PATHS } from "../../domain/descriptor/site-documents.ts";
import { CATEGORIES } from "../../domain/sites/site-fields.ts";
import { ADOPTION_CACHE_SECONDS, ADOPTION_MAX_DAYS, adoptionFigures } from "../../domain/stats/adoption-figures.ts";
import type { AppEnv } from "../../http/context.ts";
import { HttpProblem } from "../../http/problem.ts";
import { STATE_SORTS } from "../../web/adoption-summary.ts";
import { renderStatePage } from "../../web/pages/state.tsx";
import { pageHeaders } from "./page-errors.ts";

const StateQuerySchema = z.object({
  category: z.enum(CATEGORIES).optional(),
  sort: z.enum(STATE_SORTS).default("item"),
});

/** Serves the state page at /state. */
export function registerStatePage(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_PATHS.state, async (c) => {
    const { origin } = c.var.deps;
    const parsed = StateQuerySchema.safeParse({
      category: c.req.query("category") || undefined,
      sort: c.req.query("sort") || undefined,
    });
    if (!parsed.success) {
      throw new HttpProblem(
        400,
        "VALIDATION_FAILED",
        `The address asks for an unknown ${parsed.error.issues[0]?.path.join(".")}: category must be one of ${CATEGORIES.join(", ")}, and sort one of ${STATE_SORTS.join(", ")}.`,
      );
    }
    const { category, sort } = parsed.data;
    const { cacheHit: _hit, ...figures } = await adoptionFigures({
      ctx: c.var.deps,
      input: { days: ADOPTION_MAX_DAYS, category },
    });
    return c.html(
      await renderStatePage({ origin, category, sort, figures }),
      200,
      pageHeaders(c, `public, max-age=${ADOPTION_CACHE_SECONDS}`),
    );
  });
}
