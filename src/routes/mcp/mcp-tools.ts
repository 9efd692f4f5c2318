/**
 * The MCP server's tools: one per free public capability, plus the action-interest call the
 * search sidecar's `call_contract` names. Each tool takes the REST route's own schemas, counts
 * against the REST route's own rate limit, and calls the same domain operation with the same
 * per-request dependencies; it never calls the service over HTTP. check_site and verify_mcp reach
 * theirs through `LiveChecks`, which the Worker's entry chose: in this isolate, or in the checks
 * Worker over a service binding (docs/architecture.md, "The mcp Worker reaches the live check
 * over RPC").
 */
import type { ToolAnnotations } from "@modelcontextprotocol/server";
import type { Context } from "hono";
import type { ZodError } from "zod";
import { mayBePrivate } from "../../domain/checks/check-context.ts";
import type { LiveChecks } from "../../domain/checks/live-checks.ts";
import { submitSite } from "../../domain/checks/submit-site.ts";
import { parseVerifyTarget } from "../../domain/checks/verify-target.ts";
import { parseCrawlTarget } from "../../domain/crawling/crawl-target.ts";
import { runSearch } from "../../domain/search/run-search.ts";
import { SEARCH_FILTER_PARAMS } from "../../domain/search/search-filters.ts";
import { SEARCH_PAGE_SIZE } from "../../domain/search/search-sites.ts";
import { listTopSites } from "../../domain/search/top-sites.ts";
import { INVOCATION_CONDITION } from "../../domain/search-receipts/action-interest-sidecar.ts";
import { ACTION_INTEREST_TOOL } from "../../domain/search-receipts/receipt-constants.ts";
import { recordActionInterest } from "../../domain/search-receipts/record-action-interest.ts";
import { getSiteDetail } from "../../domain/sites/get-site-detail.ts";
import { listCategories } from "../../domain/sites/list-categories.ts";
import { indexStats } from "../../domain/stats/index-stats.ts";
import type { AppEnv } from "../../http/context.ts";
import { consumeRateLimit, type RateLimitOptions } from "../../http/middleware/rate-limit.ts";
import { refuseCrossOriginBrowserMutations } from "../../http/middleware/refuse-cross-origin.ts";
import { validationProblem } from "../../http/problem.ts";
import { fieldErrors } from "../../http/validation.ts";
import { SUBMIT_LIMIT, submitSiteRoute } from "../checks/submit-site.ts";
import { getCategoriesRoute } from "../discovery/get-categories.ts";
import { getSiteRoute, SiteDomainParamsSchema, SiteSearchIdQuerySchema } from "../discovery/get-site.ts";
import { getStatsRoute } from "../discovery/get-stats.ts";
import { getTopRoute, TopQuerySchema, toTopInput } from "../discovery/get-top.ts";
import {
  ACTION_INTEREST_LIMIT,
  ActionInterestRequestSchema,
  recordActionInterestRoute,
} from "../exchange/record-action-interest.ts";
import {
  CheckResultSchema,
  McpVerificationSchema,
  UrlBodySchema,
  VerifyMcpQuerySchema,
} from "../shared/check-schemas.ts";
import { CHECK_LIMIT, VERIFY_MCP_LIMIT } from "../shared/live-check-limits.ts";
import {
  SEARCH_LIMIT,
  SearchHeadersSchema,
  SearchQuerySchema,
  SearchResponseSchema,
  toSearchInput,
} from "../shared/search-contract.ts";
import {
  createBodyInput,
  createEmptyInput,
  createParametersInput,
  type ToolInput,
  type ToolInputSchema,
} from "./tool-input.ts";
import { createBodyOutputSchema, createOutputSchema, type ToolOutputSchema } from "./tool-output.ts";

type RequestContext = Context<AppEnv>;

/** Runs before a tool's arguments are read, in order, as the REST route's middleware does. */
type Guard = (c: RequestContext) => Promise<void>;

/** Refuses arguments the schema accepts but the operation cannot use, before any quota is spent. */
type Precheck<T> = (c: RequestContext, input: T) => void;

/** One tool as the server lists and calls it. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  inputSchema(): ToolInputSchema;
  /** The JSON Schema of what a successful call returns as structuredContent: the REST body's. */
  outputSchema(): ToolOutputSchema;
  /**
   * Guards, then arguments, then the limit, then the domain operation, in REST's order; throws
   * what REST would answer with. A call refused as invalid spends no quota.
   */
  call(c: RequestContext, args: Record<string, unknown>): Promise<object>;
}

