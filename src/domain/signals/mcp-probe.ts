/**
 * A live check that a URL is an MCP server on the Streamable HTTP transport, the way a dual-era
 * client finds out (the MCP specification of 2026-07-28, "Protocol Version Negotiation" and
 * "Backward Compatibility"):
 *
 * 1. The 2026-07-28 (stateless) era first: POST `server/discover` with the per-request `_meta`
 *    envelope (protocol version, client capabilities, client info) and the `MCP-Protocol-Version`
 *    and `Mcp-Method` request headers. A result naming 2026-07-28 among `supportedVersions` is
 *    definitive modern evidence: `tools/list` follows, in the same envelope.
 * 2. Otherwise the 2025 era, as every 2025 client connects: POST `initialize`, POST
 *    `notifications/initialized`, POST `tools/list`, then DELETE the session if one was issued.
 *
 * What settles the probe without the fallback: no answer at all (silence over HTTP is an
 * outage, not a legacy signal), a refusal (the gate is the same in both eras), and a POST the URL
 * does not take (404, 405, 410, 415, 501 without a JSON-RPC body: no handler of either era is
 * there; a modern server that does not know a method says so in a JSON-RPC body). Anything else
 * the modern request got (a 400 of a 2025 server, a JSON-RPC error, an HTML page) is what a dual-era
 * client falls back on. Replies may be plain JSON or a Server-Sent Events stream; an SSE stream is
 * read only until it carries the awaited JSON-RPC response, because servers may keep it open
 * afterwards. Runtime-agnostic (workerd and Node).
 *
 * Outcomes:
 * - compliant: server/discover named 2026-07-28 and tools/list returned a `tools` array in that
 *   era, or initialize returned a result with protocolVersion and serverInfo.name and tools/list
 *   returned a `tools` array (the only verified outcome; `era` says which).
 * - gated: the endpoint refused the probe: 401, 402, 403 or 429, or a bot-challenge page. A 401
 *   may carry the MCP authorization spec's `WWW-Authenticate: Bearer resource_metadata=…`
 *   challenge; `gate` says which status and whether a Bearer challenge was offered.
 * - wrong_transport: a 404, 405 or 415 to the POST while a GET of the same URL, or of
 *   `<origin>/sse`, opens an event stream (the legacy HTTP+SSE transport of 2024-11-05); a 406
 *   to the Accept header this transport requires; or an SSE reply with no JSON-RPC response.
 * - not_mcp: anything else that answered (an HTML page, JSON that is not a JSON-RPC response of
 *   the right id, a JSON-RPC error, a result lacking the required fields, another status).
 *   `httpStatus` carries the status the finding rests on: a 5xx other than 501 is undecided
 *   for whoever reads the result (the signal is `error`, not absent).
 * - unreachable: the fetcher gave no answer (timeout, network, refused, too_large,
 *   too_many_redirects, deadline).
 *
 * Notes are plain sentences of at most 300 characters; text taken from the target (a server
 * name, an error message) is stripped of markup and cut to 80 characters.
 */
import { describeBlock, isHtmlAnswer, isRecord, parseJson } from "./blocking.ts";
import { type FetchRecord, fetchRecord, type ProbeAnswer, type ProbeFailure, type SiteFetcher } from "./types.ts";

/** The 2025-era protocol revisions this probe knows, newest first; initialize offers the first. */
export const MCP_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** The stateless revision server/discover asks for first. */
export const MCP_MODERN_PROTOCOL_VERSION = "2026-07-28";

/** The reserved `_meta` keys of the 2026-07-28 request envelope and of its results. */
export const MCP_META_KEYS = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

/** The JSON-RPC error of the 2026-07-28 revision for a protocol version the server does not serve. */
export const UNSUPPORTED_PROTOCOL_VERSION_CODE = -32022;

/**
 * Which era of the protocol answered: `2026-07-28` for the stateless revision (server/discover),
 * `2025` for the initialize handshake (revisions 2024-11-05 to 2025-11-25).
 */
export type McpEra = "2026-07-28" | "2025";

/** How the probe identifies itself in initialize. */
export const MCP_PROBE_CLIENT_INFO = { name: "agent-readiness-verifier", version: "1.0.0" } as const;

