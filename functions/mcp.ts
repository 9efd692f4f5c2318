/** The mcp Worker: the service's MCP server. */
import { mcpGroup } from "../src/routes/mcp/index.ts";
import { createWorker } from "../src/worker.ts";

export default createWorker([mcpGroup]);
