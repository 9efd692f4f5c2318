import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../context.ts";
import { EXPOSED_HEADERS } from "./read-cors.ts";

/**
 * CORS of a public MCP endpoint, as public MCP servers offer it, so that an MCP client running in
 * a page on any origin can connect: preflights allow POST (and GET and DELETE, which the
 * endpoint answers with 405) with the Streamable HTTP transport's headers (the 2026-07-28
 * revision's `Mcp-Method` and `Mcp-Name` among them), and replies expose
 * `Mcp-Session-Id` and `Mcp-Protocol-Version`. Any origin, no credentials: the endpoint takes no
 * cookies or keys. Tools that change state on a principal's behalf refuse browsers on other
 * origins themselves (`refuseCrossOriginBrowserMutations`).
 *
 * @example siteRoutes.use("/mcp", mcpCors());
 */
export function mcpCors(): MiddlewareHandler<AppEnv> {
  return cors({
    origin: "*",
    allowMethods: ["GET", "POST", "DELETE"],
    allowHeaders: [
      "Content-Type",
      "Accept",
      "Authorization",
      "Mcp-Session-Id",
      "Mcp-Protocol-Version",
      "Mcp-Method",
      "Mcp-Name",
      "Last-Event-ID",
      "X-SVC-Synthetic",
      "X-Request-Id",
    ],
    exposeHeaders: ["Mcp-Session-Id", "Mcp-Protocol-Version", ...EXPOSED_HEADERS],
    maxAge: 86400,
  });
}
