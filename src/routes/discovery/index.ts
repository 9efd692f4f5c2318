/** The discovery group: descriptor, search, top, site, categories, stats. */
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import { registerGetCategories } from "./get-categories.ts";
import { registerGetDescriptor } from "./get-descriptor.ts";
import { registerGetSite } from "./get-site.ts";
import { registerGetStats } from "./get-stats.ts";
import { registerGetTop } from "./get-top.ts";
import { registerSearchSites } from "./search-sites.ts";

export function createDiscoveryGroup(): RouteGroup {
  const routes = createRoutes();
  registerGetDescriptor(routes);
  registerSearchSites(routes);
  registerGetTop(routes);
  registerGetSite(routes);
  registerGetCategories(routes);
  registerGetStats(routes);
  return { name: "discovery", routes };
}
