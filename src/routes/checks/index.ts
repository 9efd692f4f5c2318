/** The checks group: live check, live MCP verification and crawl submission. */
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import { registerCheckSite } from "./check-site.ts";
import { registerSubmitSite } from "./submit-site.ts";
import { registerVerifyMcp } from "./verify-mcp.ts";

export function createChecksGroup(): RouteGroup {
  const routes = createRoutes();
  registerCheckSite(routes);
  registerVerifyMcp(routes);
  registerSubmitSite(routes);
  return { name: "checks", routes };
}
