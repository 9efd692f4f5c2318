/** The discovery group: descriptor, search, top, site, categories, stats. */
import { edgeCache } from "../../http/middleware/edge-cache.ts";
import { createRoutes, type GroupDefinition, type RouteGroup } from "../../http/routes.ts";
import { refreshWideBeginningsTask } from "../../jobs/refresh-wide-beginnings.ts";
import { registerGetCategories } from "./get-categories.ts";
import { registerGetDescriptor } from "./get-descriptor.ts";
import { registerGetSite } from "./get-site.ts";
import { registerGetStats } from "./get-stats.ts";
import { registerGetTop } from "./get-top.ts";
import { registerSearchSites } from "./search-sites.ts";

/** Builds the discovery group's endpoints. */
export function createDiscoveryGroup(): RouteGroup {
  const routes = createRoutes();
  // Reads that write nothing come from the edge while fresh (src/http/middleware/edge-cache.ts);
  // a site view with a search_id records a selection, so it always reaches its route.
  for (const path of ["/top", "/categories", "/stats"]) routes.use(path, edgeCache());
  routes.use("/site/:domain", edgeCache({ when: (c) => c.req.query("search_id") === undefined }));
  registerGetDescriptor(routes);
  registerSearchSites(routes);
  registerGetTop(routes);
  registerGetSite(routes);
  registerGetCategories(routes);
  registerGetStats(routes);
  return { name: "discovery", routes };
}

/** The discovery group in a Worker: its endpoints, and the daily refresh of the index's wide beginnings. */
export const discoveryGroup: GroupDefinition = {
  name: "discovery",
  createRoutes: createDiscoveryGroup,
  jobs: { crons: [refreshWideBeginningsTask] },
};
