/**
 * The published OpenAPI document as a contract every answer of the test suites is held to: an
 * answer of an API path must have a status the operation declares, a content type that status
 * declares (or no body when it declares none), and a body valid against the declared schema. The
 * integration suite's `call` (test/support/worker.ts) and the e2e suite's fetch
 * (test/support/e2e-contract.ts) check every answer here, so no drift between the document and
 * the routes can pass unnoticed.
 *
 * Schemas are checked by Ajv (JSON Schema 2020-12, which OpenAPI 3.1 uses) in strict mode: a
 * keyword it does not know is an error, never silently ignored. OpenAPI's own `example` is the one
 * keyword added.
 *
 * Outside the API prefix (pages, /openapi.json, /mcp, /healthz) nothing is documented, and nothing
 * is checked. An API path no operation matches, or a method its path lacks, must still be a
 * problem+json answer of the document's Problem schema.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type JsonObject = Record<string, unknown>;

interface DeclaredResponse {
  content?: Record<string, { schema?: JsonObject }>;
}

interface Operation {
  operationId: string;
  responses: Record<string, DeclaredResponse>;
}

export interface ContractDocument {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation | unknown>>;
  components: { schemas: Record<string, JsonObject> };
}

/** One answer as the contract sees it. */
export interface Answer {
  method: string;
  url: string;
  status: number;
  contentType: string | null;
  body: string;
}

const CONTRACT_ID = "urn:agent-readiness:openapi";
const METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

/** "#/components/schemas/X" → "urn:…#/$defs/X": the components become one registered schema. */
function relinked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relinked);
  if (typeof value !== "object" || value === null) return value;
  const copy: JsonObject = {};
  for (const [key, member] of Object.entries(value)) {
    copy[key] =
      key === "$ref" && typeof member === "string" && member.startsWith("#/components/schemas/")
        ? `${CONTRACT_ID}#/$defs/${member.slice("#/components/schemas/".length)}`
        : relinked(member);
  }
  return copy;
}

/** The media type of a Content-Type header, without parameters, lower case. */
export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

export interface Contract {
  /** Every way `answer` departs from the document, as readable lines (none: it conforms). */
  violations(answer: Answer): string[];
  /** Every way `value` breaks `schema` (its $refs into the document's components). */
  schemaErrors(value: unknown, schema: JsonObject): string[];
  /** Whether answers to this URL are checked at all (it is under the API prefix). */
  covers(url: string): boolean;
}

