/** The web Worker: the public web root (pages, OpenAPI document, manifests). */
import { createApp } from "../src/app.ts";
import { createGroups } from "../src/routes/groups.ts";

const app = createApp(createGroups(["web"]), { catalog: createGroups() });

export default {
  fetch: (request, env, ctx) => app.fetch(request, env as Record<string, unknown>, ctx),
} satisfies ExportedHandler;
