/** The exchange Worker: public action interests. */
import { createApp } from "../src/app.ts";
import { createGroups } from "../src/routes/groups.ts";

const app = createApp(createGroups(["exchange"]), { catalog: createGroups() });

export default {
  fetch: (request, env, ctx) => app.fetch(request, env as Record<string, unknown>, ctx),
} satisfies ExportedHandler;