export function createContract(document: ContractDocument): Contract {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addVocabulary(["example"]);
  ajv.addSchema({ $id: CONTRACT_ID, $defs: relinked(document.components.schemas) as JsonObject });

  const validators = new Map<JsonObject, ValidateFunction>();
  const validatorOf = (schema: JsonObject) => {
    let validate = validators.get(schema);
    if (!validate) {
      validate = ajv.compile(relinked(schema) as JsonObject);
      validators.set(schema, validate);
    }
    return validate;
  };
  const schemaErrors = (value: unknown, schema: JsonObject): string[] => {
    const validate = validatorOf(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `$${error.instancePath.replaceAll("/", ".")}: ${error.message} (${error.schemaPath})`,
    );
  };

  const prefix = new URL(document.servers[0]?.url ?? "/", "http://contract.test").pathname.replace(/\/$/, "");
  // Literal paths before templated ones, so /provider/offers wins over a template matching it.
  const templates = Object.keys(document.paths)
    .map((path) => ({
      path,
      pattern: new RegExp(
        `^${path
          .split(/(\{[^}]+\})/)
          .map((part) => (part.startsWith("{") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
          .join("")}$`,
      ),
      literal: !path.includes("{"),
    }))
    .sort((a, b) => Number(b.literal) - Number(a.literal));
  const problemSchema = document.components.schemas.Problem;
  if (!problemSchema) throw new Error("the document has no Problem schema");

  // Path items with servers of their own (the ARD registry's, at the site root) are full paths.
  const rootPath = (path: string) => {
    const servers = (document.paths[path] as { servers?: { url: string }[] } | undefined)?.servers;
    return Array.isArray(servers) && servers.length > 0;
  };
  const rootTemplates = templates.filter((template) => rootPath(template.path));
  const apiTemplates = templates.filter((template) => !rootPath(template.path));
  const rootTemplateOf = (pathname: string) => rootTemplates.find((candidate) => candidate.pattern.test(pathname));
  // The prefixes the root paths live under (/ard/v1), so an unrouted path there is held to the Problem schema too.
  const rootPrefixes = [...new Set(rootTemplates.map((template) => template.path.split("/").slice(0, 3).join("/")))];

  const covers = (url: string) => {
    const { pathname } = new URL(url);
    return (
      pathname === prefix ||
      pathname.startsWith(`${prefix}/`) ||
      rootPrefixes.some((root) => pathname === root || pathname.startsWith(`${root}/`))
    );
  };

  const parsedBody = (answer: Answer): { value?: unknown; error?: string } => {
    try {
      return { value: JSON.parse(answer.body) };
    } catch {
      return { error: `body is not JSON: ${answer.body.slice(0, 120)}` };
    }
  };

  /** An answer no operation documents: a problem, of the Problem schema. */
  const undocumented = (answer: Answer, what: string): string[] => {
    if (answer.status < 400) return [`${what}: answered ${answer.status}, which no operation documents`];
    if (mediaType(answer.contentType) !== "application/problem+json") {
      return [`${what}: answered ${answer.status} as ${answer.contentType}, not application/problem+json`];
    }
    if (answer.method === "HEAD") return [];
    const { value, error } = parsedBody(answer);
    return error ? [`${what}: ${error}`] : schemaErrors(value, problemSchema).map((line) => `${what}: ${line}`);
  };

  return {
    covers,
    schemaErrors,
    violations(answer) {
      if (!covers(answer.url) || answer.method === "OPTIONS") return [];
      const { pathname } = new URL(answer.url);
      const underApi = pathname === prefix || pathname.startsWith(`${prefix}/`);
      const apiPath = pathname.slice(prefix.length) || "/";
      const label = `${answer.method} ${pathname} → ${answer.status}`;
      const template = underApi
        ? apiTemplates.find((candidate) => candidate.pattern.test(apiPath))
        : rootTemplateOf(pathname);
      if (!template) return undocumented(answer, `${label} (no documented path)`);
      const item = document.paths[template.path] ?? {};
      // HEAD is GET without the body (RFC 9110 section 9.3.2).
      const method = answer.method === "HEAD" ? "get" : answer.method.toLowerCase();
      const operation = METHODS.has(method) ? (item[method] as Operation | undefined) : undefined;
      if (!operation) return undocumented(answer, `${label} (${template.path} documents no ${method})`);

      const declared =
        operation.responses[String(answer.status)] ?? operation.responses[`${String(answer.status)[0]}XX`];
      if (!declared) {
        return [
          `${label}: ${operation.operationId} declares no ${answer.status} (declared: ${Object.keys(operation.responses).join(", ")})`,
        ];
      }
      const type = mediaType(answer.contentType);
      const content = declared.content ?? {};
      if (Object.keys(content).length === 0) {
        return answer.body === "" ? [] : [`${label}: ${operation.operationId} declares no body, got ${type || "one"}`];
      }
      const media = content[type];
      if (!media) {
        return [
          `${label}: content type ${answer.contentType} is not one ${operation.operationId} declares (${Object.keys(content).join(", ")})`,
        ];
      }
      if (answer.method === "HEAD" || !media.schema) return [];
      if (!type.endsWith("json")) return [];
      const { value, error } = parsedBody(answer);
      if (error) return [`${label}: ${error}`];
      return schemaErrors(value, media.schema).map((line) => `${label} (${operation.operationId}): ${line}`);
    },
  };
}

/** Throws, naming every violation, when `answer` departs from the contract. */
export function assertConforms(contract: Contract, answer: Answer): void {
  const violations = contract.violations(answer);
  if (violations.length > 0) {
    throw new Error(`the answer departs from the OpenAPI document:\n${violations.join("\n")}`);
  }
}
