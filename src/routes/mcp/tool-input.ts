/**
 * MCP tool inputs made from the REST routes' own zod schemas, never a second copy of their rules.
 *
 * - The advertised JSON Schema is what the REST operation documents: the schemas go through the
 *   same OpenAPI 3.1 generator as /openapi.json, and a query's parameters become the properties of
 *   one object (unknown ones refused, as on REST).
 * - Arguments are validated by the REST schemas themselves, so a failure is the VALIDATION_FAILED
 *   problem (code, detail, field list) that REST answers, each field's location being `arguments`. Query and path
 *   parameters are strings on the wire; over MCP a parameter documented as boolean or integer is
 *   also accepted as a JSON boolean or number, turned into the text a query string would carry
 *   before the same schema reads it (so `page: 2` and `page: "2"` are one request).
 */
import { createRoute, OpenAPIHono, type z } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import { type FieldError, validationProblem } from "../../http/problem.ts";
import { fieldErrors } from "../../http/validation.ts";

type JsonObject = { [key: string]: unknown };

/** The JSON Schema of a tool's arguments: always an object, as MCP requires. */
export interface ToolInputSchema extends JsonObject {
  type: "object";
  properties: Record<string, JsonObject>;
  required?: string[];
}

export interface ToolInput<T> {
  /** Built on first use, then kept: it depends only on the schemas. */
  jsonSchema(): ToolInputSchema;
  /** The arguments as the REST schemas read them; throws the REST VALIDATION_FAILED problem. */
  parse(args: Record<string, unknown>): T;
}

// The JSON types a query or path parameter may be documented with that a JSON client would send
// natively; their text form is what REST receives.
const SCALAR_TYPES = new Set(["boolean", "integer", "number"]);

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Replaces `$ref`s to the document's components by their schemas, and OpenAPI's `example` by JSON Schema's `examples`. */
export function inlineSchema(value: unknown, components: JsonObject): unknown {
  if (Array.isArray(value)) return value.map((item) => inlineSchema(item, components));
  if (!isObject(value)) return value;
  const ref = value.$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
    return inlineSchema(components[ref.slice("#/components/schemas/".length)], components);
  }
  const inlined: JsonObject = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === "example") inlined.examples = [member];
    else inlined[key] = inlineSchema(member, components);
  }
  return inlined;
}

/** The OpenAPI operation the generator documents for these request schemas. */
function documentRequest(request: NonNullable<Parameters<typeof createRoute>[0]["request"]>, pathParams: string[]) {
  const method = request.body ? "post" : "get";
  const path = ["/tool", ...pathParams.map((name) => `{${name}}`)].join("/");
  const generator = new OpenAPIHono();
  generator.openAPIRegistry.registerPath(
    createRoute({ method, path, request, responses: { 200: { description: "The result" } } }),
  );
  const document = generator.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "tool", version: "1" } });
  const operation = (document.paths?.[path] as JsonObject | undefined)?.[method];
  const components = (document.components?.schemas ?? {}) as JsonObject;
  if (!isObject(operation)) throw new Error("tool input: the generator documented no operation");
  return { operation, components };
}

/**
 * REST's field errors as an MCP client reads them: every field is one of the tool's arguments,
 * whatever REST location (query, path, body) the same field has, and a field the tool does not
 * take is an unknown argument.
 */
export function asArgumentErrors(errors: FieldError[]): FieldError[] {
  return errors.map((error) => ({
    location: "arguments",
    field: ["query", "path", "body"].includes(error.field) ? "arguments" : error.field,
    message: /^unknown (parameter|field), not accepted$/.test(error.message)
      ? "unknown argument, not accepted"
      : error.message,
  }));
}

function buildOnce<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => {
    built ??= build();
    return built;
  };
}

type ParametersOf<Query extends z.ZodObject, Path> = z.output<Query> &
  (Path extends z.ZodObject ? z.output<Path> : unknown);

/**
 * A tool whose arguments are a REST operation's query parameters, plus its path parameters when
 * `path` is given (e.g. get_site's `domain`).
 */
export function createParametersInput<
  Query extends z.ZodObject,
  Path extends z.ZodObject | undefined = undefined,
>(schemas: { query: Query; path?: Path }): ToolInput<ParametersOf<Query, Path>> {
  const pathNames = new Set(schemas.path ? Object.keys(schemas.path.shape) : []);
  const jsonSchema = buildOnce((): ToolInputSchema => {
    const { operation, components } = documentRequest(
      { query: schemas.query, ...(schemas.path ? { params: schemas.path } : {}) },
      [...pathNames],
    );
    const properties: Record<string, JsonObject> = {};
    const required: string[] = [];
    const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
    for (const parameter of parameters.map((entry) => inlineSchema(entry, components))) {
      if (!isObject(parameter) || typeof parameter.name !== "string" || !isObject(parameter.schema)) continue;
      const description = parameter.description ?? parameter.schema.description;
      properties[parameter.name] = { ...parameter.schema, ...(description ? { description } : {}) };
      if (parameter.required === true) required.push(parameter.name);
    }
    return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  });

  return {
    jsonSchema,
    parse(args) {
      const { properties } = jsonSchema();
      const pathArgs: Record<string, unknown> = {};
      const queryArgs: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(args)) {
        const documentedType = properties[name]?.type;
        const asText =
          (typeof value === "boolean" || typeof value === "number") &&
          typeof documentedType === "string" &&
          SCALAR_TYPES.has(documentedType)
            ? String(value)
            : value;
        (pathNames.has(name) ? pathArgs : queryArgs)[name] = asText;
      }
      const errors: FieldError[] = [];
      const path = schemas.path?.safeParse(pathArgs);
      if (path && !path.success) errors.push(...fieldErrors(path.error as ZodError, "param"));
      const query = schemas.query.safeParse(queryArgs);
      if (!query.success) errors.push(...fieldErrors(query.error as ZodError, "query"));
      if (errors.length > 0) throw validationProblem(asArgumentErrors(errors));
      return { ...(path?.data ?? {}), ...query.data } as ParametersOf<Query, Path>;
    },
  };
}

/** A tool whose arguments are a REST operation's JSON body. */
export function createBodyInput<Body extends z.ZodType<object>>(schema: Body): ToolInput<z.output<Body>> {
  const jsonSchema = buildOnce((): ToolInputSchema => {
    const { operation, components } = documentRequest(
      { body: { required: true, content: { "application/json": { schema } } } },
      [],
    );
    const body = inlineSchema(operation.requestBody, components);
    const documented = isObject(body) && isObject(body.content) ? body.content["application/json"] : undefined;
    const bodySchema = isObject(documented) ? documented.schema : undefined;
    if (!isObject(bodySchema) || bodySchema.type !== "object" || !isObject(bodySchema.properties)) {
      throw new Error("tool input: a body tool needs an object schema");
    }
    return { ...bodySchema, type: "object", properties: bodySchema.properties as Record<string, JsonObject> };
  });

  return {
    jsonSchema,
    parse(args) {
      const body = schema.safeParse(args);
      if (!body.success) throw validationProblem(asArgumentErrors(fieldErrors(body.error as ZodError, "json")));
      return body.data;
    },
  };
}

/**
 * A tool without arguments, for an operation REST serves without parameters: like REST, which
 * reads no query there, it ignores whatever arguments it is given.
 */
export function createEmptyInput(): ToolInput<Record<string, never>> {
  return {
    jsonSchema: () => ({ type: "object", properties: {} }),
    parse: () => ({}),
  };
}
