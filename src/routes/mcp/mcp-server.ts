/**
 * The service's MCP server: one per request (the endpoint is stateless), bound to that request's
 * context so its tools use the request's dependencies and count against its client's limits.
 *
 * It is a tools-only server on the SDK's `Protocol` (`ToolsServer`), not `McpServer`: `McpServer`
 * validates arguments itself and reports a failure as plain text, while these tools validate with
 * the REST schemas so that a failure carries the REST problem's code, message and field list; nor
 * the SDK's `Server`, whose module bundles a JSON Schema compiler this server never uses
 * (tools-server.ts says why).
 */
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  McpError,
  PingRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "hono";
import { z } from "zod";
import { SERVICE_VERSION } from "../../domain/descriptor/build-descriptor.ts";
import type { AppEnv } from "../../http/context.ts";
import { fieldErrors } from "../../http/validation.ts";
import { SUBMIT_LIMIT } from "../checks/submit-site.ts";
import { SEARCH_LIMIT } from "../discovery/search-sites.ts";
import { ACTION_INTEREST_LIMIT } from "../exchange/record-action-interest.ts";
import { CHECK_LIMIT, VERIFY_MCP_LIMIT } from "../shared/live-check-limits.ts";
import { MCP_TOOLS, type McpTool } from "./mcp-tools.ts";
import { buildToolError, buildToolResult } from "./tool-result.ts";
import { ToolsServer } from "./tools-server.ts";

export const MCP_SERVER_NAME = "agent-readiness-search";

export const MCP_INSTRUCTIONS = [
  "Agent Readiness Search: a free, neutral index of web sites scored 0-100 for readiness to be used by AI agents, from 7 signals (llms.txt, AI plugin manifest, OpenAPI, structured API, MCP server, AI rules in robots.txt, schema.org).",
  "search_sites finds sites (organic order; nothing paid changes it) and get_top_sites lists the best scores; get_site gives one site's detail (pass the search's search_id when the user picks a result); list_categories and get_stats describe the index.",
  "check_site crawls a site live, verify_mcp performs a live MCP handshake with an endpoint, and submit_site queues a site for crawling.",
  "record_action_interest records that the user explicitly wants an action on a returned result; call it only as a search's action_interest.call_contract allows, never on inferred interest.",
  "Tool results carry the same JSON as the REST API under /api/v1; errors are tool errors whose JSON text has the REST error's code and message (RATE_LIMITED adds retry_after_seconds).",
  `Free limits are shared with REST, per client and hour: search ${SEARCH_LIMIT.limit}, check ${CHECK_LIMIT.limit}, verify_mcp ${VERIFY_MCP_LIMIT.limit}, submit ${SUBMIT_LIMIT.limit}, action interests ${ACTION_INTEREST_LIMIT.limit}.`,
].join(" ");

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

// The requests this server answers, with the SDK's own schemas of their params.
const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
};

/** The most field problems one -32602 message names. */
const MAX_LISTED_PARAMS = 5;

type RequestHandler = (request: { method: string; params?: unknown }, extra: unknown) => Promise<unknown>;

/**
 * JSON-RPC's -32602 Invalid params, in the words of REST's validation messages: "Invalid params:
 * clientInfo must be an object, not null". Fields are named from inside `params`.
 */
export function invalidParamsError(error: z.ZodError): McpError {
  const problems = fieldErrors(error, "json").map((fieldError) => {
    const field = fieldError.field === "params" ? "params" : fieldError.field.replace(/^params\./, "");
    return `${field} ${fieldError.message}`;
  });
  const listed = problems.slice(0, MAX_LISTED_PARAMS).join("; ");
  const more = problems.length > MAX_LISTED_PARAMS ? `; and ${problems.length - MAX_LISTED_PARAMS} more` : "";
  return new McpError(ErrorCode.InvalidParams, `Invalid params: ${listed}${more}`);
}

/**
 * The SDK's `Protocol` parses a request's params with its schema before any handler runs, and
 * answers a failure as -32603 Internal error carrying the schema library's raw issue list. Params of the wrong shape are the client's mistake, which
 * JSON-RPC answers -32602: each handler the server holds is wrapped to check the params first,
 * with the SDK's own schema, and to answer a failure so. The SDK keeps its handlers in a private
 * map with no public accessor; the SDK version is pinned, and test/integration/hostile-input.test.ts
 * fails if the map moves.
 */
function answerInvalidParamsPlainly(server: ToolsServer): void {
  const handlers = (server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error("mcp: the SDK's request handlers are not where expected");
  for (const [method, handler] of handlers) {
    const schema = REQUEST_SCHEMAS[method];
    handlers.set(method, async (request, extra) => {
      const checked = schema?.safeParse(request);
      if (checked && !checked.success) throw invalidParamsError(checked.error);
      try {
        return await handler(request, extra);
      } catch (error) {
        // The SDK's own parse may fail with the core error class rather than the classic one.
        throw error instanceof z.core.$ZodError ? invalidParamsError(error as z.ZodError) : error;
      }
    });
  }
}

/** A fresh server whose tools run in the context of request `c`. */
export function createMcpServer(c: Context<AppEnv>): ToolsServer {
  const server = new ToolsServer(
    { name: MCP_SERVER_NAME, title: "Agent Readiness Search", version: SERVICE_VERSION },
    { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS },
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
  answerInvalidParamsPlainly(server);
  return server;
}
