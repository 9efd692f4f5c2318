/**
 * The checks Worker: live check, MCP verification, submit, and the crawl jobs (queue and cron);
 * and LiveChecksEntrypoint, through which the mcp Worker's tools run the live checks over RPC.
 */
import { checksGroup } from "../src/routes/checks/index.ts";
import { createWorker } from "../src/worker.ts";

export { LiveChecksEntrypoint } from "../src/routes/checks/live-checks-entrypoint.ts";

export default createWorker([checksGroup]);
