/**
 * The rate limits of the live checks, apart from their routes: the MCP tools and the pages spend
 * the same counters as POST /check and GET /verify-mcp, and importing them from the route files
 * would bundle the live check itself (the crawler, its parsers) into Workers that only forward it.
 */

/** The spec's free limit of POST /check. */
export const CHECK_LIMIT = { name: "check", limit: 10, window: "1 h" } as const;
/** With a priority key, while its monthly allocation lasts: 100 per hour per key. */
export const PRIORITY_CHECK_LIMIT = { name: "priority-check", limit: 100, window: "1 h" } as const;

/** The spec's free limit of live verifications. */
export const VERIFY_MCP_LIMIT = { name: "verify-mcp", limit: 20, window: "1 h" } as const;
/** With a priority key, while its monthly allocation lasts: 100 per hour per key. */
export const PRIORITY_VERIFY_MCP_LIMIT = { name: "priority-verify-mcp", limit: 100, window: "1 h" } as const;
