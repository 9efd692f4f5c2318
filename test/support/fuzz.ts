/**
 * A schema-driven fuzzer of the whole public surface: every operation of the OpenAPI document and
 * every MCP tool, with valid, boundary and hostile requests (NUL, lone surrogates, RTL and emoji,
 * overlong strings, huge integers, deep nesting, duplicate keys, wrong types and content types,
 * odd headers). The same seed always makes the same requests. Each answer is judged by the rules
 * every answer must keep: no 5xx but a documented 501 or 503, every API error problem+json with
 * its request id, every MCP error the right JSON-RPC code (never -32603, and no tool error
 * INTERNAL_ERROR), no error answer larger than MAX_ERROR_BYTES and no answer at all larger than
 * MAX_ANSWER_BYTES.
 *
 * Runtime-agnostic (workerd and Node): the integration test sends through the Worker in-process,
 * `npm run fuzz` sends to a running `npm start`.
 */
import { MCP_TOOLS } from "../../src/routes/mcp/mcp-tools.ts";
import type { OpenApiDocument } from "../../src/routes/openapi-spec.ts";

/**
 * The largest error answer (API problem, JSON-RPC error or tool error) any request may get: an error
 * must not grow with the request (the 545 KiB answer to 5,000 unknown keys was the bug).
 */
export const MAX_ERROR_BYTES = 32 * 1024;
/**
 * The largest answer of any kind. Successful answers are sized by what they return, not by the
 * request: the largest documented one is a year of adoption series per category (about 320 KiB).
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** The JSON-RPC error codes a request may earn (never -32603 Internal error). */
const MCP_ERROR_CODES = new Set([-32700, -32600, -32601, -32602, -32000]);

const API_PREFIX = "/api/v1";
const MCP_PATH = "/mcp";
const SESSION_COOKIE = "svc_session";
const PROVIDER_KEY_HEADER = "X-SVC-Provider-Key";

export interface FuzzRequest {
  /** What the request tries, for a failure report. */
  label: string;
  kind: "api" | "mcp";
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The statuses of 500 and up the operation documents (501, 503): allowed. */
  allowedServerErrors: number[];
}

export interface FuzzAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** Valid credentials the fuzzer may attach, so requests reach past authentication. */
export interface FuzzCredentials {
  sessionToken?: string;
  providerKey?: string;
  /** The service's own origin, for the same-origin headers of a cookie mutation. */
  ownOrigin: string;
  /** Ids the fuzzer uses as path parameters now and then (a claim, an offer of that account). */
  knownIds?: string[];
}

// --- A seeded random source (mulberry32): the same seed, the same requests. ---

export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(16).toString(16)).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
  /** A client address of its own (a /64 of the documentation prefix), so no limit is shared. */
  clientIp(): string {
    return `2001:db8:${this.int(0x10000).toString(16)}:${this.int(0x10000).toString(16)}::1`;
  }
}

// --- Hostile values ---

const HOSTILE_STRINGS = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "\udc00\ud800",
  "\u202eevil\u202c.example",
  "🧪👩‍👩‍👧🏳️‍🌈",
  "שלום עולם",
  "e\u0301\u0308",
  "\ufeffbom",
  "line\u2028sep",
  "tab\tnew\nline\r",
  "'; drop table sites; --",
  "<script>alert(1)</script>",
  "../../../etc/passwd",
  "%00%ff%",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection payload, literally
  "${jndi:ldap://127.0.0.1/a}",
  "{{7*7}}",
  "",
  " ",
  "A".repeat(257),
  "A".repeat(4097),
  "é".repeat(2100),
  "http://127.0.0.1:9/",
  "https://x.internal/",
  "javascript:alert(1)",
  "https://user:pass@127.0.0.1/",
  "xn--",
  "-.-",
  "1e999",
];

const HOSTILE_NUMBERS = [
  0,
  -1,
  1.5,
  -0,
  2147483647,
  2147483648,
  -2147483649,
  9007199254740991,
  2 ** 53 + 2,
  1e21,
  1e308,
  -1e308,
  5e-324,
];

/** Raw JSON number texts no JSON.stringify would write: huge, long, or not JSON at all. */
const RAW_NUMBER_TEXTS = [
  "9007199254740993",
  `1${"0".repeat(400)}`,
  "1e99999",
  "-0.0000000000000000000001",
  "NaN",
  "Infinity",
  "0x10",
  "01",
];

