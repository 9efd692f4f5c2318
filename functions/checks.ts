/** The checks Worker: live check, MCP verification, submit, and the crawl jobs (queue and cron). */
import { checksGroup } from "../src/routes/checks/index.ts";
import { createWorker } from "../src/worker.ts";

export default createWorker([checksGroup]);