/** What a probe found (see the module comment). */
export type McpProbeOutcome = "compliant" | "gated" | "wrong_transport" | "not_mcp" | "unreachable";

/** What a gated endpoint's refusal carried. */
export interface McpGate {
  /** The HTTP status of the refusal. */
  status: number;
  /** True when a `WWW-Authenticate: Bearer` challenge was offered. */
  bearer: boolean;
  /** The challenge's resource_metadata URL, when given. */
  resourceMetadata: string | null;
}

/** The result of one live probe of an MCP endpoint. */
export interface McpProbeResult {
  /** True only for a compliant handshake. */
  verified: boolean;
  /** The URL probed. */
  endpoint: string;
  outcome: McpProbeOutcome;
  /** One or two plain sentences saying what was found. */
  note: string;
  /** The era that answered, once server/discover or initialize succeeded. */
  era?: McpEra;
  /** The protocol version spoken: the one initialize negotiated, or 2026-07-28. */
  protocolVersion?: string;
  /** serverInfo.name, once initialize succeeded (cut to 80 characters). */
  serverName?: string;
  /** How many tools tools/list returned (first page only). */
  toolCount?: number;
  /**
   * What tools/list said of its tools (first page, at most MCP_TOOLS_KEPT): each name, and its
   * title and description when given, as the server wrote them (site-capabilities.ts cleans them).
   */
  tools?: McpToolSummary[];
  /** Set when gated. */
  gate?: McpGate;
  /** The HTTP status the finding rests on, when an answer decided it. */
  httpStatus?: number;
  /** Every exchange made, in order. */
  fetched: FetchRecord[];
}

/** One tool as tools/list described it. */
export interface McpToolSummary {
  name: string;
  title?: string;
  description?: string;
}

/** At most this many tools of a tools/list are kept (a server may list hundreds). */
export const MCP_TOOLS_KEPT = 64;
/** A tool's title or description is kept to this many characters. */
const TOOL_TEXT_KEPT = 1000;

/** The tools of a tools/list result, as far as each is an object with a name. */
export function readToolsList(tools: readonly unknown[]): McpToolSummary[] {
  const kept: McpToolSummary[] = [];
  for (const tool of tools) {
    if (kept.length >= MCP_TOOLS_KEPT) break;
    if (!isRecord(tool) || typeof tool.name !== "string" || !tool.name.trim()) continue;
    const annotations = isRecord(tool.annotations) ? tool.annotations : null;
    // 2025-06-18 moved the display name to `title`; earlier servers put it in annotations.title.
    const title = typeof tool.title === "string" ? tool.title : annotations?.title;
    kept.push({
      name: tool.name.slice(0, TOOL_TEXT_KEPT),
      ...(typeof title === "string" && title.trim() ? { title: title.slice(0, TOOL_TEXT_KEPT) } : {}),
      ...(typeof tool.description === "string" && tool.description.trim()
        ? { description: tool.description.slice(0, TOOL_TEXT_KEPT) }
        : {}),
    });
  }
  return kept;
}

const NOTE_LIMIT = 300;
const ECHO_LIMIT = 80;
const JSON_RPC_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const LEGACY_SSE_SCAN_CHARS = 8192;

/** An event of a Server-Sent Events stream. */
export interface SseEvent {
  /** The event type; "message" when the event named none. */
  event: string;
  data: string;
}

/**
 * The complete events of an SSE text: those ended by a blank line. A trailing event still being
 * received is left out, and so is one that ended the stream without its blank line (as the SSE
 * standard says), so a caller never acts on a half-received message.
 */
