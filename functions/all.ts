/** The all-in-one Worker: every group and every job on one deployable (what `wrangler dev` runs). */
import { createApp } from "../src/app.ts";
import { queueHandler, scheduledHandler } from "../src/jobs/handlers.ts";
import { createGroups } from "../src/routes/groups.ts";

const app = createApp(createGroups());

export default {
  fetch: (request, env, ctx) => app.fetch(request, env as Record<string, unknown>, ctx),
  queue: queueHandler,
  scheduled: scheduledHandler,
} satisfies ExportedHandler;
