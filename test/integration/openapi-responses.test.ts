/**
 * GET /openapi.json and GET /docs through the Worker, then real answers of a representative set of
 * endpoints, each validated against the schema the served document declares for that operation,
 * status and content type. The validator is small and strict (it refuses schema keywords it does
 * not know, so it can never pass a body by ignoring what it cannot check).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { fixture } from "../support/fixture-web.ts";
import { insertSites, uniqueToken } from "../support/sites.ts";
import { asClient, call } from "../support/worker.ts";

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

interface MediaType {
  schema?: JsonSchema;
}

interface Operation {
  operationId: string;
  responses: Record<string, { description: string; content?: Record<string, MediaType> }>;
}

interface Document {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, Record<string, string>> };
}

const CHECKED = new Set([
  "$ref",
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "format",
  "pattern",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
]);
const ANNOTATIONS = new Set(["description", "example", "examples", "title", "default", "deprecated"]);
const FORMATS: Record<string, (value: string) => boolean> = {
  "date-time": (value) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)),
  uri: (value) => {
    try {
      return Boolean(new URL(value));
    } catch {
      return false;
    }
  },
  uuid: (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
};

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "number") return typeof value === "number" && Number.isFinite(value);
  return typeOf(value) === type;
}

/** Every way `value` breaks `schema` ($refs resolved in `document`), as "path: problem" lines. */
function schemaErrors(value: unknown, schema: JsonSchema, document: Document, at = "$"): string[] {
  for (const keyword of Object.keys(schema)) {
    if (!CHECKED.has(keyword) && !ANNOTATIONS.has(keyword)) {
      throw new Error(`${at}: the validator does not know the keyword "${keyword}"`);
    }
  }
  const errors: string[] = [];
  if (schema.$ref) {
    const target = document.components.schemas[schema.$ref.replace("#/components/schemas/", "")];
    if (!target) throw new Error(`${at}: unresolvable $ref ${schema.$ref}`);
    // In OpenAPI 3.1 a $ref's siblings apply too, so the checks below still run.
    errors.push(...schemaErrors(value, target, document, at));
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => hasType(value, type))) {
      return [...errors, `${at}: expected ${types.join(" or ")}, got ${typeOf(value)}`];
    }
  }
  if (schema.enum && !schema.enum.some((option) => option === value)) {
    errors.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  if ("const" in schema && schema.const !== value) errors.push(`${at}: expected ${JSON.stringify(schema.const)}`);
  for (const part of schema.allOf ?? []) errors.push(...schemaErrors(value, part, document, at));
  if (schema.anyOf && !schema.anyOf.some((part) => schemaErrors(value, part, document, at).length === 0)) {
    errors.push(`${at}: matches none of anyOf`);
  }
  if (schema.oneOf) {
    const matching = schema.oneOf.filter((part) => schemaErrors(value, part, document, at).length === 0).length;
    if (matching !== 1) errors.push(`${at}: matches ${matching} of oneOf, not exactly 1`);
  }
  if (typeof value === "string") {
    if (schema.format) {
      const check = FORMATS[schema.format];
      if (!check) throw new Error(`${at}: the validator does not know the format "${schema.format}"`);
      if (!check(value)) errors.push(`${at}: ${JSON.stringify(value)} is not a ${schema.format}`);
    }
    if (schema.pattern && !new RegExp(schema.pattern, "u").test(value)) {
      errors.push(`${at}: does not match ${schema.pattern}`);
    }
    if (schema.minLength !== undefined && value.length < schema.minLength) errors.push(`${at}: too short`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) errors.push(`${at}: too long`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${at}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${at}: above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${at}: too few items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${at}: too many items`);
    const items = schema.items;
    if (items) {
      for (const [index, item] of value.entries())
        errors.push(...schemaErrors(item, items, document, `${at}[${index}]`));
    }
  }
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (!(name in object)) errors.push(`${at}: missing required ${name}`);
    }
    for (const [name, member] of Object.entries(object)) {
      const property = schema.properties?.[name];
      if (property) {
        errors.push(...schemaErrors(member, property, document, `${at}.${name}`));
      } else if (schema.additionalProperties === false) {
        errors.push(`${at}: unexpected field ${name}`);
      } else if (typeof schema.additionalProperties === "object") {
        errors.push(...schemaErrors(member, schema.additionalProperties, document, `${at}.${name}`));
      }
    }
  }
  return errors;
}

let document: Document;

/** The schema the document declares for this answer of `method path` (path as in the document). */
function declaredSchema(method: string, path: string, response: Response): JsonSchema {
  const operation = document.paths[path]?.[method];
  if (!operation) throw new Error(`the document has no ${method.toUpperCase()} ${path}`);
  const declared = operation.responses[String(response.status)];
  if (!declared) throw new Error(`${operation.operationId} declares no ${response.status} response`);
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
  const schema = declared.content?.[contentType]?.schema;
  if (!schema) throw new Error(`${operation.operationId} ${response.status} declares no ${contentType} body`);
  return schema;
}

/** Asserts the status, and that the body conforms to what the document declares; returns the body. */
async function expectDeclared<T = Record<string, unknown>>(
  response: Response,
  method: string,
  path: string,
  status: number,
): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  const body = (await response.json()) as T;
  expect(schemaErrors(body, declaredSchema(method, path, response), document)).toEqual([]);
  return body;
}

const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

// The file's first call loads the Worker's modules (the whole service, its generated document
// included), which takes seconds on a busy machine.
beforeAll(async () => {
  const response = await call("/openapi.json");
  expect(response.status).toBe(200);
  document = (await response.json()) as Document;
}, 60_000);

describe("GET /openapi.json", () => {
  it("serves the whole service's OpenAPI 3.1 document, public, cached 5 minutes, open to any origin", async () => {
    const response = await call("/openapi.json", { headers: { Origin: "https://elsewhere.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const served = (await response.json()) as Document;
    expect(served.openapi).toBe("3.1.0");
    expect(served.info.version).toBe("1.1.0");
    expect(served.servers.map((server) => server.url)).toEqual(["http://svc.test/api/v1"]);
    expect(Object.keys(served.paths)).toEqual(
      expect.arrayContaining(["/", "/search", "/top", "/site/{domain}", "/check", "/verify-mcp", "/submit"]),
    );
    expect(Object.keys(served.components.securitySchemes).sort()).toEqual([
      "humanSession",
      "priorityKey",
      "providerKey",
    ]);
  });

  it("is where the descriptor says it is", async () => {
    const descriptor = await expectDeclared<{ openapi_spec: string }>(await call("/api/v1/"), "get", "/", 200);
    expect(descriptor.openapi_spec).toBe("http://svc.test/openapi.json");
  });
});

describe("GET /docs", () => {
  it("renders every operation of the document as a self-contained HTML page", async () => {
    const response = await call("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await response.text();
    // Self-contained: no script, no stylesheet, and nothing loaded from another origin (the
    // shared layout's icon and canonical link point at the service itself).
    expect(html).not.toMatch(/<script|rel="stylesheet"/i);
    for (const [, url = ""] of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
      expect(url.startsWith("/") || url.startsWith("#") || url.startsWith("http://svc.test/"), url).toBe(true);
    }
    expect(html).toContain('href="/openapi.json"');
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(html, operation.operationId).toContain(`id="op-${operation.operationId}"`);
        expect(html).toContain(`<span class="method ${method}">${method}</span><code>${path}</code>`);
      }
    }
  });
});

describe("the validator", () => {
  it("rejects a body with a missing required field, a wrong type, a bad enum or format", async () => {
    const t = uniqueToken();
    await insertSites([{ domain: `valid-${t}.test`, name: `${t} Valid` }]);
    const response = await asClient()(`/api/v1/search?q=${t}`);
    const body = await expectDeclared<Record<string, unknown> & { results: Record<string, unknown>[] }>(
      response,
      "get",
      "/search",
      200,
    );
    const schema = declaredSchema("get", "/search", response);
    const mutated = (change: (copy: typeof body) => void) => {
      const copy = structuredClone(body);
      change(copy);
      return schemaErrors(copy, schema, document);
    };
    expect(mutated((copy) => delete copy.results[0]!.domain)).toEqual(["$.results[0]: missing required domain"]);
    expect(mutated((copy) => delete copy.has_next)).toEqual(["$: missing required has_next"]);
    expect(mutated((copy) => (copy.total = "1"))).toEqual(["$.total: expected integer, got string"]);
    expect(mutated((copy) => (copy.page = 1.5))).toEqual(["$.page: expected integer, got number"]);
    expect(mutated((copy) => (copy.results[0]!.category = "gardening"))).toHaveLength(1);
    expect(mutated((copy) => (copy.results[0]!.created_at = "yesterday"))).toEqual([
      '$.results[0].created_at: "yesterday" is not a date-time',
    ]);
    expect(mutated((copy) => (copy.results[0]!.agentic_score = 101))).toEqual([
      "$.results[0].agentic_score: above 100",
    ]);
    expect(mutated((copy) => (copy.access = "paid"))).toHaveLength(1);
    expect(schemaErrors({}, { type: "object", additionalProperties: false }, document)).toEqual([]);
    expect(schemaErrors({ extra: 1 }, { type: "object", additionalProperties: false }, document)).toEqual([
      "$: unexpected field extra",
    ]);
    expect(schemaErrors(null, { type: ["string", "null"] }, document)).toEqual([]);
    expect(() => schemaErrors(1, { type: "integer", multipleOf: 2 } as JsonSchema, document)).toThrow(/multipleOf/);
  });
});

describe("real answers conform to the document", () => {
  it("discovery: descriptor, search with results, top, site detail with a selection, categories, stats", async () => {
    const get = asClient();
    const t = uniqueToken();
    const domain = `conform-${t}.test`;
    await insertSites([
      {
        domain,
        name: `${t} Conform &amp; Co`,
        agenticScore: 85,
        tags: ["mcp", "openapi"],
        hasMcpServer: true,
        hasOpenapi: true,
        hasFavicon: true,
        faviconUrl: `https://${domain}/favicon.ico`,
        signalEvidence: {
          has_mcp_server: {
            status: "present",
            reason: "compliant handshake",
            fetched: [{ url: `https://${domain}/mcp`, status: 200, content_type: "application/json" }],
          },
        },
      },
      { domain: `conform-other-${t}.test`, name: `${t} Other`, agenticScore: 20 },
    ]);

    await expectDeclared(await get("/api/v1/"), "get", "/", 200);

    const search = await expectDeclared<{ search_id: string; results: { domain: string }[] }>(
      await get(`/api/v1/search?q=${t}`),
      "get",
      "/search",
      200,
    );
    expect(search.results.map((site) => site.domain)).toEqual([domain, `conform-other-${t}.test`]);

    const top = await expectDeclared<{ results: unknown[] }>(await get("/api/v1/top?limit=5"), "get", "/top", 200);
    expect(top.results.length).toBeGreaterThan(0);

    const detail = await expectDeclared<Record<string, unknown>>(
      await get(`/api/v1/site/${domain}?search_id=${search.search_id}`),
      "get",
      "/site/{domain}",
      200,
    );
    expect(detail).toHaveProperty("action_interest");
    expect(detail).toHaveProperty("favicon_url");

    await expectDeclared(await get("/api/v1/categories"), "get", "/categories", 200);
    await expectDeclared(await get("/api/v1/stats"), "get", "/stats", 200);
  });

  it("problems: a 400 with field errors and a 404", async () => {
    const get = asClient();
    const invalid = await expectDeclared<{ errors: unknown[] }>(
      await get("/api/v1/search?page=0&nope=1"),
      "get",
      "/search",
      400,
    );
    expect(invalid.errors.length).toBe(2);
    await expectDeclared(await get(`/api/v1/site/missing-${uniqueToken()}.test`), "get", "/site/{domain}", 404);
  });

  it("checks: a live check of a fixture site, an MCP verification, a submission", async () => {
    const client = asClient();
    await expectDeclared(await client("/api/v1/check", json({ url: `${fixture("nothing")}/` })), "post", "/check", 200);
    const verification = await expectDeclared<{ verified: boolean }>(
      await client(`/api/v1/verify-mcp?url=${encodeURIComponent(fixture("mcp-json"))}`),
      "get",
      "/verify-mcp",
      200,
    );
    expect(verification.verified).toBe(true);
    await expectDeclared(
      await client("/api/v1/submit", json({ url: `https://${uniqueToken()}.example/` })),
      "post",
      "/submit",
      201,
    );
  });

  it("exchange: a new action interest and its replay", async () => {
    const client = asClient();
    const t = uniqueToken();
    const domain = `interest-${t}.test`;
    await insertSites([{ domain, name: `${t} Interest` }]);
    const search = await expectDeclared<{ search_id: string }>(
      await client(`/api/v1/search?q=${t}`),
      "get",
      "/search",
      200,
    );
    const request = json({
      search_id: search.search_id,
      domain,
      action_type: "demo",
      caller_attests_principal_interest: true,
      confirmation_version: "svc-action-interest-v1",
    });
    await expectDeclared(await client("/api/v1/action-interests", request), "post", "/action-interests", 201);
    await expectDeclared(await client("/api/v1/action-interests", request), "post", "/action-interests", 200);
  });
});