export function parseSseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  let event = "";
  let data: string[] = [];
  // The last piece has no line ending yet, so it is not a line.
  for (const line of lines.slice(0, -1)) {
    if (line === "") {
      if (data.length > 0) events.push({ event: event || "message", data: data.join("\n") });
      event = "";
      data = [];
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const raw = colon < 0 ? "" : line.slice(colon + 1);
    const value = raw.startsWith(" ") ? raw.slice(1) : raw;
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  return events;
}

/**
 * The JSON-RPC 2.0 response with `id` in one message or a batch, or null. An error of id null
 * counts too: JSON-RPC uses it when the request could not be read, which answers it all the same.
 */
function findRpcResponse(message: unknown, id: number): Record<string, unknown> | null {
  const candidates = Array.isArray(message) ? message : [message];
  for (const candidate of candidates) {
    if (!isRecord(candidate) || candidate.jsonrpc !== "2.0" || "method" in candidate) continue;
    if (candidate.id === id && ("result" in candidate || "error" in candidate)) return candidate;
    if (candidate.id === null && "error" in candidate) return candidate;
  }
  return null;
}

/** The JSON-RPC response with `id` among an SSE text's complete `message` events, or null. */
function findRpcResponseInSse(text: string, id: number): Record<string, unknown> | null {
  for (const event of parseSseEvents(text)) {
    if (event.event !== "message") continue;
    const response = findRpcResponse(parseJson(event.data), id);
    if (response) return response;
  }
  return null;
}

/** Stops reading an SSE reply once it carried the response awaited; a JSON body is read whole. */
function untilRpcResponse(id: number): (textSoFar: string) => boolean {
  return (textSoFar) => textSoFar.includes("data:") && findRpcResponseInSse(textSoFar, id) !== null;
}

type ReplyFormat = "JSON" | "SSE";

type ReplyReading =
  | { kind: "response"; message: Record<string, unknown>; format: ReplyFormat }
  | { kind: "sse_without_response"; endpointEvent: boolean }
  | { kind: "unusable"; what: string };

/** What an answer to a JSON-RPC request carried: the response of that id, or what it was instead. */
function readReply(answer: ProbeAnswer, id: number): ReplyReading {
  if (answer.contentType === "text/event-stream") {
    const message = findRpcResponseInSse(answer.body, id);
    if (message) return { kind: "response", message, format: "SSE" };
    const endpointEvent = parseSseEvents(answer.body).some((event) => event.event === "endpoint");
    return { kind: "sse_without_response", endpointEvent };
  }
  if (answer.body.trim() === "") return { kind: "unusable", what: "an empty body" };
  if (isHtmlAnswer(answer)) return { kind: "unusable", what: "an HTML page" };
  const parsed = parseJson(answer.body);
  if (parsed === undefined)
    return { kind: "unusable", what: `a ${answer.contentType ?? "untyped"} body that is not JSON` };
  const message = findRpcResponse(parsed, id);
  if (message) return { kind: "response", message, format: "JSON" };
  return { kind: "unusable", what: `JSON that is not a JSON-RPC 2.0 response of id ${id}` };
}

/** Text from the target made safe to quote: no markup or control characters, at most 80 characters unless told. */
function quoteTarget(value: unknown, limit = ECHO_LIMIT): string {
  const text = String(value)
    .replace(/<[^>]*>?/g, " ")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f<>]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

function clampNote(note: string): string {
  return note.length > NOTE_LIMIT ? `${note.slice(0, NOTE_LIMIT - 1)}…` : note;
}

/** "code: message" of a JSON-RPC error object, safe to quote. */
function describeRpcError(error: unknown): string {
  if (!isRecord(error)) return "an error that is not an object";
  const code = typeof error.code === "number" ? String(error.code) : "without a code";
  const message = typeof error.message === "string" ? quoteTarget(error.message) : "";
  return message ? `${code} (${message})` : code;
}

/** The fetcher's own plain explanation; it may name the target's host, so it is made safe to quote. */
function describeFailure(failure: ProbeFailure): string {
  return quoteTarget(failure.message, NOTE_LIMIT);
}

const GATE_NAMES: Readonly<Record<number, string>> = {
  401: "401 Unauthorized",
  402: "402 Payment Required",
  403: "403 Forbidden",
  429: "429 Too Many Requests",
};

/** A framework's form protection refuses every unknown POST; it says nothing about MCP. */
function isCsrfRefusal(answer: ProbeAnswer): boolean {
  return answer.status === 403 && /\bcsrf\b/i.test(answer.body.slice(0, 4096));
}

/** The refusal an answer carries, with how to name it ("401 Unauthorized"), or null when it is not one. */
function readGate(answer: ProbeAnswer): { gate: McpGate; label: string } | null {
  if (isCsrfRefusal(answer)) return null;
  const named = GATE_NAMES[answer.status];
  const block = describeBlock(answer);
  if (!named && !block) return null;
  const challenge = answer.headers.get("www-authenticate") ?? "";
  const bearer = /(?:^|,)\s*bearer(?:\s|,|$)/i.test(challenge);
  const metadata = /\bresource_metadata\s*=\s*(?:"([^"]*)"|([^\s,]+))/i.exec(challenge);
  const resourceMetadata = bearer && metadata ? (metadata[1] ?? metadata[2] ?? null) : null;
  return { gate: { status: answer.status, bearer, resourceMetadata }, label: block ?? named! };
}

