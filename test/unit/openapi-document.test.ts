/**
 * The OpenAPI document is generated from the route definitions of every group: every route a group
 * serves is in it (also one added with a plain `app.get`, which no registry knows), and every
 * operation has what clients and the linters rely on. Also the reference page's escaping.
 */
import { describe, expect, it } from "vitest";
import { createRoutes, type RouteGroup } from "../../src/http/routes.ts";
import { createGroups } from "../../src/routes/groups.ts";
import {
  buildOpenApiDocument,
  type OpenApiDocument,
  openApiDocumentOf,
  SECURITY_SCHEMES,
  withOrigin,
} from "../../src/routes/openapi-spec.ts";
import { renderApiReference } from "../../src/web/pages/api-reference.tsx";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

type Operation = NonNullable<NonNullable<OpenApiDocument["paths"]>[string]["get"]>;

function operationsOf(document: OpenApiDocument): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ method, path, operation: item[method] }] : [])),
  );
}

/** Hono's `/site/:domain` (optionally `:domain{regex}`) as OpenAPI's `/site/{domain}`. */
function toOpenApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
}

/**
 * Each route a group answers that the document lacks, from both sources: the registry (routes made
 * with createRoute) and Hono's own list (every handler, however added). Middleware is listed by
 * Hono as method ALL on a route's path, so an ALL entry only needs some operation at its path.
 */
function undocumentedRoutes(groups: RouteGroup[], document: OpenApiDocument): string[] {
  const paths = document.paths ?? {};
  const missing = new Set<string>();
  for (const group of groups) {
    for (const definition of group.routes.openAPIRegistry.definitions) {
      if (definition.type !== "route") continue;
      const { path } = definition.route;
      const method = definition.route.method as (typeof METHODS)[number];
      if (!paths[path]?.[method]) missing.add(`${group.name}: ${method.toUpperCase()} ${path} (registry)`);
    }
    for (const route of group.routes.routes) {
      if (route.path === "*" || route.path === "/*") continue;
      const path = toOpenApiPath(route.path);
      const method = route.method.toLowerCase() as (typeof METHODS)[number];
      const documented = route.method === "ALL" ? paths[path] !== undefined : paths[path]?.[method] !== undefined;
      if (!documented) missing.add(`${group.name}: ${route.method} ${route.path} (hono)`);
    }
  }
  return [...missing];
}

