/** The MCP group: the service's own MCP server (Streamable HTTP, stateless) at {mcp_url} = /mcp. */
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import type { GroupDefinition } from "../group-definition.ts";
import { registerMcpEndpoint } from "./mcp-endpoint.ts";

/** Builds the mcp group's endpoints. */
export function createMcpGroup(): RouteGroup {
  const siteRoutes = createRoutes();
  registerMcpEndpoint(siteRoutes);
  return { name: "mcp", routes: createRoutes(), siteRoutes };
}

/** The MCP group in a Worker: its endpoint; it owns no jobs. */
export const mcpGroup: GroupDefinition = { name: "mcp", createRoutes: createMcpGroup };
