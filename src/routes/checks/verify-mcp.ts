import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { verifyMcp } from "../../domain/checks/verify-mcp.ts";
import type { AppEnv } from "../../http/context.ts";
import { rateLimit } from "../../http/middleware/rate-limit.ts";
import { problemResponses } from "../shared/schemas.ts";

/** The spec's free limit of live verifications. */
export const VERIFY_MCP_LIMIT = { limit: 20, window: "1 h" } as const;

export const VerifyMcpQuerySchema = z.strictObject({
  url: z
    .string({ error: "is required" })
    .min(1, "must not be empty")
    .max(2048, "must be at most 2048 characters")
    .openapi({
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
  request: { query: VerifyMcpQuerySchema },
  responses: {
    200: { description: "The verification", content: { "application/json": { schema: McpVerificationSchema } } },
    ...problemResponses(400, 429),
  },
});

export function registerVerifyMcp(app: OpenAPIHono<AppEnv>) {
  app.use(verifyMcpRoute.path, rateLimit({ name: "verify-mcp", ...VERIFY_MCP_LIMIT }));
  app.openapi(verifyMcpRoute, async (c) => {
    const { url } = c.req.valid("query");
    const deps = c.var.deps;
    const result = await verifyMcp({
      ctx: { openFetcher: deps.openFetcher, vetHost: deps.vetHost, allowPrivate: deps.config.FETCH_ALLOW_PRIVATE },
      input: { url },
    });
    c.header("Cache-Control", "no-store");
    return c.json(result, 200);
  });
}
