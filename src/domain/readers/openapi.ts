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
