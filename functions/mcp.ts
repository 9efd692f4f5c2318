/**
 * The mcp Worker: the service's MCP server. Its check_site and verify_mcp tools run the live
 * checks in the checks Worker, over the CHECKS service binding (wrangler.toml `[env.mcp]`).
 */
import { defineMcpGroup } from "../src/routes/mcp/index.ts";
import { liveChecksOverRpc } from "../src/routes/mcp/live-checks-over-rpc.ts";
import { createWorker } from "../src/worker.ts";

export default createWorker([defineMcpGroup(liveChecksOverRpc)]);
