/** The MCP group: the service's own MCP server (Streamable HTTP, stateless) at {mcp_url} = /mcp. */
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import type { GroupDefinition } from "../group-definition.ts";
import type { LiveChecksSource } from "./live-checks-source.ts";
import { registerMcpEndpoint } from "./mcp-endpoint.ts";

/**
 * Builds the mcp group's endpoints, whose check_site and verify_mcp tools run the live checks
 * `liveChecks` gives: the entry that builds the group chooses, so this module bundles none.
 */
export function createMcpGroup(liveChecks: LiveChecksSource): RouteGroup {
  const siteRoutes = createRoutes();
  registerMcpEndpoint(siteRoutes, liveChecks);
  return { name: "mcp", routes: createRoutes(), siteRoutes };
}

/**
 * The MCP group in a Worker: its endpoint with the live checks of `liveChecks`; it owns no jobs.
 *
 * @example defineMcpGroup(liveChecksOverRpc) // functions/mcp.ts: the checks Worker runs them
 */
export function defineMcpGroup(liveChecks: LiveChecksSource): GroupDefinition {
  return { name: "mcp", createRoutes: () => createMcpGroup(liveChecks) };
}
