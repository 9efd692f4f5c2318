/** The discovery group: descriptor, search, top, site, categories, stats. */
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import { registerGetDescriptor } from "./get-descriptor.ts";

export function createDiscoveryGroup(): RouteGroup {
  const routes = createRoutes();
  registerGetDescriptor(routes);
  return { name: "discovery", routes };
}
