/** The discovery group: descriptor, search, top, site, categories, stats, adoption, and the ARD registry. */
import { ardErrorMembers } from "../../http/middleware/ard-errors.ts";
import { edgeCache } from "../../http/middleware/edge-cache.ts";
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import { refreshWideBeginningsTask } from "../../jobs/refresh-wide-beginnings.ts";
import { rollupAdoptionTask } from "../../jobs/rollup-adoption.ts";
import type { GroupDefinition } from "../group-definition.ts";
import { registerArdExplore } from "./ard-explore.ts";
import { registerArdGetAgent } from "./ard-get-agent.ts";
import { registerArdListAgents } from "./ard-list-agents.ts";
import { registerArdSearch } from "./ard-search.ts";
import { adoptionFormat, registerGetAdoption } from "./get-adoption.ts";
import { registerGetAdoptionCsv } from "./get-adoption-csv.ts";
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
  for (const path of ["/top", "/categories", "/stats", "/stats/adoption.csv"]) routes.use(path, edgeCache());
  // JSON or CSV by Accept: each kept apart at the edge.
  routes.use("/stats/adoption", edgeCache({ variant: adoptionFormat }));
  routes.use("/site/:domain", edgeCache({ when: (c) => c.req.query("search_id") === undefined }));
  registerGetDescriptor(routes);
  registerSearchSites(routes);
  registerGetTop(routes);
  registerGetSite(routes);
  registerGetCategories(routes);
  registerGetStats(routes);
  registerGetAdoption(routes);
  registerGetAdoptionCsv(routes);
  return { name: "discovery", routes, ardRoutes: createArdRoutes() };
}

/**
 * The ARD registry over the index (ARD v0.91 §5.3), under /ard/v1: Search, Explore, List and
 * Retrieve. Part of this group because it is the organic index read another way: the same
 * Worker, the same site search and the same search limit.
 */
function createArdRoutes() {
  const ardRoutes = createRoutes();
  ardRoutes.use("*", ardErrorMembers());
  // The listing and the lookup write nothing: answered from the edge while fresh.
  for (const path of ["/agents", "/agents/:identifier"]) ardRoutes.use(path, edgeCache());
  registerArdSearch(ardRoutes);
  registerArdExplore(ardRoutes);
  registerArdListAgents(ardRoutes);
  registerArdGetAgent(ardRoutes);
  return ardRoutes;
}

/**
 * The discovery group in a Worker: its endpoints, the daily refresh of the index's wide beginnings
 * and the daily adoption rollup.
 */
export const discoveryGroup: GroupDefinition = {
  name: "discovery",
  createRoutes: createDiscoveryGroup,
  jobs: { crons: [refreshWideBeginningsTask, rollupAdoptionTask] },
};