function wrongTypeValue(random: Random): unknown {
  return random.pick([null, true, false, [], {}, "1", 1, [[]], { a: 1 }, [null], "true"]);
}

function hostileValue(random: Random): unknown {
  const roll = random.int(10);
  if (roll < 5) return random.pick(HOSTILE_STRINGS);
  if (roll < 8) return random.pick(HOSTILE_NUMBERS);
  return wrongTypeValue(random);
}

// --- Values from JSON Schemas (OpenAPI 3.1 schemas are JSON Schema) ---

type Schema = { [key: string]: unknown };
const isObject = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function resolve(schema: unknown, components: Schema): Schema {
  if (!isObject(schema)) return {};
  const ref = schema.$ref;
  if (typeof ref === "string") return resolve(components[ref.split("/").pop() ?? ""], components);
  return schema;
}

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  return typeof schema.type === "string" ? [schema.type] : [];
}

/** A string the schema may accept: its example, its enum, its format, else text of its length. */
function stringFor(schema: Schema, random: Random, boundary: boolean): string {
  // Never a real public name (example.com is one): a CI runner has the internet, a check of a
  // name would reach it. Reserved names fail at once; nothing listens on 127.0.0.1:9.
  const examples = [schema.example, ...(Array.isArray(schema.examples) ? schema.examples : [])].filter(
    (value) => typeof value === "string" && !/\.(com|net|org|io|dev)\b/.test(value),
  ) as string[];
  if (examples.length > 0 && random.chance(0.7)) return random.pick(examples);
  switch (schema.format) {
    case "uuid":
      return random.uuid();
    case "email":
      return `fuzz-${random.int(1e6)}@example.com`;
    case "uri":
      // Nothing listens on the discard port: a live check of it fails at once, without a wait.
      return random.pick(["http://127.0.0.1:9/", "http://127.0.0.1:9/mcp", "127.0.0.1:9"]);
    case "date-time":
      return new Date(1_700_000_000_000 + random.int(1e10)).toISOString();
  }
  const pattern = typeof schema.pattern === "string" ? schema.pattern : "";
  if (pattern.includes("[0-9a-f]{64}")) return Array.from({ length: 64 }, () => random.int(16).toString(16)).join("");
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Math.max(min, 40);
  if (boundary) {
    const length = random.pick([min, max, max + 1, Math.max(0, min - 1)]);
    return random
      .pick(["a", "é", "🧪", "\u202e"])
      .repeat(length)
      .slice(0, Math.max(length, 0) * 2);
  }
  const words = ["weather", "example", "shop", "demo", "api", "agent", "mcp"];
  const text = `${random.pick(words)}.${random.pick(["example", "test", "invalid"])}`;
  return text.length >= min ? text.slice(0, max) : text.padEnd(min, "a");
}

function numberFor(schema: Schema, random: Random, boundary: boolean, integer: boolean): number {
  const min = typeof schema.minimum === "number" ? schema.minimum : integer ? 0 : -1000;
  const max = typeof schema.maximum === "number" ? schema.maximum : min + 1000;
  if (boundary) return random.pick([min, max, min - 1, max + 1, integer ? max + 0.5 : max * 2]);
  const value = min + random.next() * (max - min);
  return integer ? Math.floor(value) : value;
}

