/**
 * The service's MCP server: one per request (the endpoint is stateless), bound to that request's
 * context so its tools use the request's dependencies and count against its client's limits.
 *
 * It is the SDK's low-level `Server`, not `McpServer`: `McpServer` validates arguments itself and
 * reports a failure as plain text, while these tools validate with the REST schemas so that a
 * failure carries the REST problem's code, message and field list.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { Context } from "hono";
import { SERVICE_VERSION } from "../../domain/descriptor/build-descriptor.ts";
import type { AppEnv } from "../../http/context.ts";
import { CHECK_LIMIT } from "../checks/check-site.ts";
import { SUBMIT_LIMIT } from "../checks/submit-site.ts";
import { VERIFY_MCP_LIMIT } from "../checks/verify-mcp.ts";
import { SEARCH_LIMIT } from "../discovery/search-sites.ts";
import { ACTION_INTEREST_LIMIT } from "../exchange/record-action-interest.ts";
import { MCP_TOOLS, type McpTool } from "./mcp-tools.ts";
import { buildToolError, buildToolResult } from "./tool-result.ts";

export const MCP_SERVER_NAME = "agent-readiness-search";

export const MCP_INSTRUCTIONS = [
  "Agent Readiness Search: a free, neutral index of web sites scored 0-100 for readiness to be used by AI agents, from 7 signals (llms.txt, AI plugin manifest, OpenAPI, structured API, MCP server, AI rules in robots.txt, schema.org).",
  "search_sites finds sites (organic order; nothing paid changes it) and get_top_sites lists the best scores; get_site gives one site's detail (pass the search's search_id when the user picks a result); list_categories and get_stats describe the index.",
  "check_site crawls a site live, verify_mcp performs a live MCP handshake with an endpoint, and submit_site queues a site for crawling.",
  "record_action_interest records that the user explicitly wants an action on a returned result; call it only as a search's action_interest.call_contract allows, never on inferred interest.",
  "Tool results carry the same JSON as the REST API under /api/v1; errors are tool errors whose JSON text has the REST error's code and message (RATE_LIMITED adds retry_after_seconds).",
  `Free limits are shared with REST, per client and hour: search ${SEARCH_LIMIT.limit}, check ${CHECK_LIMIT.limit}, verify_mcp ${VERIFY_MCP_LIMIT.limit}, submit ${SUBMIT_LIMIT.limit}, action interests ${ACTION_INTEREST_LIMIT.limit}.`,
].join(" ");

// The server never asks the client for anything (no elicitation), so it has no schema to check;
// this keeps it from building a JSON Schema compiler on every request.
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error("this server sends no elicitation requests");
  },
};

const toolsByName = new Map(MCP_TOOLS.map((tool) => [tool.name, tool]));

// Built on the first tools/list of an isolate: it depends only on the tools.
let listedTools: Tool[] | undefined;

function listTools(tools: McpTool[]): Tool[] {
  listedTools ??= tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema(),
    outputSchema: tool.outputSchema(),
    annotations: { title: tool.title, ...tool.annotations },
  }));
  return listedTools;
}

/** A fresh server whose tools run in the context of request `c`. */
export function createMcpServer(c: Context<AppEnv>): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, title: "Agent Readiness Search", version: SERVICE_VERSION },
    { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools(MCP_TOOLS) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = toolsByName.get(request.params.name);
    // An unknown tool is a protocol error (the MCP spec's own example), not a tool's failure.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      return buildToolResult(await tool.call(c, request.params.arguments ?? {}));
    } catch (error) {
      return buildToolError(error);
    }
  });
  return server;
}