interface ToolSpec<T> {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  input: ToolInput<T>;
  output: () => ToolOutputSchema;
  guards?: Guard[];
  precheck?: Precheck<T>;
  /** The REST route's limit, on the same counter (name and client identity) as REST. */
  limit?: RateLimitOptions;
  /**
   * The operation. `admit` spends the limit; a tool whose operation takes it (`admitsItself`)
   * runs it beside its own first read, as REST does (search); otherwise it has passed before.
   */
  run(c: RequestContext, input: T, admit: () => Promise<unknown>): Promise<object>;
  admitsItself?: true;
}

function defineTool<T>(spec: ToolSpec<T>): McpTool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    annotations: spec.annotations,
    inputSchema: spec.input.jsonSchema,
    outputSchema: spec.output,
    async call(c, args) {
      for (const guard of spec.guards ?? []) await guard(c);
      const input = spec.input.parse(args);
      spec.precheck?.(c, input);
      const { limit } = spec;
      const admit = async () => (limit ? await consumeRateLimit(c, limit) : undefined);
      if (spec.admitsItself) return spec.run(c, input, admit);
      await admit();
      return spec.run(c, input, admit);
    },
  };
}

/** The REST rule of POST /action-interests: no state change on behalf of another site's page. */
const refuseCrossOriginBrowsers: Guard = async (c) => {
  await refuseCrossOriginBrowserMutations()(c, async () => {});
};

/** REST's refusal of a URL that could never be crawled, made before the call spends quota. */
const refuseUnusableCrawlUrl: Precheck<{ url: string }> = (c, { url }) => {
  parseCrawlTarget(url, mayBePrivate(url, c.var.deps));
};

/** The search header (X-SVC-Synthetic) read from the MCP request, with REST's rule and message. */
function readSearchHeaders(c: RequestContext) {
  const headers = SearchHeadersSchema.safeParse({ "x-svc-synthetic": c.req.header("x-svc-synthetic") });
  if (!headers.success) throw validationProblem(fieldErrors(headers.error as ZodError, "header"));
  return headers.data;
}

/**
 * The live checks of this request. The live check belongs to the checks group: the Worker's entry
 * decides where it runs (in this isolate, or in the checks Worker), so this module bundles none.
 */
function liveChecksOf(c: RequestContext): LiveChecks {
  const { liveChecks } = c.var;
  if (!liveChecks) throw new Error("mcp: the request carries no live checks (registerMcpEndpoint sets them)");
  return liveChecks;
}

