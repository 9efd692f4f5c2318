import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { parseVerifyTarget, verifyMcp } from "../../domain/checks/verify-mcp.ts";
import type { AppEnv } from "../../http/context.ts";
import { headOnlyReply, isHeadRequest } from "../../http/head-request.ts";
import { spendTieredLimit } from "../../http/middleware/priority-limit.ts";
import { OPTIONAL_PRIORITY_KEY } from "../commerce/schemas.ts";
import { problemResponses } from "../shared/schemas.ts";
import { storableText } from "../shared/text.ts";

/** The spec's free limit of live verifications. */
export const VERIFY_MCP_LIMIT = { name: "verify-mcp", limit: 20, window: "1 h" } as const;
/** With a priority key, while its monthly allocation lasts: 100 per hour per key. */
export const PRIORITY_VERIFY_MCP_LIMIT = { name: "priority-verify-mcp", limit: 100, window: "1 h" } as const;

export const VerifyMcpQuerySchema = z.strictObject({
  url: storableText().min(1).max(2048).openapi({
    description: "The MCP endpoint; scheme optional (https assumed); a bare host means <origin>/mcp",
    example: "example.com/mcp",
  }),
});

export const McpVerificationSchema = z
  .object({
    verified: z.boolean().openapi({ description: "True only for a compliant Streamable HTTP handshake" }),
    endpoint: z.string().openapi({ description: "The URL that was probed" }),
    note: z
      .string()
      .openapi({ description: "What was found: compliant, gated, wrong transport, not MCP, unreachable" }),
  })
  .openapi("McpVerification");

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
    ...problemResponses(400, 401, 429),
  },
});

export function registerVerifyMcp(app: OpenAPIHono<AppEnv>) {
  app.openapi(verifyMcpRoute, async (c) => {
    const { url } = c.req.valid("query");
    const deps = c.var.deps;
    parseVerifyTarget(url, deps.allowPrivate);
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