/** A value the schema describes (valid, or on its boundaries when `boundary`). */
export function valueFor(input: unknown, components: Schema, random: Random, boundary = false, depth = 0): unknown {
  const schema = resolve(input, components);
  if (depth > 6) return null;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return random.pick(schema.enum);
  for (const key of ["oneOf", "anyOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      return valueFor(random.pick(options), components, random, boundary, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((part) => valueFor(part, components, random, boundary, depth + 1)));
  }
  const types = typesOf(schema).filter((type) => type !== "null");
  const type = types.length > 0 ? random.pick(types) : isObject(schema.properties) ? "object" : "string";
  switch (type) {
    case "string":
      return stringFor(schema, random, boundary);
    case "integer":
      return numberFor(schema, random, boundary, true);
    case "number":
      return numberFor(schema, random, boundary, false);
    case "boolean":
      return random.chance(0.5);
    case "array": {
      const min = typeof schema.minItems === "number" ? schema.minItems : 0;
      const count = min + random.int(3);
      return Array.from({ length: count }, () => valueFor(schema.items, components, random, boundary, depth + 1));
    }
    case "object": {
      const properties = isObject(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        if (required.has(name) || random.chance(0.5)) {
          value[name] = valueFor(property, components, random, boundary, depth + 1);
        }
      }
      return value;
    }
    default:
      return null;
  }
}

// --- Whole bodies: a value from the schema, then (mostly) one hostile turn ---

function deepNesting(random: Random): string {
  const depth = random.pick([64, 1000, 20_000]);
  return random.chance(0.5)
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** The body text of a request to an operation whose JSON body `schema` describes. */
export function bodyFor(schema: unknown, components: Schema, random: Random): { text: string; label: string } {
  const valid = valueFor(schema, components, random, random.chance(0.2));
  const roll = random.int(20);
  if (roll < 4 || !isObject(valid)) return { text: JSON.stringify(valid), label: "schema value" };
  const fields = Object.keys(valid);
  const field = fields.length > 0 ? random.pick(fields) : "field";
  switch (roll) {
    case 4:
    case 5:
    case 6:
    case 7:
      return { text: JSON.stringify({ ...valid, [field]: hostileValue(random) }), label: `hostile ${field}` };
    case 8: {
      const nested = isObject(valid[field]) ? (valid[field] as Schema) : {};
      const inner = Object.keys(nested);
      const name = inner.length > 0 ? random.pick(inner) : "x";
      return {
        text: JSON.stringify({ ...valid, [field]: { ...nested, [name]: hostileValue(random) } }),
        label: `hostile ${field}.${name}`,
      };
    }
    case 9: {
      const count = random.pick([1, 30, 5000]);
      const extra = Object.fromEntries(Array.from({ length: count }, (_, index) => [`unknown_${index}`, "v"]));
      return { text: JSON.stringify({ ...valid, ...extra }), label: `${count} unknown keys` };
    }
    case 10: {
      const { [field]: _removed, ...rest } = valid;
      return { text: JSON.stringify(rest), label: `without ${field}` };
    }
    case 11:
      return { text: JSON.stringify(wrongTypeValue(random)), label: "wrong type of body" };
    case 12: {
      const text = JSON.stringify(valid);
      const duplicate = `${JSON.stringify(field)}:${JSON.stringify(hostileValue(random))}`;
      return {
        text: text === "{}" ? `{${duplicate},${duplicate}}` : `{${duplicate},${text.slice(1)}`,
        label: `duplicate ${field}`,
      };
    }
    case 13:
      return { text: deepNesting(random), label: "deep nesting" };
    case 14:
      return {
        text: JSON.stringify({ ...valid, [field]: "__RAW__" }).replace('"__RAW__"', random.pick(RAW_NUMBER_TEXTS)),
        label: `raw number in ${field}`,
      };
    case 15: {
      const text = JSON.stringify(valid);
      return { text: text.slice(0, random.int(text.length)), label: "truncated JSON" };
    }
    case 16:
      return { text: random.pick(["", " ", "null", "\ufeff{}", "{}{}", "[]", '"x"', "{,}"]), label: "odd JSON text" };
    case 17:
      return {
        text: JSON.stringify({ ...valid, [field]: "x".repeat(random.pick([3000, 60_000, 70_000])) }),
        label: `overlong ${field}`,
      };
    default:
      return {
        text: JSON.stringify({ ...valid, [field]: valueFor(schema, components, random, true) }),
        label: "boundary",
      };
  }
}

// --- Text in URLs ---

/** Percent-encodes text byte by byte, lone surrogates included (as the bytes UTF-8 would give them). */
function percentEncode(text: string): string {
  let out = "";
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const next = text.charCodeAt(index + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(index, index + 2));
      index++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join("");
    } else {
      out += encodeURIComponent(text[index] ?? "");
    }
  }
  return out;
}

const RAW_URL_TEXTS = ["%", "%zz", "%ED%A0%80", "%C0%80", "%00", "%FF%FE", "..%2F..%2F", "%2e%2e", "a%20b", "+"];

