/** The all-in-one Worker: every group on one deployable (what `wrangler dev` runs). */
import { createApp } from "../src/app.ts";
import { createGroups } from "../src/routes/groups.ts";

const app = createApp(createGroups());

export default {
  fetch: (request, env, ctx) => app.fetch(request, env as Record<string, unknown>, ctx),
} satisfies ExportedHandler;