const groups = createGroups();
const document = buildOpenApiDocument(groups);
const operations = operationsOf(document);

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1.0 with the service's version and the API server", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.1.0");
    expect(document.info.title).toMatch(/\S/);
    expect(document.info.description).toMatch(/problem\+json/);
    expect(withOrigin(document, "https://svc.example").servers).toEqual([
      expect.objectContaining({ url: "https://svc.example/api/v1" }),
    ]);
  });

  it("documents every route of every group, by the registry and by Hono's own route list", () => {
    expect(groups.map((group) => group.name).sort()).toEqual([
      "auth",
      "checks",
      "commerce",
      "discovery",
      "exchange",
      "mcp",
      "monitor",
      "provider",
      "web",
    ]);
    expect(undocumentedRoutes(groups, document)).toEqual([]);
    // The groups that exist today serve these at least; a lost group would shrink the list.
    for (const [method, path] of [
      ["get", "/"],
      ["get", "/search"],
      ["get", "/top"],
      ["get", "/catalog"],
      ["post", "/quote"],
      ["post", "/checkout"],
      ["get", "/api-keys/subscribe"],
      ["post", "/api-keys/subscribe"],
      ["get", "/api-keys/activate"],
      ["post", "/webhooks/stripe"],
      ["get", "/site/{domain}"],
      ["get", "/categories"],
      ["get", "/stats"],
      ["post", "/check"],
      ["get", "/verify-mcp"],
      ["post", "/submit"],
      ["post", "/action-interests"],
      ["post", "/monitor/register"],
    ] as const) {
      expect(document.paths?.[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });

  it("catches a route added without createRoute (the check itself works)", () => {
    const routes = createRoutes();
    routes.get("/undocumented", (c) => c.text("hidden"));
    routes.use("/search", async (_c, next) => next());
    const extra: RouteGroup = { name: "extra", routes };
    expect(undocumentedRoutes([...groups, extra], document)).toEqual(["extra: GET /undocumented (hono)"]);
  });

  it("gives every operation a unique operationId, a described tag, declared security and a 2xx response", () => {
    const tags = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path, operation } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(operation.summary, where).toMatch(/\S/);
      expect(operation.description, where).toMatch(/\S/);
      expect(operation.tags?.length, where).toBeGreaterThan(0);
      for (const tag of operation.tags ?? []) expect(tags.get(tag), `${where} tag ${tag}`).toMatch(/\S/);
      expect(operation.security, `${where} declares its security`).toBeDefined();
      expect(
        Object.keys(operation.responses ?? {}).some((status) => /^2\d\d$/.test(status)),
        where,
      ).toBe(true);
    }
  });

  it("answers every error status with the shared problem+json schema (and a page only where a browser gets one)", () => {
    // GET /api-keys/activate is the one link a person opens in a browser (Stripe's success URL).
    const PAGES = new Set(["get /api-keys/activate 404", "get /api-keys/activate 409", "get /api-keys/activate 503"]);
    for (const { method, path, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) < 400 || "$ref" in response) continue;
        const key = `${method} ${path} ${status}`;
        expect(Object.keys(response.content ?? {}), key).toEqual([
          "application/problem+json",
          ...(PAGES.has(key) ? ["text/html"] : []),
        ]);
        expect(response.content?.["application/problem+json"]?.schema).toEqual({
          $ref: "#/components/schemas/Problem",
        });
      }
    }
  });

  it("declares 414 and 431 on every operation, and 413 on every operation that takes a body", () => {
    for (const { method, path, operation } of operations) {
      const statuses = Object.keys(operation.responses ?? {});
      const where = `${method.toUpperCase()} ${path}`;
      expect(statuses, where).toEqual(expect.arrayContaining(["414", "431"]));
      if (operation.requestBody) expect(statuses, where).toContain("413");
      else expect(statuses, where).not.toContain("413");
    }
    expect(operations.some(({ operation }) => operation.requestBody)).toBe(true);
  });

  it("lets every nullable enum hold null (a validating proxy would refuse `interval: null` otherwise)", () => {
    const refusingNull: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (Array.isArray(value)) for (const [i, item] of value.entries()) walk(item, `${at}[${i}]`);
      if (typeof value !== "object" || value === null || Array.isArray(value)) return;
      const schema = value as { type?: unknown; enum?: unknown[] };
      if (Array.isArray(schema.type) && schema.type.includes("null") && schema.enum && !schema.enum.includes(null)) {
        refusingNull.push(at);
      }
      for (const [key, member] of Object.entries(value)) walk(member, `${at}.${key}`);
    };
    walk(document, "$");
    expect(refusingNull).toEqual([]);
    const schemas = document.components?.schemas as Record<string, { properties: Record<string, unknown> }>;
    expect(schemas.Quote?.properties.interval).toMatchObject({ type: ["string", "null"], enum: ["month", null] });
    expect(schemas.Handoff?.properties.controlled_intent_disclosure_consent_version).toMatchObject({
      type: ["string", "null"],
      enum: ["svc-provider-controlled-intent-disclosure-consent-v1", null],
    });
  });

  it("declares the spec's two credentials: the svc_session cookie and the X-SVC-Provider-Key header", () => {
    expect(document.components?.securitySchemes).toEqual(SECURITY_SCHEMES);
    expect(document.components?.securitySchemes).toMatchObject({
      humanSession: { type: "apiKey", in: "cookie", name: "svc_session" },
      providerKey: { type: "apiKey", in: "header", name: "X-SVC-Provider-Key" },
    });
  });

  it("is built once per catalog, and served per origin without changing the built one", () => {
    const catalog = createGroups(["discovery"]);
    const built = openApiDocumentOf(catalog);
    expect(openApiDocumentOf(catalog)).toBe(built);
    const served = withOrigin(built, "https://a.example");
    expect(served.servers?.[0]?.url).toBe("https://a.example/api/v1");
    expect(served.info.contact?.url).toBe("https://a.example/");
    expect(built.servers).toEqual([{ url: "/api/v1" }]);
    expect(Object.keys(built.paths ?? {})).not.toContain("/check");
  });
});

describe("the reference page", () => {
  it("lists every operation and escapes what the document says", async () => {
    const hostile = withOrigin(
      {
        ...document,
        info: { ...document.info, title: `<script>alert("t")</script>` },
        tags: [...(document.tags ?? []), { name: "x<y", description: `"quoted" & <b>bold</b>` }],
      },
      "https://svc.example",
    );
    const html = await renderApiReference(hostile, "https://svc.example");
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;");
    expect(html).not.toContain("<b>bold</b>");
    for (const { operation } of operations) expect(html).toContain(`id="op-${operation.operationId}"`);
    expect(html).toContain('href="/openapi.json"');
    expect(html).toContain("https://svc.example/api/v1");
  });
});