function parameterText(schema: unknown, components: Schema, random: Random): string {
  const roll = random.int(10);
  if (roll < 5) {
    const value = valueFor(schema, components, random, roll === 0);
    return percentEncode(typeof value === "string" ? value : (JSON.stringify(value) ?? ""));
  }
  if (roll < 8) {
    const value = hostileValue(random);
    return percentEncode(typeof value === "string" ? value : JSON.stringify(value));
  }
  return random.pick(RAW_URL_TEXTS);
}

// --- Headers ---

/** Odd but sendable header fields (ByteStrings: no NUL, CR or LF). */
function oddHeaders(random: Random): Record<string, string> {
  const choices: [string, string][] = [
    ["Accept", "*/*;q=99999"],
    ["Accept", "text/html"],
    ["Accept", "application/xml"],
    ["Accept-Encoding", "zstd, br, gzip;q=0"],
    ["Accept-Language", "\u00ff\u00fe"],
    ["X-Forwarded-For", "not-an-address, 10.0.0.1"],
    ["X-Forwarded-Host", "evil.example"],
    ["Origin", "null"],
    ["Origin", "https://attacker.example"],
    ["Sec-Fetch-Site", "cross-site"],
    ["Cookie", `${SESSION_COOKIE}=${"x".repeat(300)}; ${SESSION_COOKIE}=again`],
    [PROVIDER_KEY_HEADER, "svcpk_not-a-key"],
    ["Authorization", "Bearer \u00e9\u00e9"],
    ["Idempotency-Key", "\u00ff".repeat(10)],
    ["Idempotency-Key", "k".repeat(300)],
    ["X-SVC-Synthetic", random.pick(["1", "true", "maybe", ""])],
    ["X-SVC-Priority-Key", "svcpri_junk"],
    ["If-None-Match", "*"],
    ["Range", "bytes=0-1"],
    ["X-Padding", "p".repeat(random.pick([100, 10_000]))],
    ["MCP-Protocol-Version", random.pick(["1999-01-01", "2025-06-18", "\u00e9"])],
    ["Mcp-Session-Id", "not-a-session"],
  ];
  const headers: Record<string, string> = {};
  const count = random.int(3);
  for (let index = 0; index < count; index++) {
    const [name, value] = random.pick(choices);
    headers[name] = value;
  }
  return headers;
}

const CONTENT_TYPES = [
  "application/json",
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=fuzz",
  "application/merge-patch+json",
  "",
];

// --- Requests ---

interface Operation {
  method: string;
  path: string;
  parameters: Schema[];
  bodySchema?: unknown;
  security: string[];
  allowedServerErrors: number[];
  /** A path item with servers of its own (the ARD registry's) is a full path from the site root. */
  root: boolean;
}