function describeGate({ gate, label }: { gate: McpGate; label: string }, step: string): string {
  const refused = `The endpoint refused ${step} with ${label}`;
  if (gate.status !== 401) return `${refused}.`;
  if (!gate.bearer) return `${refused} and offered no Bearer challenge.`;
  return gate.resourceMetadata
    ? `${refused} and a Bearer challenge with resource_metadata: an OAuth-protected MCP server per the MCP authorization spec.`
    : `${refused} and a Bearer challenge without resource_metadata.`;
}

/** A URL as shown in a note: its path when on the same origin as the endpoint. */
function showUrl(url: string, endpoint: string): string {
  const origin = new URL(endpoint).origin;
  return url.startsWith(`${origin}/`) ? url.slice(origin.length) : url;
}

function isAbsoluteUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

type Send = (url: string, request: Parameters<SiteFetcher>[1]) => ReturnType<SiteFetcher>;

/** The URL whose GET opens an event stream (the legacy HTTP+SSE transport), with whether it sent `endpoint`. */
async function findLegacySse(send: Send, endpoint: string): Promise<{ url: string; endpointEvent: boolean } | null> {
  const candidates = [...new Set([endpoint, `${new URL(endpoint).origin}/sse`])];
  for (const url of candidates) {
    const answer = await send(url, {
      headers: { accept: "text/event-stream" },
      // A legacy stream never ends; its first event (the endpoint) is all that is needed.
      readUntil: (text) => /(?:\r\n|\r|\n){2}/.test(text) || text.length >= LEGACY_SSE_SCAN_CHARS,
    });
    if (answer.ok && answer.status === 200 && answer.contentType === "text/event-stream") {
      return { url, endpointEvent: parseSseEvents(answer.body).some((event) => event.event === "endpoint") };
    }
  }
  return null;
}

