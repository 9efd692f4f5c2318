/**
 * The service's OpenAPI 3.1 document, generated from the route definitions of its endpoint groups
 * (never written by hand), so it cannot drift from what the routes validate and answer. Served at
 * {site_url}/openapi.json and rendered at {site_url}/docs; `npm test` lints it.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { buildDescriptor, FREE_LIMITS, SERVICE_VERSION } from "../domain/descriptor/build-descriptor.ts";
import { MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_REQUEST_TARGET_BYTES } from "../http/middleware/request-size.ts";
import type { RouteGroup } from "../http/routes.ts";
import { API_PREFIX, ARD_PREFIX } from "../http/routes.ts";
import { problemResponses } from "./shared/schemas.ts";

/** The generated document (an OpenAPI 3.1 object). */
export type OpenApiDocument = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;

type RegistryDefinition = OpenAPIHono["openAPIRegistry"]["definitions"][number];

/** Each tag a route may carry, described once here so the document's top-level tags say what it groups. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  discovery:
    "The free, organic index: the descriptor, search, the top list, site detail, categories and statistics. Ordering and scores are never changed by anything paid.",
  checks:
    "Live checks of any site: a readiness crawl, an MCP handshake, and submitting a site for crawling. Results of live checks are never cached.",
  exchange:
    "The optional provider-funded layer, beside and never inside organic results: recording a principal's action interest on a returned organic result.",
  auth: "E-mail sign-in: a one-time link by mail, exchanged for the svc_session cookie; reading and ending the session.",
  commerce:
    "The paid extras, apart from the free index: the catalog, quotes, the score-fix checkout, the optional priority key (subscription, activation) and Stripe's webhook.",
  provider:
    "Providers of indexed domains: DNS-verified claims and their claim-scoped keys (session), and the provider-key endpoints.",
  registry:
    "The ARD registry (Agentic Resource Discovery v0.91) over the index, under /ard/v1: the agent resources of indexed sites as ARD entries with our verification beside them. Organic like search: nothing paid changes an entry or its order.",
  monitor:
    "Score-drop monitors: e-mail alerts when a domain's score drops, sent only to confirmed addresses, each with a one-click unsubscribe link.",
};

/**
 * The spec's two credentials (Authentication). Declared even while every operation is public, so
 * clients see the whole scheme set; an operation that needs one names it in its `security`.
 */
export const SECURITY_SCHEMES = {
  humanSession: {
    type: "apiKey",
    in: "cookie",
    name: "svc_session",
    description:
      "Human session cookie, created by the e-mail sign-in flow (which fails closed); required by the provider claim and offer endpoints (401 without it).",
  },
  priorityKey: {
    type: "http",
    scheme: "bearer",
    description:
      "Optional paid priority key (`Authorization: Bearer <key>`), shown once at activation: raises the search, live-verification and /check ceilings while its monthly allocation lasts; never changes ranking or results. A bad or ended key is 401.",
  },
  providerKey: {
    type: "apiKey",
    in: "header",
    name: "X-SVC-Provider-Key",
    description:
      "Claim-scoped provider key, returned once after DNS verification or rotation (rotation revokes earlier keys); works only while its claim is verified and fresh.",
  },
} as const;

/** What every operation shares, after the descriptor's own description. */
const SHARED_RULES = [
  "Every error reply is an RFC 9457 `application/problem+json` document with a stable `code` and the `request_id`; validation failures list each offending field in `errors`.",
  `Free limits: search ${FREE_LIMITS.search}, live verification ${FREE_LIMITS.live_verification}, \`POST /check\` ${FREE_LIMITS.check}; over a limit the reply is 429 with \`Retry-After\`. A request is counted once its input has passed validation (a validation 400 costs nothing), and HEAD is never counted.`,
  `A method a path does not have is 405 with \`Allow\`; a body over ${MAX_BODY_BYTES} bytes is 413, a path and query over ${MAX_REQUEST_TARGET_BYTES} bytes 414, header fields over ${MAX_HEADER_BYTES} bytes in total 431.`,
];

type RouteDefinition = Extract<RegistryDefinition, { type: "route" }>["route"];

/**
 * A route with the refusals every request may meet before its handler runs (the size limits of
 * `src/http/middleware/request-size.ts`): 414 and 431 on every operation, 413 where a body is read.
 * A route's own entry for a status wins; statuses are listed in order.
 */
function withRequestSizeResponses(route: RouteDefinition): RouteDefinition {
  const sizeProblems = route.request?.body ? problemResponses(413, 414, 431) : problemResponses(414, 431);
  const responses: RouteDefinition["responses"] = { ...sizeProblems, ...route.responses };
  const ordered = Object.keys(responses).sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  return { ...route, responses: Object.fromEntries(ordered.map((status) => [status, responses[status]!])) };
}