/** The operations of the OpenAPI document, with what the fuzzer needs of each. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue;
      const content = isObject(operation.requestBody) ? operation.requestBody.content : undefined;
      const json = isObject(content) ? content["application/json"] : undefined;
      const security = Array.isArray(operation.security) ? (operation.security as Schema[]) : [];
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: (Array.isArray(operation.parameters) ? operation.parameters : []).filter(isObject),
        bodySchema: isObject(json) ? json.schema : undefined,
        security: security.flatMap((entry) => Object.keys(entry)),
        allowedServerErrors: Object.keys(operation.responses)
          .map(Number)
          .filter((status) => status === 501 || status === 503),
        root: Array.isArray(item.servers),
      });
    }
  }
  return operations;
}

// Operations that would end the fuzzer's own credentials for every later request.
const CREDENTIAL_ENDING = /\/(revoke|keys\/rotate)$|^\/auth\/session$/;

function apiRequest(
  operation: Operation,
  components: Schema,
  random: Random,
  credentials: FuzzCredentials,
): FuzzRequest {
  const headers: Record<string, string> = { "CF-Connecting-IP": random.clientIp(), ...oddHeaders(random) };
  const labels: string[] = [];
  let path = operation.path;
  for (const parameter of operation.parameters.filter((entry) => entry.in === "path")) {
    const known = credentials.knownIds ?? [];
    const text =
      known.length > 0 && random.chance(0.3) ? random.pick(known) : parameterText(parameter.schema, components, random);
    path = path.replace(`{${String(parameter.name)}}`, text === "" ? "%20" : text);
  }
  const query: string[] = [];
  for (const parameter of operation.parameters.filter((entry) => entry.in === "query")) {
    if (parameter.required !== true && random.chance(0.4)) continue;
    const times = random.chance(0.1) ? 2 : 1;
    for (let index = 0; index < times; index++) {
      query.push(`${String(parameter.name)}=${parameterText(parameter.schema, components, random)}`);
    }
  }
  if (random.chance(0.1))
    query.push(`${random.pick(["unknown", "q[]", "%00", "__proto__"])}=${random.pick(RAW_URL_TEXTS)}`);
  for (const parameter of operation.parameters.filter((entry) => entry.in === "header")) {
    if (random.chance(0.5))
      headers[String(parameter.name)] = random.pick([`fuzz-${random.int(1e9)}`, "", "\u00e9", "x".repeat(250)]);
  }
  const mutation = !CREDENTIAL_ENDING.test(operation.path) && random.chance(0.6);
  if (mutation && operation.security.includes("humanSession") && credentials.sessionToken) {
    headers.Cookie = `${SESSION_COOKIE}=${credentials.sessionToken}`;
    headers["Sec-Fetch-Site"] = "same-origin";
    headers.Origin = credentials.ownOrigin;
    labels.push("with session");
  }
  if (mutation && operation.security.includes("providerKey") && credentials.providerKey) {
    headers[PROVIDER_KEY_HEADER] = credentials.providerKey;
    labels.push("with provider key");
  }
  let body: string | undefined;
  if (operation.bodySchema !== undefined) {
    const made = bodyFor(operation.bodySchema, components, random);
    body = made.text;
    labels.push(made.label);
    const contentType = random.pick(CONTENT_TYPES);
    if (contentType) headers["Content-Type"] = contentType;
  } else if (random.chance(0.05)) {
    body = "{}";
    headers["Content-Type"] = "application/json";
    labels.push("unexpected body");
  }
  const target = `${operation.root ? "" : API_PREFIX}${path}${query.length > 0 ? `?${query.join("&")}` : ""}`;
  return {
    label: `${operation.method} ${operation.path}: ${labels.join(", ") || "parameters"}`,
    kind: "api",
    method: operation.method,
    path: target,
    headers,
    ...(body !== undefined && operation.method !== "GET" ? { body } : {}),
    allowedServerErrors: operation.allowedServerErrors,
  };
}

// --- MCP ---

const MCP_HEADERS = { Accept: "application/json, text/event-stream", "Content-Type": "application/json" };

/**
 * A JSON-RPC message, either as a value or (for tool arguments) already as text: the arguments'
 * text goes into the envelope as written, so duplicate keys, raw number text and 20,000 levels of
 * nesting reach the server intact (a parse and re-encode here would drop the first two and
 * overflow Node's stack on the last).
 */
type McpMessage = { message: unknown; label: string } | { text: string; label: string };

function mcpMessage(random: Random): McpMessage {
  const id = random.pick<unknown>([1, "req-1", 0, -1, 2 ** 53, random.int(1e6)]);
  const tool = random.pick(MCP_TOOLS);
  const roll = random.int(12);
  if (roll < 6) {
    const made = bodyFor(tool.inputSchema(), {}, random);
    let args = made.text;
    try {
      JSON.parse(made.text);
    } catch {
      args = JSON.stringify(made.text);
    }
    const envelope = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool.name } });
    return {
      text: `${envelope.slice(0, -2)},"arguments":${args}}}`,
      label: `tools/call ${tool.name}: ${made.label}`,
    };
  }
  switch (roll) {
    case 6:
      return {
        message: {
          jsonrpc: "2.0",
          id,
          method: "initialize",
          params: random.pick<unknown>([
            { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
            { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: null },
            { protocolVersion: 20250618, capabilities: [], clientInfo: { name: 1 } },
            { protocolVersion: "\ud800", capabilities: {}, clientInfo: { name: "\u0000", version: "🧪" } },
            null,
            "params",
          ]),
        },
        label: "initialize",
      };
    case 7:
      return {
        message: { jsonrpc: "2.0", id, method: "tools/list", params: { cursor: hostileValue(random) } },
        label: "tools/list with a cursor",
      };
    case 8:
      return {
        message: {
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: random.pick<unknown>([
            { name: tool.name, arguments: hostileValue(random) },
            { name: hostileValue(random) },
            { name: "no_such_tool", arguments: {} },
            { arguments: {} },
            [],
          ]),
        },
        label: "tools/call with odd params",
      };
    case 9:
      return {
        message: {
          jsonrpc: random.pick(["2.0", "1.0", 2]),
          id: wrongTypeValue(random),
          method: random.pick(["ping", "nope", "rpc.x", ""]),
        },
        label: "odd envelope",
      };
    case 10:
      return { message: { jsonrpc: "2.0", method: "notifications/initialized" }, label: "notification" };
    default:
      return {
        message: [
          { jsonrpc: "2.0", id: 1, method: "ping" },
          { jsonrpc: "2.0", id: 2, method: "tools/list" },
        ],
        label: "batch",
      };
  }
}

