/** The checks Worker: live check, MCP verification, submit, and the crawl jobs (queue and cron). */
import { createApp } from "../src/app.ts";
import { queueHandler, scheduledHandler } from "../src/jobs/handlers.ts";
import { createGroups } from "../src/routes/groups.ts";

const app = createApp(createGroups(["checks"]), { catalog: createGroups() });

export default {
  fetch: (request, env, ctx) => app.fetch(request, env as Record<string, unknown>, ctx),
  queue: queueHandler,
  scheduled: scheduledHandler,
} satisfies ExportedHandler;
