import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { buildDescriptor } from "../../domain/descriptor/build-descriptor.ts";
import type { AppEnv } from "../../http/context.ts";

export const DescriptorSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    version: z.string(),
    version_policy: z.string(),
    auth: z.record(z.string(), z.string()),
    rate_limit: z.record(z.string(), z.string()),
    base_url: z.string(),
    openapi_spec: z.string(),
    ai_plugin_manifest: z.string(),
    mcp_endpoint: z.string(),
    endpoints: z.record(z.string(), z.string()),
    provider_exchange: z.record(z.string(), z.union([z.boolean(), z.number(), z.string()])),
  })
  .openapi("IndexDescriptor");

export const getDescriptorRoute = createRoute({
  method: "get",
  path: "/",
  operationId: "getIndexDescriptor",
  tags: ["discovery"],
  summary: "Index descriptor: what the service is, its endpoints, limits and published policy",
  description:
    "What the service is and where everything lives: base_url, the OpenAPI document, the AI plugin manifest, the MCP endpoint, every endpoint of the service by operationId, the version and its policy, authentication, the free rate limits and the provider exchange's published policy constants. Cached 5 minutes.",
  // Public: the spec's Authentication lists it under "none".
  security: [],
  responses: {
    200: { description: "The index descriptor", content: { "application/json": { schema: DescriptorSchema } } },
  },
});

export function registerGetDescriptor(app: OpenAPIHono<AppEnv>) {
  app.openapi(getDescriptorRoute, (c) => {
    c.header("Cache-Control", "public, max-age=300");
    return c.json(buildDescriptor({ origin: c.var.deps.origin, endpoints: c.var.endpoints }), 200);
  });
}
