import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { confirmSubscriber } from "../../domain/monitors/monitor-links.ts";
import type { AppEnv } from "../../http/context.ts";
import { problemResponses } from "../shared/schemas.ts";
import { MonitorTokenSchema } from "./schemas.ts";

export const confirmMonitorsRoute = createRoute({
  method: "post",
  path: "/monitor/confirm",
  operationId: "confirmMonitors",
  tags: ["monitor"],
  summary: "Confirm an address for score-drop alerts",
  description:
    "Confirms the address the token was e-mailed to (the confirmation link's `token`): from now on its monitors' alerts are sent. Confirming again answers the same. 404 CONFIRMATION_TOKEN_INVALID for an unknown token or one replaced by a newer confirmation mail.",
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: MonitorTokenSchema } } } },
  responses: {
    200: {
      description: "Confirmed",
      content: {
        "application/json": {
          schema: z
            .object({ confirmed: z.literal(true), domains: z.array(z.string()) })
            .openapi("MonitorsConfirmed", { description: "The domains the address watches" }),
        },
      },
    },
    ...problemResponses(400, 404, 503),
  },
});

export function registerConfirmMonitors(app: OpenAPIHono<AppEnv>) {
  app.openapi(confirmMonitorsRoute, async (c) => {
    const { token } = c.req.valid("json");
    const { domains } = await confirmSubscriber({ ctx: c.var.deps, input: { token } });
    c.header("Cache-Control", "no-store");
    return c.json({ confirmed: true as const, domains }, 200);
  });
}