function rpcRequest(id: number, method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

export interface McpProbeOptions {
  /**
   * On a 404 to initialize, look for a legacy SSE stream too (two more requests). /verify-mcp
   * wants that diagnosis; a crawl does not (the signal is absent either way, and most sites 404).
   */
  diagnoseNotFound?: boolean;
}

/** What the probe concluded, before it becomes a result: the outcome, its note and the facts learned. */
interface Finding {
  outcome: McpProbeOutcome;
  note: string;
  extra?: Partial<Omit<McpProbeResult, "verified" | "endpoint" | "outcome" | "note" | "fetched">>;
}

/** What a successful initialize established: the revision, the server's name and the reply's format. */
interface Handshake {
  protocolVersion: string;
  serverName: string;
  format: ReplyFormat;
}

/** What the session after initialize found: the tools/list verdict and any remark on the notification. */
interface SessionOutcome {
  verdict: ToolsListVerdict;
  remark: string;
}

/** Probes one MCP endpoint (see the module comment). Never throws. */
export async function probeMcpEndpoint(
  fetch: SiteFetcher,
  endpoint: string,
  { diagnoseNotFound = true }: McpProbeOptions = {},
): Promise<McpProbeResult> {
  const fetched: FetchRecord[] = [];
  const send: Send = async (url, request) => {
    const response = await fetch(url, request);
    fetched.push(fetchRecord(response));
    return response;
  };
  const finish = ({ outcome, note, extra = {} }: Finding): McpProbeResult => ({
    verified: outcome === "compliant",
    endpoint,
    outcome,
    note: clampNote(note),
    ...extra,
    fetched,
  });

  if (!isAbsoluteUrl(endpoint)) return finish({ outcome: "not_mcp", note: "The endpoint is not a valid URL." });
  const modern = await probeModernEra(send, endpoint, diagnoseNotFound);
  if ("outcome" in modern) return finish(modern);
  const initialize = await sendInitialize(send, endpoint);
  if (!initialize.ok) {
    return finish({
      outcome: "unreachable",
      note: `The endpoint could not be reached: ${describeFailure(initialize)}.`,
    });
  }
  const refused = await judgeInitializeStatus(send, endpoint, initialize, diagnoseNotFound);
  if (refused) return finish(withFallbackRemark(refused, modern.clause));
  const handshake = readHandshake(initialize);
  if ("outcome" in handshake) return finish(withFallbackRemark(handshake, modern.clause));
  // The session and everything after initialize go to where initialize was answered.
  const target = initialize.finalUrl || endpoint;
  const session = await listToolsInSession(send, target, initialize, handshake.protocolVersion);
  return finish(describeSession(handshake, session, modern.clause));
}

/** A finding of the 2025 leg, saying what the 2026-07-28 request got first (it did not settle). */
function withFallbackRemark(finding: Finding, clause: string): Finding {
  return { ...finding, note: `${finding.note} (First, ${clause}.)` };
}

/** The headers and body of a 2026-07-28 request: the `_meta` envelope and the standard headers. */
function modernRequest(id: number, method: string): Parameters<SiteFetcher>[1] {
  return {
    method: "POST",
    headers: {
      ...JSON_RPC_HEADERS,
      "mcp-protocol-version": MCP_MODERN_PROTOCOL_VERSION,
      "mcp-method": method,
    },
    body: rpcRequest(id, method, {
      _meta: {
        [MCP_META_KEYS.protocolVersion]: MCP_MODERN_PROTOCOL_VERSION,
        [MCP_META_KEYS.clientCapabilities]: {},
        [MCP_META_KEYS.clientInfo]: MCP_PROBE_CLIENT_INFO,
      },
    }),
    readUntil: untilRpcResponse(id),
  };
}

/** Statuses that say the URL takes no POST at all, whatever the era, when no JSON-RPC body comes with them. */
const REFUSED_POST_STATUSES = new Set([404, 405, 410, 415, 501]);

/**
 * The 2026-07-28 leg: the finding when it settles the probe (see the module comment), else the
 * clause saying what server/discover got, for the 2025 leg's note.
 */
async function probeModernEra(
  send: Send,
  endpoint: string,
  diagnoseNotFound: boolean,
): Promise<Finding | { clause: string }> {
  const discover = await send(endpoint, modernRequest(1, "server/discover"));
  if (!discover.ok) {
    return { outcome: "unreachable", note: `The endpoint could not be reached: ${describeFailure(discover)}.` };
  }
  const gate = readGate(discover);
  if (gate) return { outcome: "gated", note: describeGate(gate, "server/discover"), extra: { gate: gate.gate } };
  const reply = readReply(discover, 1);
  if (reply.kind !== "response" && REFUSED_POST_STATUSES.has(discover.status)) {
    return judgeRefusedPost(send, endpoint, discover.status, diagnoseNotFound);
  }
  if (reply.kind !== "response") {
    const what = reply.kind === "unusable" ? reply.what : "an SSE stream without a JSON-RPC response";
    return { clause: `server/discover was answered ${discover.status} with ${what}` };
  }
  if ("error" in reply.message) {
    return {
      clause: `server/discover got ${discover.status} with JSON-RPC error ${describeRpcError(reply.message.error)}`,
    };
  }
  const facts = readDiscoverResult(reply.message.result);
  if ("clause" in facts) return facts;
  const target = discover.finalUrl || endpoint;
  const list = await send(target, modernRequest(2, "tools/list"));
  return describeModernExchange(facts.serverName, reply.format, judgeToolsList(list));
}

/**
 * The finding for a POST the URL refuses by status (404, 405, 410, 415, 501): no server of either
 * era is there, or only the legacy HTTP+SSE transport (looked for on 405 and 415, and on 404 when
 * the caller wants that diagnosis).
 */
function judgeRefusedPost(
  send: Send,
  endpoint: string,
  status: number,
  diagnoseNotFound: boolean,
): Promise<Finding> | Finding {
  if (status === 405 || status === 415 || (status === 404 && diagnoseNotFound)) {
    return diagnoseRefusedPost(send, endpoint, status);
  }
  return {
    outcome: "not_mcp",
    note: `The endpoint answered ${status} to a POST (server/discover): no MCP server of either era there.`,
    extra: { httpStatus: status },
  };
}

/** The server's name a server/discover result carries, or the clause saying why it is not modern evidence. */
function readDiscoverResult(result: unknown): { serverName: string } | { clause: string } {
  const versions = isRecord(result) && Array.isArray(result.supportedVersions) ? result.supportedVersions : null;
  if (!versions) return { clause: "the server/discover result has no supportedVersions" };
  if (!versions.includes(MCP_MODERN_PROTOCOL_VERSION)) {
    const listed = versions.filter((v) => typeof v === "string").map((v) => quoteTarget(v, 12));
    return {
      clause: `server/discover lists ${listed.length > 0 ? listed.slice(0, 4).join(", ") : "no version"}, not ${MCP_MODERN_PROTOCOL_VERSION}`,
    };
  }
  const meta = isRecord(result) && isRecord(result._meta) ? result._meta : null;
  const info =
    meta && isRecord(meta[MCP_META_KEYS.serverInfo])
      ? (meta[MCP_META_KEYS.serverInfo] as Record<string, unknown>)
      : null;
  // Early drafts put serverInfo beside the capabilities; the revision moved it into _meta.
  const fallbackInfo = isRecord(result) && isRecord(result.serverInfo) ? result.serverInfo : null;
  const name = info?.name ?? fallbackInfo?.name;
  return { serverName: typeof name === "string" ? quoteTarget(name) : "" };
}

/** The finding once server/discover named 2026-07-28: compliant with the tool count, or what tools/list got. */
function describeModernExchange(serverName: string, format: ReplyFormat, verdict: ToolsListVerdict): Finding {
  const named = serverName ? ` (server "${serverName}")` : "";
  const facts = { era: "2026-07-28" as const, protocolVersion: MCP_MODERN_PROTOCOL_VERSION, serverName };
  if ("outcome" in verdict) {
    return {
      outcome: verdict.outcome,
      note: `server/discover succeeded in the 2026-07-28 era${named}, but ${verdict.clause}.`,
      extra: {
        ...facts,
        ...(verdict.gate ? { gate: verdict.gate } : {}),
        ...(verdict.httpStatus ? { httpStatus: verdict.httpStatus } : {}),
      },
    };
  }
  const tools = verdict.toolCount === 1 ? "1 tool" : `${verdict.toolCount} tools`;
  return {
    outcome: "compliant",
    note: `MCP exchange completed over Streamable HTTP in the 2026-07-28 era (server/discover, tools/list): ${serverName ? `server "${serverName}", ` : ""}${tools}, ${describeFormats(format, verdict.format)}.`,
    extra: { ...facts, toolCount: verdict.toolCount, tools: verdict.tools },
  };
}

function describeFormats(first: ReplyFormat, second: ReplyFormat): string {
  const formats = new Set<ReplyFormat>([first, second]);
  return formats.size > 1 ? "replies in JSON and SSE" : formats.has("SSE") ? "replies as SSE" : "replies in JSON";
}

/** Sends initialize, offering the newest revision, and reads its reply until the response arrives. */
function sendInitialize(send: Send, endpoint: string): ReturnType<SiteFetcher> {
  return send(endpoint, {
    method: "POST",
    headers: JSON_RPC_HEADERS,
    body: rpcRequest(1, "initialize", {
      protocolVersion: MCP_PROTOCOL_VERSIONS[0],
      capabilities: {},
      clientInfo: MCP_PROBE_CLIENT_INFO,
    }),
    readUntil: untilRpcResponse(1),
  });
}

/**
 * The finding when initialize's status alone settles the probe (a refusal, 406, or a 404/405/415
 * with or without a legacy stream), or null when its body must be read.
 */
async function judgeInitializeStatus(
  send: Send,
  endpoint: string,
  initialize: ProbeAnswer,
  diagnoseNotFound: boolean,
): Promise<Finding | null> {
  const gate = readGate(initialize);
  if (gate) return { outcome: "gated", note: describeGate(gate, "initialize"), extra: { gate: gate.gate } };
  if (initialize.status === 406) {
    return {
      outcome: "wrong_transport",
      note: "The endpoint answered 406 to a POST accepting application/json and text/event-stream, which every Streamable HTTP server must take.",
    };
  }
  if (initialize.status === 404 && !diagnoseNotFound) {
    return {
      outcome: "not_mcp",
      note: "The endpoint answered 404 to an initialize POST: no MCP server there.",
      extra: { httpStatus: 404 },
    };
  }
  if (initialize.status === 404 || initialize.status === 405 || initialize.status === 415) {
    return diagnoseRefusedPost(send, endpoint, initialize.status);
  }
  return null;
}

/** Whether a POST refused by status is a legacy HTTP+SSE server (wrong_transport) or no server at all. */
async function diagnoseRefusedPost(send: Send, endpoint: string, status: number): Promise<Finding> {
  const legacy = await findLegacySse(send, endpoint);
  if (!legacy) {
    return {
      outcome: "not_mcp",
      note: `The endpoint answered ${status} to a POST, and no legacy SSE stream was found either.`,
      extra: { httpStatus: status },
    };
  }
  const stream = legacy.endpointEvent ? "an SSE stream with an endpoint event" : "an SSE stream";
  return {
    outcome: "wrong_transport",
    note: `The endpoint answered ${status} to a POST, but GET ${showUrl(legacy.url, endpoint)} opens ${stream}: the legacy HTTP+SSE transport (2024-11-05), not Streamable HTTP.`,
  };
}

/** The handshake initialize's reply established, or the finding that says why it established none. */
function readHandshake(initialize: ProbeAnswer): Handshake | Finding {
  const reply = readReply(initialize, 1);
  const ok = initialize.status >= 200 && initialize.status < 300;
  if (reply.kind === "sse_without_response" && ok) {
    const extra = reply.endpointEvent ? " but an endpoint event, as the legacy HTTP+SSE transport sends" : "";
    return {
      outcome: "wrong_transport",
      note: `The endpoint answered initialize with an SSE stream that carried no JSON-RPC response${extra}.`,
    };
  }
  if (reply.kind !== "response") {
    const what = reply.kind === "unusable" ? reply.what : "an SSE stream";
    return {
      outcome: "not_mcp",
      note: `The endpoint answered ${initialize.status} with ${what}, not a reply to initialize.`,
      extra: { httpStatus: initialize.status },
    };
  }
  if ("error" in reply.message) {
    return {
      outcome: "not_mcp",
      note: `The endpoint answered initialize (${initialize.status}) with JSON-RPC error ${describeRpcError(reply.message.error)}.`,
      extra: { httpStatus: initialize.status },
    };
  }
  if (!ok) {
    return {
      outcome: "not_mcp",
      note: `The endpoint answered ${initialize.status} to initialize.`,
      extra: { httpStatus: initialize.status },
    };
  }
  const facts = readServerFacts(reply.message.result);
  return "outcome" in facts ? facts : { ...facts, format: reply.format };
}

/** The revision and server name an initialize result must carry, or the finding naming what it lacks. */
function readServerFacts(result: unknown): Omit<Handshake, "format"> | Finding {
  const protocolVersion =
    isRecord(result) && typeof result.protocolVersion === "string" ? result.protocolVersion : null;
  const serverInfo = isRecord(result) && isRecord(result.serverInfo) ? result.serverInfo : null;
  const rawName = serverInfo && typeof serverInfo.name === "string" ? serverInfo.name : null;
  if (!protocolVersion || rawName === null) {
    const missing = [protocolVersion ? null : "protocolVersion", rawName === null ? "serverInfo.name" : null]
      .filter(Boolean)
      .join(" and ");
    return { outcome: "not_mcp", note: `The endpoint's initialize result lacks ${missing}.` };
  }
  // Revisions are dates; anything else could not even be sent back as a header.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(protocolVersion)) {
    return {
      outcome: "not_mcp",
      note: `The endpoint's initialize result has protocolVersion "${quoteTarget(protocolVersion)}", not a revision date.`,
    };
  }
  return { protocolVersion, serverName: quoteTarget(rawName) };
}

