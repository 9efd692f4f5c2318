/**
 * {mcp_url} = {origin}/mcp: the service's MCP server over Streamable HTTP, stateless, on both
 * protocol eras through the official SDK v2's `createMcpHandler`: a 2026-07-28 request (the
 * `_meta` envelope, `MCP-Protocol-Version` and `Mcp-Method` headers; `server/discover`) is served
 * by the modern path, which validates the envelope and headers and answers that revision's errors;
 * a 2025 request (`initialize`, then requests without the envelope), told apart by the SDK's own
 * `isLegacyRequest`, by the SDK's Streamable HTTP transport in stateless JSON mode (the SDK's
 * built-in legacy fallback would answer with an event stream). Either way every POST gets a fresh server (no session ids, nothing kept between
 * requests, so any isolate can answer any request), and the answer is one JSON body rather than an
 * event stream. A stateless server offers no GET stream and no session to DELETE: those, and any
 * other method, are answered 405 with a JSON-RPC error. Pages on any origin may call it (`mcpCors`).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { Context } from "hono";
import { buildMcpServerCard, DOCUMENT_CACHE_CONTROL } from "../../domain/descriptor/site-documents.ts";
import type { AppEnv } from "../../http/context.ts";
import { mcpCors } from "../../http/middleware/mcp-cors.ts";
import { MAX_BODY_BYTES } from "../../http/middleware/request-size.ts";
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
 * The SDK reads the body itself (to tell the eras apart), under the same bound as every other
 * route; the request-size middleware has already refused a larger body with its 413 problem.
 */
const MCP_MAX_BODY_BYTES = MAX_BODY_BYTES;

/** A 2025-era request: a fresh server on a stateless transport that answers one JSON body. */
async function serveLegacy(c: Context<AppEnv>): Promise<Response> {
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
}

/** A 2026-07-28 request: the SDK's modern path, with a server built in this request's context. */
function serveModern(c: Context<AppEnv>): Promise<Response> {
  const handler = createMcpHandler(() => createMcpServer(c), {
    legacy: "reject",
    // Every answer is one JSON body: no tool sends progress or asks the client anything mid-call.
    responseMode: "json",
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
  });
  return handler.fetch(c.req.raw);
}

/** Serves one POST in the era it was sent in. */
async function serveMcp(c: Context<AppEnv>): Promise<Response> {
  const legacy = await isLegacyRequest(c.req.raw, undefined, { maxRequestBodySize: MCP_MAX_BODY_BYTES });
  return legacy ? serveLegacy(c) : serveModern(c);
}

/**
 * Mounts POST /mcp, its CORS, and the 405 answer of every other method on the site-root routes;
 * its tools run the live checks `liveChecks` gives for each request.
 */
export function registerMcpEndpoint(siteRoutes: OpenAPIHono<AppEnv>, liveChecks: LiveChecksSource) {
  siteRoutes.use(MCP_PATH, mcpCors());
  // The server card (SEP-2127) at `<endpoint>/server-card`, beside the endpoint it describes.
  siteRoutes.get(`${MCP_PATH}/server-card`, (c) => {
    c.header("Cache-Control", DOCUMENT_CACHE_CONTROL);
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(buildMcpServerCard(c.var.deps.origin), 200);
  });
  siteRoutes.post(MCP_PATH, (c) => {
    c.set("liveChecks", liveChecks(c.env, c.var.deps));
    return serveMcp(c);
  });
  // Every other method, in the JSON-RPC shape MCP clients read (a GET for a stream included).
  siteRoutes.all(MCP_PATH, (c) => {
    return c.body(METHOD_NOT_ALLOWED_BODY, 405, { "Content-Type": "application/json", Allow: ALLOWED_METHODS });
  });
}
