/**
 * The OpenAPI reader: an OpenAPI 3.x or Swagger 2.0 document in JSON or YAML (the yaml package,
 * with alias expansion capped), with its version, title and number of paths; a document of
 * webhooks alone, or with no paths, is none an agent can call.
 */
import { parse as parseYaml } from "yaml";
import { isRecord, parseJson } from "../signals/blocking.ts";

/** An alias-bomb guard: far above what a real document uses, far below an exponential blow-up. */
const YAML_MAX_ALIASES = 200;

/** One operation as the document names it: what it is called and how it is grouped. */
export interface OpenApiOperation {
  operationId: string | null;
  summary: string | null;
  tags: string[];
}

/** The facts kept about a valid OpenAPI document. */
export interface OpenApiSummary {
  version: string;
  title: string | null;
  pathCount: number;
  /** The operations in document order, at most OPENAPI_OPERATIONS_KEPT (those naming nothing left out). */
  operations: OpenApiOperation[];
  /** The document's top-level tags (`tags[].name`), then those the operations use, each once. */
  tags: string[];
}

/** At most this many operations are read (real documents reach thousands). */
export const OPENAPI_OPERATIONS_KEPT = 200;
const OPERATION_TEXT_KEPT = 300;
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

const keptText = (value: unknown): string | null =>
  typeof value === "string" && value.trim() ? value.trim().slice(0, OPERATION_TEXT_KEPT) : null;

/** The operations of `paths` in document order, and every tag named. */
function readOperations(document: Record<string, unknown>): Pick<OpenApiSummary, "operations" | "tags"> {
  const tags = new Set<string>();
  for (const tag of Array.isArray(document.tags) ? document.tags : []) {
    const name = isRecord(tag) ? keptText(tag.name) : null;
    if (name) tags.add(name);
  }
  const operations: OpenApiOperation[] = [];
  const paths = isRecord(document.paths) ? Object.values(document.paths) : [];
  for (const item of paths) {
    if (!isRecord(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isRecord(operation) || operations.length >= OPENAPI_OPERATIONS_KEPT) continue;
      const operationTags = (Array.isArray(operation.tags) ? operation.tags : [])
        .map(keptText)
        .filter((tag): tag is string => tag !== null);
      for (const tag of operationTags) tags.add(tag);
      const read = { operationId: keptText(operation.operationId), summary: keptText(operation.summary) };
      if (read.operationId || read.summary) operations.push({ ...read, tags: operationTags });
    }
  }
  return { operations, tags: [...tags] };
}

/** Parses a JSON or YAML text to a value; undefined when it is neither. */
export function parseDocument(text: string): unknown {
  const trimmed = text.replace(/^\uFEFF/, "").trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    const json = parseJson(trimmed);
    if (json !== undefined) return json;
  }
  try {
    return parseYaml(trimmed, { maxAliasCount: YAML_MAX_ALIASES, logLevel: "silent" }) as unknown;
  } catch {
    return undefined;
  }
}

/** Reads an OpenAPI document, or says why the text is not a usable one. */
export function readOpenApiDocument(text: string): OpenApiSummary | { problem: string } {
  const document = parseDocument(text);
  if (!isRecord(document)) return { problem: "does not parse as a JSON or YAML object" };
  const version =
    typeof document.openapi === "string"
      ? document.openapi
      : typeof document.swagger === "string"
        ? document.swagger
        : null;
  if (version === null) return { problem: "has no openapi or swagger version" };
  const pathCount = isRecord(document.paths) ? Object.keys(document.paths).length : 0;
  // OpenAPI 3.1 allows a document of webhooks alone: calls the provider makes, none an agent can.
  const webhooksOnly = isRecord(document.webhooks) && Object.keys(document.webhooks).length > 0;
  if (pathCount === 0) {
    const what = webhooksOnly ? "that describes webhooks only, no paths" : "with no paths";
    return { problem: `is an OpenAPI ${version} document ${what}` };
  }
  const title = isRecord(document.info) && typeof document.info.title === "string" ? document.info.title : null;
  return { version, title, pathCount, ...readOperations(document) };
}

/** An operation an OpenAPI document marks as paid, with the URL a GET of it would ask. */
export interface PaidOperation {
  method: string;
  path: string;
  /** The absolute URL, or null when the operation is not a GET or its path has template variables. */
  url: string | null;
  /** What marks it paid: a declared `402` response or an `x-payment-info` extension. */
  marker: "402 response" | "x-payment-info";
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * The operations a parsed OpenAPI document marks as paid: a declared `402` response (x402 and MPP
 * servers describe their challenge so), or the `x-payment-info` extension of MPP's discovery draft
 * (draft-payment-discovery). URLs are built on the first server (OpenAPI 3) or `host` and
 * `basePath` (Swagger 2), resolved against the document's own URL.
 */
export function readPaidOperations(document: unknown, documentUrl: string): PaidOperation[] {
  if (!isRecord(document) || !isRecord(document.paths)) return [];
  let base = new URL(documentUrl).origin;
  const server = Array.isArray(document.servers) && isRecord(document.servers[0]) ? document.servers[0] : null;
  try {
    if (server && typeof server.url === "string" && !server.url.includes("{"))
      base = new URL(server.url, documentUrl).href;
    else if (typeof document.host === "string")
      base = new URL(typeof document.basePath === "string" ? document.basePath : "/", `https://${document.host}`).href;
  } catch {
    // An unusable server URL: the document's own origin is the base.
  }
  const operations: PaidOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      const responses = isRecord(operation.responses) ? operation.responses : {};
      const marker = "402" in responses ? "402 response" : "x-payment-info" in operation ? "x-payment-info" : null;
      if (!marker) continue;
      let url: string | null = null;
      if (method === "get" && !path.includes("{")) {
        try {
          url = new URL(`${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`).href;
        } catch {
          url = null;
        }
      }
      operations.push({ method, path, url, marker });
    }
  }
  return operations;
}