/**
 * Sends notifications/initialized then tools/list in the session initialize opened, and frees the
 * session afterwards; returns the tools/list verdict and a remark when the notification went wrong.
 */
async function listToolsInSession(
  send: Send,
  target: string,
  initialize: ProbeAnswer,
  protocolVersion: string,
): Promise<SessionOutcome> {
  const sessionId = initialize.headers.get("mcp-session-id");
  const sessionHeaders: Record<string, string> = {
    "mcp-protocol-version": protocolVersion,
    ...(sessionId ? { "mcp-session-id": sessionId } : {}),
  };
  const initialized = await send(target, {
    method: "POST",
    headers: { ...JSON_RPC_HEADERS, ...sessionHeaders },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    // A notification's reply has nothing to read; an open stream must not hold the probe.
    readUntil: () => true,
  });
  const list = await send(target, {
    method: "POST",
    headers: { ...JSON_RPC_HEADERS, ...sessionHeaders },
    body: rpcRequest(2, "tools/list", {}),
    readUntil: untilRpcResponse(2),
  });
  const verdict = judgeToolsList(list);
  if (sessionId) {
    // Politeness: free the session the probe opened. Whatever the server says is fine.
    await send(target, { method: "DELETE", headers: sessionHeaders });
  }
  return { verdict, remark: remarkOnInitialized(initialized) };
}

