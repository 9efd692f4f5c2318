/** The checks group: live check, live MCP verification and crawl submission, and the crawl jobs. */
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import { CRAWL_QUEUE, consumeCrawlBatch } from "../../jobs/crawl-consumer.ts";
import { queueImportedCrawls } from "../../jobs/queue-imported-crawls.ts";
import { RECRAWL_CRON, recrawlStaleSites } from "../../jobs/recrawl-stale.ts";
import type { GroupDefinition } from "../group-definition.ts";
import { registerCheckSite } from "./check-site.ts";
import { registerSubmitSite } from "./submit-site.ts";
import { registerVerifyMcp } from "./verify-mcp.ts";

/** Builds the checks group's endpoints. */
export function createChecksGroup(): RouteGroup {
  const routes = createRoutes();
  registerCheckSite(routes);
  registerVerifyMcp(routes);
  registerSubmitSite(routes);
  return { name: "checks", routes };
}

/**
 * The checks group in a Worker: its endpoints, the consumer of the crawl queue that /submit and
 * the recrawl fill, the recrawl of the stalest sites, and the crawls of seed imports' leads.
 */
export const checksGroup: GroupDefinition = {
  name: "checks",
  createRoutes: createChecksGroup,
  jobs: {
    crons: [
      { cron: RECRAWL_CRON, name: "recrawl stale sites", run: recrawlStaleSites },
      { cron: RECRAWL_CRON, name: "queue imported crawls", run: queueImportedCrawls },
    ],
    queues: [{ queue: CRAWL_QUEUE, consume: consumeCrawlBatch }],
  },
};
