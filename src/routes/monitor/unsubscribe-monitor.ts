import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { unsubscribeMonitor } from "../../domain/monitors/monitor-links.ts";
import type { AppEnv } from "../../http/context.ts";
import { problemResponses } from "../shared/schemas.ts";
import { MonitorTokenSchema } from "./schemas.ts";

export const unsubscribeMonitorRoute = createRoute({
  method: "post",
  path: "/monitor/unsubscribe",
  operationId: "unsubscribeMonitor",
  tags: ["monitor"],
  summary: "Stop a monitor",
  description:
    "Stops the monitor the token belongs to (the `token` of an unsubscribe_url or of an alert's List-Unsubscribe link); no alert is sent for it afterwards. Needs no sign-in; unsubscribing again answers the same. The unsubscribe_url itself also works: GET shows a page, POST (RFC 8058 one-click) unsubscribes. 404 UNSUBSCRIBE_TOKEN_INVALID for an unknown token.",
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: MonitorTokenSchema } } } },
  responses: {
    200: {
      description: "Unsubscribed",
      content: {
        "application/json": {
          schema: z.object({ unsubscribed: z.literal(true), domain: z.string() }).openapi("MonitorUnsubscribed"),
        },
      },
    },
    ...problemResponses(400, 404, 503),
  },
});

export function registerUnsubscribeMonitor(app: OpenAPIHono<AppEnv>) {
  app.openapi(unsubscribeMonitorRoute, async (c) => {
    const { token } = c.req.valid("json");
    const { domain } = await unsubscribeMonitor({ ctx: c.var.deps, input: { token } });
    c.header("Cache-Control", "no-store");
    return c.json({ unsubscribed: true as const, domain }, 200);
  });
}