function mcpRequest(random: Random): FuzzRequest {
  const headers: Record<string, string> = { "CF-Connecting-IP": random.clientIp(), ...MCP_HEADERS };
  if (random.chance(0.8)) headers["MCP-Protocol-Version"] = "2025-06-18";
  Object.assign(headers, random.chance(0.2) ? oddHeaders(random) : {});
  const made = mcpMessage(random);
  let body = "message" in made ? JSON.stringify(made.message) : made.text;
  let label = made.label;
  const roll = random.int(20);
  if (roll === 0) {
    body = body.slice(0, random.int(body.length));
    label += " (truncated)";
  } else if (roll === 1) {
    body = deepNesting(random);
    label = "deep nesting";
  } else if (roll === 2) {
    headers["Content-Type"] = random.pick(CONTENT_TYPES.filter((type) => !type.startsWith("application/json")));
    label += " (odd content type)";
  }
  const method = random.chance(0.03) ? random.pick(["GET", "DELETE", "PUT"]) : "POST";
  return {
    label: `${method} /mcp ${label}`,
    kind: "mcp",
    method,
    path: MCP_PATH,
    headers,
    ...(method === "GET" ? {} : { body }),
    allowedServerErrors: [],
  };
}

/** `count` requests from `seed`, about one in six to /mcp; the same seed, the same requests. */
export function* fuzzRequests(
  document: OpenApiDocument,
  seed: number,
  count: number,
  credentials: FuzzCredentials,
): Generator<FuzzRequest> {
  const random = new Random(seed);
  const operations = operationsOf(document);
  const components = (document.components?.schemas ?? {}) as Schema;
  for (let index = 0; index < count; index++) {
    // Every operation in turn, so a short run still covers them all.
    if (index % 6 === 5) yield mcpRequest(random);
    else yield apiRequest(operations[index % operations.length] as Operation, components, random, credentials);
  }
}

// --- Judging answers ---

/** An API error, or an MCP answer carrying a JSON-RPC error or a tool error. */
function isErrorAnswer(request: FuzzRequest, answer: FuzzAnswer): boolean {
  if (answer.status >= 400) return true;
  return request.kind === "mcp" && /"error":\{|"isError":true/.test(answer.text);
}

/** What is wrong with an answer, or null when it keeps every rule. */
export function judge(request: FuzzRequest, answer: FuzzAnswer): string | null {
  const bytes = new TextEncoder().encode(answer.text).length;
  const bound = isErrorAnswer(request, answer) ? MAX_ERROR_BYTES : MAX_ANSWER_BYTES;
  if (bytes > bound) return `an answer of ${bytes} bytes (over ${bound})`;
  if (answer.status >= 500 && !request.allowedServerErrors.includes(answer.status)) {
    return `status ${answer.status}: ${answer.text.slice(0, 300)}`;
  }
  const contentType = answer.headers.get("content-type") ?? "";
  if (request.kind === "api") {
    if (answer.status < 400) return null;
    if (contentType !== "application/problem+json")
      return `status ${answer.status} as ${contentType || "no content type"}`;
    let problem: { code?: unknown; request_id?: unknown; status?: unknown };
    try {
      problem = JSON.parse(answer.text);
    } catch {
      return `status ${answer.status} with a problem body that is not JSON`;
    }
    if (typeof problem.code !== "string") return "a problem without a code";
    if (problem.status !== answer.status)
      return `a problem whose status ${String(problem.status)} is not ${answer.status}`;
    const requestId = answer.headers.get("x-request-id");
    if (!requestId || problem.request_id !== requestId) return "a problem without its request id";
    return null;
  }
  // MCP: 202 for notifications (no body); otherwise a JSON-RPC answer (or errors) in JSON.
  if (answer.text === "")
    return answer.status < 300 || answer.status === 405 ? null : `status ${answer.status} without a body`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    return `status ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`;
  }
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (!isObject(message)) return "a JSON-RPC answer that is not an object";
    if (isObject(message.error)) {
      const code = message.error.code;
      if (typeof code !== "number" || !MCP_ERROR_CODES.has(code)) {
        return `JSON-RPC error ${String(code)}: ${String(message.error.message).slice(0, 300)}`;
      }
      if (/"code":\s*"invalid_|expected .*, received/.test(String(message.error.message))) {
        return `JSON-RPC error text from the schema library: ${String(message.error.message).slice(0, 300)}`;
      }
    }
    const result = message.result;
    if (isObject(result) && result.isError === true && Array.isArray(result.content)) {
      const text = isObject(result.content[0]) ? String(result.content[0].text) : "";
      if (text.includes('"INTERNAL_ERROR"')) return `a tool error INTERNAL_ERROR: ${text.slice(0, 300)}`;
    }
  }
  return null;
}

