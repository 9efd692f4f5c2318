/**
 * Where the MCP server is served, at the site root (the descriptor's `mcp_endpoint`). Apart from
 * the endpoint so that every Worker's app can name the path (its CORS exception) without bundling
 * the MCP server, which only the Workers of the mcp group run.
 */
export const MCP_PATH = "/mcp";
