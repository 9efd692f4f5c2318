/**
 * The live check and the live MCP verification as a caller outside the checks group sees them:
 * two operations, each taking the input its tool has validated and answering what the domain
 * operation answers (or throwing its DomainError). The MCP tools hold only this interface; which
 * implementation runs is the Worker entry's choice: in the all-in-one Worker the domain in the
 * same isolate (in-process-live-checks.ts), in the mcp group's Worker the checks group's Worker
 * over a service binding (src/routes/mcp/live-checks-over-rpc.ts). Importing the types of the
 * results bundles nothing.
 */
import type { CheckResult } from "./check-site.ts";
import type { McpVerification } from "./verify-mcp.ts";

/** A URL the caller has validated with the route's schema (UrlBodySchema, VerifyMcpQuerySchema). */
export interface LiveCheckInput {
  url: string;
}

/** The caller's admission check (its rate limit); it throws the refusal. */
export type Admit = () => Promise<unknown>;

export interface LiveChecks {
  /**
   * POST /check's operation: crawl the URL's site now (queues a recrawl when the index differs).
   * `admit` runs before anything is fetched, beside the index lookup (checkSite says why).
   */
  check(input: LiveCheckInput, admit?: Admit): Promise<CheckResult>;
  /** GET /verify-mcp's operation: an MCP handshake with one endpoint. */
  verifyMcp(input: LiveCheckInput): Promise<McpVerification>;
}