/**
 * Copies one group's definitions into the registry the document is generated from. The ARD
 * registry's routes keep their full path (`/ard/v1/…`); their path items get the site root as
 * their server (see `withArdServers`).
 */
function copyDefinitions(target: OpenAPIHono, group: RouteGroup): void {
  copyRoutes(target, group, group.routes, "");
  if (group.ardRoutes) copyRoutes(target, group, group.ardRoutes, ARD_PREFIX);
}

function copyRoutes(target: OpenAPIHono, group: RouteGroup, routes: RouteGroup["routes"], prefix: string): void {
  for (const definition of routes.openAPIRegistry.definitions as RegistryDefinition[]) {
    if (definition.type === "route") {
      const route = withRequestSizeResponses(definition.route);
      target.openAPIRegistry.registerPath(prefix ? { ...route, path: `${prefix}${route.path}` } : route);
    } else if (definition.type === "component") {
      target.openAPIRegistry.registerComponent(definition.componentType, definition.name, definition.component);
    } else {
      // Named schemas reach the document through the routes that use them; anything else is new.
      throw new Error(`group ${group.name}: unsupported OpenAPI registry entry "${definition.type}"`);
    }
  }
}

/** The tags the operations use, in first-use order, each with its description. */
function collectTags(document: OpenApiDocument): { name: string; description?: string }[] {
  const names = new Set<string>();
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem ?? {})) {
      if (typeof operation === "object" && operation !== null && "responses" in operation) {
        for (const tag of operation.tags ?? []) names.add(tag);
      }
    }
  }
  return [...names].map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name }));
}

/**
 * Generates the document of every API route of `groups` (paths relative to /api/v1), origin-free:
 * `withOrigin` adds the server and contact URLs. Site-root routes (pages, this document, /mcp) are
 * not API operations and are left out: their paths would collide with the API's (GET / is both the
 * home page and the descriptor).
 */
export function buildOpenApiDocument(groups: RouteGroup[]): OpenApiDocument {
  const merged = new OpenAPIHono();
  for (const group of groups) copyDefinitions(merged, group);
  const descriptor = buildDescriptor({ origin: "", endpoints: {} });
  const generated = merged.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: descriptor.name,
      version: SERVICE_VERSION,
      description: [descriptor.description, ...SHARED_RULES].join("\n\n"),
      contact: { name: descriptor.name },
    },
    servers: [{ url: API_PREFIX }],
  });
  admitNullInNullableEnums(generated);
  withArdServers(generated, "/");
  return {
    ...generated,
    tags: collectTags(generated),
    components: { ...generated.components, securitySchemes: SECURITY_SCHEMES },
  };
}

/**
 * The generator writes a nullable literal or enum (`z.literal("month").nullable()`) as
 * `{"type": ["string", "null"], "enum": ["month"]}`: the enum leaves null out, so the schema
 * refuses the null it means to allow (JSON Schema applies both keywords). Every such enum gets its
 * null here, in place, so the document says what the routes answer (`Quote.interval`,
 * `Handoff.controlled_intent_disclosure_consent_version`).
 */
export function admitNullInNullableEnums(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) admitNullInNullableEnums(item);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const schema = value as { type?: unknown; enum?: unknown[] };
  if (Array.isArray(schema.type) && schema.type.includes("null") && Array.isArray(schema.enum)) {
    if (!schema.enum.includes(null)) schema.enum.push(null);
  }
  for (const member of Object.values(value)) admitNullInNullableEnums(member);
}

const builtDocuments = new WeakMap<RouteGroup[], OpenApiDocument>();

/** `buildOpenApiDocument`, once per set of groups (an app's catalog lives as long as the app). */
export function openApiDocumentOf(groups: RouteGroup[]): OpenApiDocument {
  let document = builtDocuments.get(groups);
  if (!document) {
    document = buildOpenApiDocument(groups);
    builtDocuments.set(groups, document);
  }
  return document;
}

/**
 * The ARD registry's paths are full paths from the site root, not from {base_url}: each of their
 * path items names the site root as its server (OpenAPI 3.1 path-level `servers`), in place.
 */
function withArdServers(document: OpenApiDocument, root: string): void {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (item && (path === ARD_PREFIX || path.startsWith(`${ARD_PREFIX}/`))) {
      item.servers = [{ url: root, description: "The site root: the ARD registry is served under /ard/v1" }];
    }
  }
}

/** The document as served from `origin`: absolute server URL and a contact link to the site. */
export function withOrigin(document: OpenApiDocument, origin: string): OpenApiDocument {
  const paths = structuredClone(document.paths ?? {});
  const served = { ...document, paths };
  withArdServers(served, origin);
  return {
    ...served,
    info: { ...document.info, contact: { ...document.info.contact, url: `${origin}/` } },
    servers: [{ url: `${origin}${API_PREFIX}`, description: "This deployment's API root ({base_url})" }],
  };
}
