/**
 * {mcp_url} = {origin}/mcp: the service's MCP server over Streamable HTTP, stateless. Every POST
 * gets a fresh server and transport (no session ids, nothing kept between requests, so any isolate
 * can answer any request), and the answer is one JSON body rather than an event stream. A
 * stateless server offers no GET stream and no session to DELETE: those, and any other method,
 * are answered 405 with a JSON-RPC error. Pages on any origin may call it (`mcpCors`).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { AppEnv } from "../../http/context.ts";
import { mcpCors } from "../../http/middleware/mcp-cors.ts";
import type { LiveChecksSource } from "./live-checks-source.ts";
import { MCP_PATH } from "./mcp-path.ts";
import { createMcpServer } from "./mcp-server.ts";

export { MCP_PATH };

const METHOD_NOT_ALLOWED_BODY = JSON.stringify({
  jsonrpc: "2.0",
  error: {
    // The code the SDK's transport gives its own HTTP-level refusals (JSON-RPC's server range).
    code: -32000,
    message: "Method not allowed: this stateless MCP server takes JSON-RPC requests by POST only.",
  },
  id: null,
});

// POST, and OPTIONS for the CORS preflight of browser clients.
const ALLOWED_METHODS = "POST, OPTIONS";

/**
 * Mounts POST /mcp, its CORS, and the 405 answer of every other method on the site-root routes;
 * its tools run the live checks `liveChecks` gives for each request.
 */
export function registerMcpEndpoint(siteRoutes: OpenAPIHono<AppEnv>, liveChecks: LiveChecksSource) {
  siteRoutes.use(MCP_PATH, mcpCors());
  siteRoutes.post(MCP_PATH, async (c) => {
    c.set("liveChecks", liveChecks(c.env, c.var.deps));
    const server = createMcpServer(c);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      // In JSON mode this settles once every response of the request is written into the body.
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  // Every other method, in the JSON-RPC shape MCP clients read (a GET for a stream included).
  siteRoutes.all(MCP_PATH, (c) => {
    return c.body(METHOD_NOT_ALLOWED_BODY, 405, { "Content-Type": "application/json", Allow: ALLOWED_METHODS });
  });
}