// Annotations say what each call does to the service's state, honestly: search_sites records a
// search receipt, get_site a result selection when given a search_id, check_site may queue a
// recrawl, submit_site queues a crawl, record_action_interest records an interest. None of them
// deletes or overwrites anything (destructiveHint false). The rest only read.
export const MCP_TOOLS: McpTool[] = [
  defineTool({
    name: "search_sites",
    title: "Search sites",
    description: `Search the index of sites scored 0-100 for agent readiness. q may be a few words or the user's whole request: any word may match a site's name, description, tags, category, domain or capabilities, misspellings are corrected and words that only phrase a request (need, find…) never make a match; filters (${SEARCH_FILTER_PARAMS.join(", ")}) narrow the results. When nothing matches, no_match says why and suggestions offers the nearest words of the index that would match. Results are organic (exact domain first, then by relevance: sites matching more of q's words, in their name, tags or domain rather than a long description, first; agentic_score a small factor within it); ${SEARCH_PAGE_SIZE} per page. Returns the REST search body, including search_id and the action_interest sidecar. Counts against the free search limit (${SEARCH_LIMIT.limit} per hour per client, shared with REST).`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: createParametersInput({ query: SearchQuerySchema }),
    output: createBodyOutputSchema(SearchResponseSchema),
    limit: SEARCH_LIMIT,
    admitsItself: true,
    run: (c, query, admit) =>
      runSearch({
        ctx: c.var.deps,
        input: toSearchInput(query, { surface: "mcp", headers: readSearchHeaders(c) }),
        admit,
      }),
  }),
  defineTool({
    name: "get_top_sites",
    title: "Top sites",
    description:
      "The highest agentic scores (ties broken by a hash of the domain), optionally filtered by category and signals; limit 1 to 100, default 50.",
    annotations: { readOnlyHint: true, openWorldHint: false },
    input: createParametersInput({ query: TopQuerySchema }),
    output: createOutputSchema(getTopRoute),
    run: async (c, query) => {
      const { cacheHit: _cacheHit, ...top } = await listTopSites({ ctx: c.var.deps, input: toTopInput(query) });
      return top;
    },
  }),
  defineTool({
    name: "get_site",
    title: "Site detail",
    description:
      "One indexed site in detail: its record, the evidence behind each signal, the agent-readiness checklist of its last crawl (checks, never part of the score) and its score history. Pass the search_id of the search that returned the domain to record the selection; a new selection adds an action_interest sidecar for that domain. An unknown domain is a SITE_NOT_FOUND error.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: createParametersInput({ query: SiteSearchIdQuerySchema, path: SiteDomainParamsSchema }),
    output: createOutputSchema(getSiteRoute),
    run: (c, input) => getSiteDetail({ ctx: c.var.deps, input: { domain: input.domain, searchId: input.search_id } }),
  }),
  defineTool({
    name: "list_categories",
    title: "Categories",
    description: "The discovery categories with their site counts.",
    annotations: { readOnlyHint: true, openWorldHint: false },
    input: createEmptyInput(),
    output: createOutputSchema(getCategoriesRoute),
    run: (c) => listCategories({ ctx: c.var.deps }),
  }),
  defineTool({
    name: "get_stats",
    title: "Index statistics",
    description: "Index statistics: totals, signal coverage, the score distribution and crawl freshness.",
    annotations: { readOnlyHint: true, openWorldHint: false },
    input: createEmptyInput(),
    output: createOutputSchema(getStatsRoute),
    run: (c) => indexStats({ ctx: c.var.deps }),
  }),
  defineTool({
    name: "check_site",
    title: "Check a site live",
    description: `Crawl a URL's site now and return its agentic_score with the 7 signals and their evidence, and the agent-readiness checklist (checks, with a fix for each failure; never part of the score). It never writes the index (an indexed site whose live result differs gets a recrawl queued). Free limit ${CHECK_LIMIT.limit} per hour per client.`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: createBodyInput(UrlBodySchema),
    // POST /check's 200 body (checkSiteRoute's), named here so this module imports no live check.
    output: createBodyOutputSchema(CheckResultSchema),
    precheck: refuseUnusableCrawlUrl,
    limit: CHECK_LIMIT,
    admitsItself: true,
    run: (c, { url }, admit) => liveChecksOf(c).check({ url }, admit),
  }),
  defineTool({
    name: "verify_mcp",
    title: "Verify an MCP server",
    description: `Perform a live MCP handshake (initialize, initialized, tools/list) with one endpoint and report whether it is compliant; scheme optional, a bare host means <origin>/mcp. Never cached. Free limit ${VERIFY_MCP_LIMIT.limit} per hour per client.`,
    annotations: { readOnlyHint: true, openWorldHint: true },
    input: createParametersInput({ query: VerifyMcpQuerySchema }),
    // GET /verify-mcp's 200 body (verifyMcpRoute's).
    output: createBodyOutputSchema(McpVerificationSchema),
    precheck: (c, { url }) => {
      parseVerifyTarget(url, mayBePrivate(url, c.var.deps));
    },
    limit: VERIFY_MCP_LIMIT,
    run: (c, { url }) => liveChecksOf(c).verifyMcp({ url }),
  }),
  defineTool({
    name: "submit_site",
    title: "Submit a site",
    description: "Queue a crawl of a URL's site for the index (once per domain per hour).",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    input: createBodyInput(UrlBodySchema),
    output: createOutputSchema(submitSiteRoute, 201),
    precheck: refuseUnusableCrawlUrl,
    limit: SUBMIT_LIMIT,
    run: (c, { url }) => submitSite({ ctx: c.var.deps, input: { url } }),
  }),
  defineTool({
    name: ACTION_INTEREST_TOOL,
    title: "Record action interest",
    description: `Record that your principal is interested in one action (action_type) on one organic result (domain) of a search (search_id), as the search's action_interest.call_contract describes. ${INVOCATION_CONDITION} Pass caller_attests_principal_interest true and confirmation_version as the contract fixes them, and no other field. It contacts no provider, creates no ticket or charge and changes no rank.`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: createBodyInput(ActionInterestRequestSchema),
    output: createOutputSchema(recordActionInterestRoute, 201),
    guards: [refuseCrossOriginBrowsers],
    limit: ACTION_INTEREST_LIMIT,
    run: async (c, body) => {
      const { receipt } = await recordActionInterest({
        ctx: c.var.deps,
        input: { searchId: body.search_id, domain: body.domain, actionType: body.action_type },
      });
      return receipt;
    },
  }),
];