/** A sentence to append when the initialized notification failed or got an unexpected status, else "". */
function remarkOnInitialized(initialized: Awaited<ReturnType<SiteFetcher>>): string {
  if (!initialized.ok) return ` The initialized notification failed: ${initialized.failure}.`;
  if (![200, 202, 204].includes(initialized.status)) {
    return ` The initialized notification got ${initialized.status}, not 202.`;
  }
  return "";
}

/**
 * The finding after a successful initialize: compliant with the tool count, or what tools/list got
 * instead (what server/discover got first is left out of a success: the era says it).
 */
function describeSession(handshake: Handshake, { verdict, remark }: SessionOutcome, _fallback: string): Finding {
  const { protocolVersion, serverName } = handshake;
  const facts = { era: "2025" as const, protocolVersion, serverName };
  if ("outcome" in verdict) {
    return {
      outcome: verdict.outcome,
      note: `Initialize succeeded in the 2025 era (server "${serverName}"), but ${verdict.clause}.${remark}`,
      extra: {
        ...facts,
        ...(verdict.gate ? { gate: verdict.gate } : {}),
        ...(verdict.httpStatus ? { httpStatus: verdict.httpStatus } : {}),
      },
    };
  }
  const tools = verdict.toolCount === 1 ? "1 tool" : `${verdict.toolCount} tools`;
  return {
    outcome: "compliant",
    note: `MCP handshake completed over Streamable HTTP in the 2025 era (initialize, after server/discover was not taken): protocol ${protocolVersion}, server "${serverName}", ${tools}, ${describeFormats(handshake.format, verdict.format)}.${remark}`,
    extra: { ...facts, toolCount: verdict.toolCount, tools: verdict.tools },
  };
}

