/**
 * GET /sites/{domain}: the report page of an indexed site (view: src/web/pages/site-report.tsx),
 * from the same domain operation as GET /api/v1/site/{domain}. A `search_id` from the search page's
 * result links records the result selection exactly as the API does. An unknown domain is a 404
 * page that offers a live check.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { SITE_KINDS } from "../../domain/checklist/checklist-definition.ts";
import { DomainError } from "../../domain/errors.ts";
import { SEARCH_ID_PATTERN } from "../../domain/search-receipts/search-id.ts";
import { getSiteDetail } from "../../domain/sites/get-site-detail.ts";
import type { AppEnv } from "../../http/context.ts";
import { HttpProblem } from "../../http/problem.ts";
import { renderSiteReportPage, renderUnknownSitePage } from "../../web/pages/site-report.tsx";
import { progressScriptHash } from "../../web/progress-script.ts";
import { reportFromSiteDetail } from "../../web/site-report.tsx";
import { pageHeaders } from "./page-errors.ts";

export const SITE_REPORT_PATH = "/sites/:domain";

const SearchIdSchema = z.string().regex(SEARCH_ID_PATTERN).optional();
/** The kind of site chosen on the page (the checklist's tally); anything else reads as none. */
const KindSchema = z.enum(SITE_KINDS).optional().catch(undefined);

/** Serves the report page of a site. */
export function registerSiteReportPage(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_REPORT_PATH, async (c) => {
    const { origin } = c.var.deps;
    const domain = c.req.param("domain");
    const searchId = SearchIdSchema.safeParse(c.req.query("search_id"));
    if (!searchId.success) {
      throw new HttpProblem(
        400,
        "VALIDATION_FAILED",
        "The search_id in this address is not one a search gave out; open the site from the search results again.",
      );
    }
    const scripts = [await progressScriptHash()];
    const detail = await getSiteDetail({ ctx: c.var.deps, input: { domain, searchId: searchId.data } }).catch(
      (error: unknown) => {
        if (error instanceof DomainError && error.kind === "not_found") return null;
        throw error;
      },
    );
    if (!detail) {
      return c.html(await renderUnknownSitePage(origin, domain), 404, pageHeaders(c, "no-store", scripts));
    }
    // A view that records a selection belongs to one person; a plain view may be shared briefly.
    const cacheControl = searchId.data ? "private, no-store" : "public, max-age=60";
    const kind = KindSchema.parse(c.req.query("kind"));
    const report = reportFromSiteDetail(detail);
    return c.html(
      await renderSiteReportPage(origin, kind ? { ...report, kind } : report, c.var.deps.trustedHosts),
      200,
      pageHeaders(c, cacheControl, scripts),
    );
  });
}