/** A request as text to reproduce it by hand (the body cut at 400 characters). */
export function describeRequest(request: FuzzRequest): string {
  const body =
    request.body === undefined
      ? ""
      : `\n  body (${request.body.length} chars): ${JSON.stringify(request.body.slice(0, 400))}`;
  return `${request.label}\n  ${request.method} ${request.path.slice(0, 400)}\n  headers: ${JSON.stringify(request.headers).slice(0, 400)}${body}`;
}

export interface FuzzRun {
  seed: number;
  sent: number;
  failures: { request: FuzzRequest; problem: string }[];
  statuses: Record<number, number>;
  /** Requests that threw before any answer (a network failure to a running server). */
  unanswered: number;
  milliseconds: number;
}

/** Sends every request of the seed, `concurrency` at a time, and judges each answer. */
export async function runFuzz(options: {
  document: OpenApiDocument;
  seed: number;
  count: number;
  credentials: FuzzCredentials;
  concurrency?: number;
  /**
   * Stop starting requests after this many ms (the seed's sequence is the same, only cut short):
   * keeps a CI run bounded on a slow or busy machine. Unbounded unless given.
   */
  budgetMs?: number;
  send: (request: FuzzRequest) => Promise<FuzzAnswer>;
}): Promise<FuzzRun> {
  const started = Date.now();
  const deadline = started + (options.budgetMs ?? Number.POSITIVE_INFINITY);
  const run: FuzzRun = { seed: options.seed, sent: 0, failures: [], statuses: {}, unanswered: 0, milliseconds: 0 };
  const requests = fuzzRequests(options.document, options.seed, options.count, options.credentials);
  const worker = async () => {
    for (let next = requests.next(); !next.done && Date.now() < deadline; next = requests.next()) {
      const request = next.value;
      run.sent++;
      let answer: FuzzAnswer;
      try {
        answer = await options.send(request);
      } catch (error) {
        run.unanswered++;
        run.failures.push({ request, problem: `no answer: ${String(error)}` });
        continue;
      }
      run.statuses[answer.status] = (run.statuses[answer.status] ?? 0) + 1;
      const problem = judge(request, answer);
      if (problem) run.failures.push({ request, problem });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  run.milliseconds = Date.now() - started;
  return run;
}

/** The report of a run: the seed to replay it, and the first failures with their requests. */
export function reportFuzz(run: FuzzRun, shown = 10): string {
  const lines = [
    `fuzz seed ${run.seed}: ${run.sent} requests in ${run.milliseconds} ms, ${run.failures.length} failures`,
    `statuses: ${JSON.stringify(run.statuses)}`,
  ];
  for (const failure of run.failures.slice(0, shown)) {
    lines.push(`- ${failure.problem}\n  ${describeRequest(failure.request)}`);
  }
  if (run.failures.length > shown) lines.push(`… and ${run.failures.length - shown} more`);
  return lines.join("\n");
}