type ToolsListVerdict =
  | { toolCount: number; tools: McpToolSummary[]; format: ReplyFormat }
  | { outcome: Exclude<McpProbeOutcome, "compliant">; clause: string; gate?: McpGate; httpStatus?: number };

function judgeToolsList(list: Awaited<ReturnType<SiteFetcher>>): ToolsListVerdict {
  if (!list.ok) return { outcome: "unreachable", clause: `tools/list could not be fetched: ${describeFailure(list)}` };
  const refusal = readGate(list);
  if (refusal) return { outcome: "gated", clause: `tools/list was refused with ${refusal.label}`, gate: refusal.gate };
  const reply = readReply(list, 2);
  if (reply.kind === "sse_without_response") {
    return { outcome: "wrong_transport", clause: "tools/list was answered by an SSE stream with no JSON-RPC response" };
  }
  if (reply.kind === "unusable") {
    return {
      outcome: "not_mcp",
      clause: `tools/list was answered ${list.status} with ${reply.what}`,
      httpStatus: list.status,
    };
  }
  if ("error" in reply.message) {
    return {
      outcome: "not_mcp",
      clause: `tools/list returned JSON-RPC error ${describeRpcError(reply.message.error)}`,
      httpStatus: list.status,
    };
  }
  const result = reply.message.result;
  if (!isRecord(result) || !Array.isArray(result.tools)) {
    return { outcome: "not_mcp", clause: "the tools/list result has no tools array" };
  }
  return { toolCount: result.tools.length, tools: readToolsList(result.tools), format: reply.format };
}
