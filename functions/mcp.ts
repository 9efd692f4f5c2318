/** The mcp Worker: the service's MCP server. */
import { createApp } from "../src/app.ts";
import { createGroups } from "../src/routes/groups.ts";

const app = createApp(createGroups(["mcp"]), { catalog: createGroups() });

export default {
  fetch: (request, env, ctx) => app.fetch(request, env as Record<string, unknown>, ctx),
} satisfies ExportedHandler;
