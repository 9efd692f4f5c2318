/** The MCP group: the service's own MCP server (Streamable HTTP, stateless) at {mcp_url} = /mcp. */
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import { registerMcpEndpoint } from "./mcp-endpoint.ts";

export function createMcpGroup(): RouteGroup {
  const siteRoutes = createRoutes();
  registerMcpEndpoint(siteRoutes);
  return { name: "mcp", routes: createRoutes(), siteRoutes };
}
