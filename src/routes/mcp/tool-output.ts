/**
 * A tool's `outputSchema`: the JSON Schema of the body it returns as `structuredContent`, which
 * is exactly the REST operation's success body. It is made from the REST route's own response
 * schema by the same OpenAPI 3.1 generator as /openapi.json (refs inlined, as MCP clients expect
 * one self-contained schema), never a second copy, so the tool cannot promise what REST does not.
 */
import { createRoute, OpenAPIHono, type z } from "@hono/zod-openapi";
import { inlineSchema } from "./tool-input.ts";

type JsonObject = { [key: string]: unknown };

/** The JSON Schema of an MCP tool's structured result: always an object, as MCP requires. */
export interface ToolOutputSchema extends JsonObject {
  type: "object";
}

/** A REST route's success response, as createRoute declares it. */
interface RouteWithJsonBody {
  responses: Record<number, unknown>;
}

/** The zod schema of `route`'s `status` JSON body. */
function jsonBodySchema(route: RouteWithJsonBody, status: number): z.ZodType {
  const response = route.responses[status] as { content?: Record<string, { schema?: z.ZodType }> } | undefined;
  const schema = response?.content?.["application/json"]?.schema;
  if (!schema) throw new Error(`tool output: the route declares no JSON body for ${status}`);
  return schema;
}

/**
 * The outputSchema of a tool returning what `route` answers with `status` (built on first use,
 * then kept).
 */
export function createOutputSchema(route: RouteWithJsonBody, status = 200): () => ToolOutputSchema {
  return createBodyOutputSchema(() => jsonBodySchema(route, status));
}

/**
 * The outputSchema of a tool returning a body of `schema`: the very schema object a REST route
 * declares as its JSON body, for a tool whose module must not import that route's file (it would
 * bundle the route's operation: the live checks, mcp-tools.ts).
 */
export function createBodyOutputSchema(bodySchema: z.ZodType | (() => z.ZodType)): () => ToolOutputSchema {
  let built: ToolOutputSchema | undefined;
  return () => {
    if (built) return built;
    const body = typeof bodySchema === "function" ? bodySchema() : bodySchema;
    const generator = new OpenAPIHono();
    generator.openAPIRegistry.registerPath(
      createRoute({
        method: "get",
        path: "/tool",
        responses: {
          200: {
            description: "The result",
            content: { "application/json": { schema: body } },
          },
        },
      }),
    );
    const document = generator.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "tool", version: "1" } });
    const components = (document.components?.schemas ?? {}) as JsonObject;
    const response = (document.paths?.["/tool"]?.get?.responses as JsonObject | undefined)?.["200"];
    const schema = inlineSchema(
      (response as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.["application/json"]
        ?.schema,
      components,
    ) as JsonObject | undefined;
    // An extended schema (SiteDetail: Site and more) comes as allOf of objects; MCP wants the
    // object type named at the top, which says nothing allOf does not already require.
    const whole =
      schema && schema.type === undefined && Array.isArray(schema.allOf) ? { type: "object", ...schema } : schema;
    if (!whole || whole.type !== "object") throw new Error("tool output: a tool's result must be an object schema");
    built = whole as ToolOutputSchema;
    return built;
  };
}
