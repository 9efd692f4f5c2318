/**
 * The service's MCP server: one per request (the endpoint is stateless), bound to that request's
 * context so its tools, resources and prompts use the request's dependencies and count against its
 * client's limits.
 *
 * It is the official SDK v2's low-level `Server` (`@modelcontextprotocol/server`), which serves
 * both protocol eras from one definition: `server/discover` and the per-request `_meta` envelope of
 * 2026-07-28, and the `initialize` handshake of the 2025 revisions (mcp-endpoint.ts routes each
 * request to its era). Not `McpServer`: `McpServer` validates tool arguments itself and reports a
 * failure as plain text, while these tools validate with the REST schemas so that a failure
 * carries the REST problem's code, message and field list (docs/mcp.md).
 */
import {
  type GetPromptResult,
  type JSONRPCRequest,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  ResourceNotFoundError,
  type ResourceTemplateType,
  type Result,
  Server,
  type ServerContext,
  type Tool,
} from "@modelcontextprotocol/server";
import type { Context } from "hono";
import { SERVICE_VERSION } from "../../domain/descriptor/build-descriptor.ts";
import { DomainError } from "../../domain/errors.ts";
import { listTopSites } from "../../domain/search/top-sites.ts";
import { getSiteDetail } from "../../domain/sites/get-site-detail.ts";
import type { AppEnv } from "../../http/context.ts";
import { SUBMIT_LIMIT } from "../checks/submit-site.ts";
import { ACTION_INTEREST_LIMIT } from "../exchange/record-action-interest.ts";
import { CHECK_LIMIT, VERIFY_MCP_LIMIT } from "../shared/live-check-limits.ts";
import { SEARCH_LIMIT } from "../shared/search-contract.ts";
import { MCP_PROMPTS } from "./mcp-prompts.ts";
import { MCP_TOOLS, type McpTool } from "./mcp-tools.ts";
import { parseSiteReportUri, SITE_REPORT_MIME_TYPE, siteReportUri, siteReportUriTemplate } from "./site-resource.ts";
import { buildToolError, buildToolResult } from "./tool-result.ts";

export const MCP_SERVER_NAME = "agent-readiness-search";

export const MCP_INSTRUCTIONS = [
  "Agent Readiness Search: a free, neutral index of web sites scored 0-100 for readiness to be used by AI agents, from 7 signals (llms.txt, AI plugin manifest, OpenAPI, structured API, MCP server, AI rules in robots.txt, schema.org).",
  "search_sites finds sites (organic order; nothing paid changes it) and get_top_sites lists the best scores; get_site gives one site's detail (pass the search's search_id when the user picks a result); list_categories and get_stats describe the index.",
  "check_site crawls a site live, verify_mcp performs a live MCP handshake with an endpoint, and submit_site queues a site for crawling.",
  "record_action_interest records that the user explicitly wants an action on a returned result; call it only as a search's action_interest.call_contract allows, never on inferred interest.",
  "Each indexed site's report is a resource (template {base_url}/site/{domain}); the prompts find_service and check_my_site set up the two common jobs.",
  "Tool results carry the same JSON as the REST API under /api/v1; errors are tool errors whose JSON text has the REST error's code and message (RATE_LIMITED adds retry_after_seconds).",
  `Free limits are shared with REST, per client and hour: search ${SEARCH_LIMIT.limit}, check ${CHECK_LIMIT.limit}, verify_mcp ${VERIFY_MCP_LIMIT.limit}, submit ${SUBMIT_LIMIT.limit}, action interests ${ACTION_INTEREST_LIMIT.limit}.`,
].join(" ");

/** How many of the best-scored sites resources/list names (the template reaches every other one). */
export const LISTED_SITE_RESOURCES = 20;

const toolsByName = new Map(MCP_TOOLS.map((tool) => [tool.name, tool]));
const promptsByName = new Map(MCP_PROMPTS.map((prompt) => [prompt.name, prompt]));

// Built on the first tools/list of an isolate: it depends only on the tools.
let listedTools: Tool[] | undefined;

function listTools(tools: McpTool[]): Tool[] {
  listedTools ??= tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    // The generator's JSON Schema objects, which the SDK's JSON-value type cannot see into.
    inputSchema: tool.inputSchema() as Tool["inputSchema"],
    outputSchema: tool.outputSchema() as Tool["outputSchema"],
    annotations: { title: tool.title, ...tool.annotations },
  }));
  return listedTools;
}

/** resources/read of a site report: the REST site detail, or -32002 for a URI that names none. */
async function readSiteReport(c: Context<AppEnv>, uri: string): Promise<ReadResourceResult> {
  const domain = parseSiteReportUri(c.var.deps.origin, uri);
  if (domain === undefined) throw new ResourceNotFoundError(uri);
  try {
    const detail = await getSiteDetail({ ctx: c.var.deps, input: { domain } });
    return { contents: [{ uri, mimeType: SITE_REPORT_MIME_TYPE, text: JSON.stringify(detail) }] };
  } catch (error) {
    // An unknown or malformed domain is the resource's absence, which 2026-07-28 answers -32002.
    if (error instanceof DomainError) throw new ResourceNotFoundError(uri);
    throw error;
  }
}

