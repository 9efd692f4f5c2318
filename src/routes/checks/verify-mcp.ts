import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { mayBePrivate } from "../../domain/checks/check-context.ts";
import { verifyMcp } from "../../domain/checks/verify-mcp.ts";
import { parseVerifyTarget } from "../../domain/checks/verify-target.ts";
import type { AppEnv } from "../../http/context.ts";
import { headOnlyReply, isHeadRequest } from "../../http/head-request.ts";
import { spendTieredLimit } from "../../http/middleware/priority-limit.ts";
import { OPTIONAL_PRIORITY_KEY } from "../commerce/schemas.ts";
import { McpVerificationSchema, VerifyMcpQuerySchema } from "../shared/check-schemas.ts";
import { PRIORITY_VERIFY_MCP_LIMIT, VERIFY_MCP_LIMIT } from "../shared/live-check-limits.ts";
import { problemResponses } from "../shared/schemas.ts";

export const verifyMcpRoute = createRoute({
  method: "get",
  path: "/verify-mcp",
  operationId: "verifyMcp",
  tags: ["checks"],
  summary: "Live MCP handshake (initialize, initialized, tools/list) with one endpoint; never cached",
  description:
    "A Streamable HTTP handshake with the endpoint: initialize, notifications/initialized, then tools/list. `verified` is true only for a compliant handshake; `note` says what was found (compliant, gated, wrong transport, not MCP, unreachable). Only public hosts are probed. 20 per hour per client, counted once the URL is usable (a URL refused without a lookup costs nothing); never cached or stored. With a priority key (`Authorization: Bearer <key>`) 100 per hour per key while its monthly allocation lasts, then the free tier; a bad or ended key is 401. HEAD checks the URL and answers the headers only: no probe, no quota.",
  // Public: the spec's Authentication lists it under "none".
  security: OPTIONAL_PRIORITY_KEY,
  request: { query: VerifyMcpQuerySchema },
  responses: {
    200: { description: "The verification", content: { "application/json": { schema: McpVerificationSchema } } },
    ...problemResponses(400, 401, 429, 503),
  },
});

export function registerVerifyMcp(app: OpenAPIHono<AppEnv>) {
  app.openapi(verifyMcpRoute, async (c) => {
    const { url } = c.req.valid("query");
    const deps = c.var.deps;
    parseVerifyTarget(url, mayBePrivate(url, deps));
    if (isHeadRequest(c)) return headOnlyReply(c, { "Cache-Control": "no-store" });
    await spendTieredLimit(c, { free: VERIFY_MCP_LIMIT, priority: PRIORITY_VERIFY_MCP_LIMIT });
    const result = await verifyMcp({
      ctx: deps,
      input: { url },
    });
    c.header("Cache-Control", "no-store");
    return c.json(result, 200);
  });
}
