/**
 * GET /openapi.json and GET /docs through the Worker, then real answers of a representative set of
 * endpoints, each validated against the schema the served document declares for that operation,
 * status and content type. Every answer of every integration test is held to the document too
 * (test/support/worker.ts through test/support/openapi-contract.ts); this file also shows that the
 * shared validator refuses what it must.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { fixture } from "../support/fixture-web.ts";
import { type Contract, type ContractDocument, createContract } from "../support/openapi-contract.ts";
import { insertSites, uniqueToken } from "../support/sites.ts";
import { asClient, call } from "../support/worker.ts";

type JsonSchema = Record<string, unknown>;

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

interface Operation {
  operationId: string;
  responses: Record<string, { description: string; content?: Record<string, { schema?: JsonSchema }> }>;
}

interface Document extends ContractDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, Record<string, string>> };
}

let contract: Contract;
const schemaErrors = (value: unknown, schema: JsonSchema) => contract.schemaErrors(value, schema);

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
  expect(schemaErrors(body, declaredSchema(method, path, response))).toEqual([]);
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
  contract = createContract(document);
  // Building the document and compiling its schemas is the slow first step of a cold isolate.
}, 60_000);

describe("GET /openapi.json", () => {
  it("serves the whole service's OpenAPI 3.1 document, public, cached 5 minutes, open to any origin", async () => {
    const response = await call("/openapi.json", { headers: { Origin: "https://elsewhere.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const served = (await response.json()) as Document;
    // The document every answer of the suite is held to (test/support/worker.ts) is this one.
    expect(served).toEqual(JSON.parse(inject("openApiDocument")));
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
      // A path item's other members (the ARD registry's `servers`) are not operations.
      for (const [method, operation] of Object.entries(item).filter(([key]) => HTTP_METHODS.has(key))) {
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
      return schemaErrors(copy, schema);
    };
    expect(mutated(() => {})).toEqual([]);
    expect(mutated((copy) => delete copy.results[0]!.domain)).toEqual([
      expect.stringMatching(/^\$\.results\.0: must have required property 'domain'/),
    ]);
    expect(mutated((copy) => delete copy.has_next)).toEqual([
      expect.stringMatching(/^\$: must have required property 'has_next'/),
    ]);
    expect(mutated((copy) => (copy.total = "1"))).toEqual([expect.stringMatching(/^\$\.total: must be integer/)]);
    expect(mutated((copy) => (copy.page = 1.5))).toEqual([expect.stringMatching(/^\$\.page: must be integer/)]);
    expect(mutated((copy) => (copy.results[0]!.category = "gardening"))).toEqual([
      expect.stringMatching(/^\$\.results\.0\.category: must be equal to one of the allowed values/),
    ]);
    expect(mutated((copy) => (copy.results[0]!.created_at = "yesterday"))).toEqual([
      expect.stringMatching(/^\$\.results\.0\.created_at: must match format "date-time"/),
    ]);
    expect(mutated((copy) => (copy.results[0]!.agentic_score = 101))).toEqual([
      expect.stringMatching(/^\$\.results\.0\.agentic_score: must be <= 100/),
    ]);
    expect(mutated((copy) => (copy.access = "paid"))).toHaveLength(1);
    expect(schemaErrors({}, { type: "object", additionalProperties: false })).toEqual([]);
    expect(schemaErrors({ extra: 1 }, { type: "object", additionalProperties: false })).toEqual([
      expect.stringMatching(/^\$: must NOT have additional properties/),
    ]);
    expect(schemaErrors(null, { type: ["string", "null"] })).toEqual([]);
    // The nullable enums of issue 33: null is allowed, another value is not.
    const quote = document.paths["/quote"]?.post?.responses["200"]?.content?.["application/json"]?.schema ?? {};
    const answer = { interval: null };
    expect(schemaErrors(answer, { $ref: "#/components/schemas/Quote" }).join()).not.toContain("interval");
    expect(schemaErrors({ interval: "year" }, { $ref: "#/components/schemas/Quote" }).join()).toContain(".interval");
    expect(quote).toEqual({ $ref: "#/components/schemas/Quote" });
    // Strict: a keyword it does not know (a misspelt minimum) is an error, never ignored.
    expect(() => schemaErrors(1, { type: "integer", minimumValue: 2 })).toThrow(/minimumValue/);
  });

  it("refuses an undocumented status, content type or body, and a non-problem answer of an unknown path", () => {
    const answer = {
      method: "GET",
      url: "http://svc.test/api/v1/categories",
      status: 200,
      contentType: "application/json",
      body: JSON.stringify({ categories: [{ name: "developer", count: 1 }] }),
    };
    expect(contract.violations(answer)).toEqual([]);
    expect(contract.violations({ ...answer, status: 418 })).toEqual([
      expect.stringMatching(/listCategories declares no 418/),
    ]);
    expect(contract.violations({ ...answer, contentType: "text/plain" })).toEqual([
      expect.stringMatching(/content type text\/plain is not one listCategories declares/),
    ]);
    expect(contract.violations({ ...answer, body: JSON.stringify({ categories: [{ name: 1 }] }) })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\$\.categories\.0\.name: must be string/),
        expect.stringMatching(/\$\.categories\.0: must have required property 'count'/),
      ]),
    );
    expect(contract.violations({ ...answer, body: "<html>" })).toEqual([expect.stringMatching(/body is not JSON/)]);
    // HEAD is GET without a body.
    expect(contract.violations({ ...answer, method: "HEAD", body: "" })).toEqual([]);
    // A path the document lacks may only be refused, as a problem.
    const unknown = { ...answer, url: "http://svc.test/api/v1/nowhere", status: 404 };
    expect(contract.violations(unknown)).toEqual([expect.stringMatching(/not application\/problem\+json/)]);
    expect(contract.violations({ ...unknown, status: 200 })).toEqual([expect.stringMatching(/no operation documents/)]);
    // Outside the API (pages, /openapi.json, /mcp) nothing is documented, so nothing is checked.
    expect(
      contract.violations({ ...answer, url: "http://svc.test/search", status: 200, contentType: "text/html" }),
    ).toEqual([]);
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
    expect(search.results.map((site) => site.domain).sort()).toEqual([domain, `conform-other-${t}.test`].sort());

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
