/**
 * The public web root: the OpenAPI document and its reference page, the documents agents look for
 * (llms.txt, robots.txt, the AI plugin manifest, the API catalog, the MCP discovery document), the
 * score badges, and the pages for people (home and search, site reports, the check, submit and
 * MCP verification forms, score-drop monitors, sign-in and the provider console, privacy, the state of the agent web), whose failures are pages too. Served at the site root, not
 * under /api/v1.
 */
import { SITE_PATHS } from "../../domain/descriptor/site-documents.ts";
import { edgeCache } from "../../http/middleware/edge-cache.ts";
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import { SITE_ICON_PATH } from "../../web/site-icon.tsx";
import type { GroupDefinition } from "../group-definition.ts";
import { registerAgentDocuments } from "./agent-documents.ts";
import { registerApiReference } from "./api-reference.ts";
import { BADGE_PATH, registerBadge } from "./badge.ts";
import { registerCheckPage } from "./check-page.ts";
import { registerConsoleClaimPage } from "./console-claim-page.ts";
import { registerConsoleConfirmPages } from "./console-confirm-pages.ts";
import { registerConsoleDemandPage } from "./console-demand-page.ts";
import { registerConsoleHomePage } from "./console-home-page.ts";
import { registerConsoleOfferPage } from "./console-offer-page.ts";
import { registerConsoleOffersPage } from "./console-offers-page.ts";
import { registerConsolePilotStatusPage } from "./console-pilot-status-page.ts";
import { prefersMarkdown, readSearchForm, registerHomePage } from "./home-page.ts";
import { registerMonitorPages } from "./monitor-pages.ts";
import { registerOpenApiDocument } from "./openapi-document.ts";
import { createPageRoutes } from "./page-errors.ts";
import { registerPrivacyPage } from "./privacy-page.ts";
import { registerProblemPages } from "./problem-pages.ts";
import { registerSignInPage } from "./sign-in-page.ts";
import { registerSiteIcon } from "./site-icon.ts";
import { registerSiteReportPage, SITE_REPORT_PATH } from "./site-report-page.ts";
import { registerStatePage } from "./state-page.ts";
import { registerSubmitPage } from "./submit-page.ts";
import { registerVerifyMcpPage } from "./verify-mcp-page.ts";

/** Builds the web group's endpoints. */
export function createWebGroup(): RouteGroup {
  const siteRoutes = createRoutes();
  registerOpenApiDocument(siteRoutes);
  registerAgentDocuments(siteRoutes);
  // A badge reads the store and writes nothing: served from the edge while fresh (5 minutes).
  siteRoutes.use(BADGE_PATH, edgeCache());
  registerBadge(siteRoutes);
  // A site's icon, fetched once and cached a day: served from the edge while fresh too.
  siteRoutes.use(SITE_ICON_PATH, edgeCache());
  registerSiteIcon(siteRoutes);
  // What each problem's `type` URL documents; an unknown type is the 404 problem, as any unknown path.
  registerProblemPages(siteRoutes);

  const pages = createPageRoutes();
  // The home page without a search (whose answers are private) reads only cached figures and
  // writes nothing: served from the edge while fresh.
  // It negotiates Markdown for agents (`Accept: text/markdown`), so each representation is kept apart.
  pages.use(
    SITE_PATHS.home,
    edgeCache({
      when: (c) => readSearchForm(new URL(c.req.url).searchParams) === null,
      variant: (c) => (prefersMarkdown(c.req.header("accept")) ? "markdown" : ""),
    }),
  );
  registerHomePage(pages);
  // A site's report (without a search_id, which records a selection) and the state of the agent
  // web read the store and write nothing: served from the edge while fresh (their max-age).
  pages.use(SITE_REPORT_PATH, edgeCache({ when: (c) => c.req.query("search_id") === undefined }));
  pages.use(SITE_PATHS.state, edgeCache());
  registerSiteReportPage(pages);
  registerCheckPage(pages);
  registerSubmitPage(pages);
  registerVerifyMcpPage(pages);
  registerSignInPage(pages);
  registerMonitorPages(pages);
  registerConsoleHomePage(pages);
  registerConsoleClaimPage(pages);
  registerConsoleConfirmPages(pages);
  registerConsoleDemandPage(pages);
  registerConsoleOffersPage(pages);
  registerConsoleOfferPage(pages);
  registerConsolePilotStatusPage(pages);
  registerApiReference(pages);
  registerPrivacyPage(pages);
  registerStatePage(pages);
  siteRoutes.route("/", pages);

  return { name: "web", routes: createRoutes(), siteRoutes };
}

/** The web group in a Worker: its pages and documents; it owns no jobs. */
export const webGroup: GroupDefinition = { name: "web", createRoutes: createWebGroup };