/** The best-scored sites as resources, so a client browsing resources sees real reports. */
async function listSiteResources(c: Context<AppEnv>): Promise<Resource[]> {
  const { results } = await listTopSites({ ctx: c.var.deps, input: { filters: {}, limit: LISTED_SITE_RESOURCES } });
  return results.map((site) => ({
    uri: siteReportUri(c.var.deps.origin, site.domain),
    name: site.domain,
    title: `${site.name}: agent-readiness report`,
    description: `Agentic score ${site.agentic_score}/100, signals, evidence and checklist of ${site.domain}.`,
    mimeType: SITE_REPORT_MIME_TYPE,
  }));
}

/** The most field problems one -32602 message names. */
const MAX_LISTED_PARAMS = 5;

interface ParamIssue {
  path?: (string | number)[];
  message?: string;
}

/**
 * The issue list the SDK puts in the message of a request whose params do not match its schema
 * (`Invalid tools/call request: [ {…} ]`, or the bare list), or undefined for any other error.
 */
function paramIssuesOf(error: unknown): ParamIssue[] | undefined {
  if (!(error instanceof Error)) return undefined;
  const start = error.message.indexOf("[");
  if (start === -1) return undefined;
  try {
    const issues: unknown = JSON.parse(error.message.slice(start));
    return Array.isArray(issues) && issues.every((issue) => typeof issue?.message === "string")
      ? (issues as ParamIssue[])
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * JSON-RPC's -32602 Invalid params, in the words of REST's validation messages: "Invalid params:
 * arguments must be a record, not the number 1". Fields are named from inside `params`.
 */
export function invalidParamsError(issues: ParamIssue[]): ProtocolError {
  const problems = issues.map(({ path = [], message }) => {
    const inParams = path[0] === "params" && path.length > 1 ? path.slice(1) : path;
    return `${inParams.length > 0 ? inParams.join(".") : "params"} ${message}`;
  });
  const listed = problems.slice(0, MAX_LISTED_PARAMS).join("; ");
  const more = problems.length > MAX_LISTED_PARAMS ? `; and ${problems.length - MAX_LISTED_PARAMS} more` : "";
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params: ${listed}${more}`);
}

type WrappedHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The SDK's `Server`, answering params of the wrong shape plainly. The SDK checks a request's
 * params with its schema before any handler runs and answers a failure with the schema library's
 * raw issue list, as -32602 for tools/call and as -32603 Internal error for the other methods.
 * Params of the wrong shape are the client's mistake, which JSON-RPC answers -32602: each handler
 * is wrapped (through the SDK's own hook for that, `_wrapHandler`) to answer such a failure so, in
 * words. The SDK version is pinned; test/integration/hostile-input.test.ts fails if the messages
 * change shape.
 */
class ServiceServer extends Server {
  protected override _wrapHandler(method: string, handler: WrappedHandler): WrappedHandler {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        const issues = error instanceof ResourceNotFoundError ? undefined : paramIssuesOf(error);
        throw issues ? invalidParamsError(issues) : error;
      }
    };
  }
}

/** A fresh server whose tools, resources and prompts run in the context of request `c`. */
export function createMcpServer(c: Context<AppEnv>): Server {
  const server = new ServiceServer(
    { name: MCP_SERVER_NAME, title: "Agent Readiness Search", version: SERVICE_VERSION },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: MCP_INSTRUCTIONS },
  );
  server.setRequestHandler("tools/list", () => ({ tools: listTools(MCP_TOOLS) }));
  server.setRequestHandler("tools/call", async (request) => {
    const tool = toolsByName.get(request.params.name);
    // An unknown tool is a protocol error (the MCP spec's own example), not a tool's failure.
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      return buildToolResult(await tool.call(c, request.params.arguments ?? {}));
    } catch (error) {
      return buildToolError(error);
    }
  });
  server.setRequestHandler("resources/list", async () => ({ resources: await listSiteResources(c) }));
  server.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: [siteReportTemplate(c.var.deps.origin)],
  }));
  server.setRequestHandler("resources/read", (request) => readSiteReport(c, request.params.uri));
  server.setRequestHandler("prompts/list", () => ({
    prompts: MCP_PROMPTS.map(({ build: _build, ...prompt }) => prompt),
  }));
  server.setRequestHandler("prompts/get", (request): GetPromptResult => {
    const prompt = promptsByName.get(request.params.name);
    if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    return prompt.build(request.params.arguments ?? {});
  });
  return server;
}

/** The one resource template: every indexed site's report by domain. */
function siteReportTemplate(origin: string): ResourceTemplateType {
  return {
    uriTemplate: siteReportUriTemplate(origin),
    name: "site-report",
    title: "Site agent-readiness report",
    description:
      "An indexed site's report by domain: its agentic_score, the 7 signals with evidence, the agent-readiness checklist of its last crawl and its score history (the JSON of GET {base_url}/site/{domain}).",
    mimeType: SITE_REPORT_MIME_TYPE,
  };
}
