/**
 * The MCP server signal: a live Streamable HTTP handshake with the site's MCP endpoint. The
 * endpoint is the one a discovery document names (/.well-known/mcp.json,
 * /.well-known/mcp/server-card.json or /.well-known/mcp/server-card, fetched at once; the first
 * that names one wins), else the conventional `<origin>/mcp`.
 *
 * Status:
 * - present: the handshake is compliant, or initialize was refused with a 401 carrying a
 *   `WWW-Authenticate: Bearer` challenge. The MCP authorization spec has an OAuth-protected
 *   server answer exactly that to a client without a token, so such an endpoint is a real MCP
 *   server an agent can use once authorized.
 * - blocked: any other refusal (402, 403, 429, a 401 without a Bearer challenge, a bot
 *   challenge), or a discovery document refused the crawler while the handshake proved nothing.
 * - error: the endpoint could not be reached or answered 5xx, or a discovery document could not
 *   be fetched, and nothing above decided.
 * - absent: otherwise: no endpoint, not MCP, or only the legacy HTTP+SSE transport, which is not
 *   the Streamable HTTP transport agents use today.
 */
import {
  combineStatus,
  describeUnusable,
  displayUrl,
  isHtmlAnswer,
  isRecord,
  type ProbeVerdict,
  parseJson,
  resolveHttpUrl,
  siteUrl,
  toSentence,
} from "./blocking.ts";
import { type McpProbeResult, probeMcpEndpoint } from "./mcp-probe.ts";
import { fetchRecord, type ProbeContext, type ProbeResponse, type SignalFinding } from "./types.ts";

/** The discovery documents read, in order of trust: the first that names an endpoint wins. */
export const MCP_DISCOVERY_PATHS = [
  "/.well-known/mcp.json",
  "/.well-known/mcp/server-card.json",
  "/.well-known/mcp/server-card",
] as const;

/** Where an MCP server is looked for when no discovery document names one. */
export const DEFAULT_MCP_PATH = "/mcp";

/** Keys whose string value is the endpoint URL, in the order they are trusted. */
const URL_KEYS = [
  "url",
  "endpoint",
  "mcp_url",
  "mcpUrl",
  "mcp_endpoint",
  "mcpEndpoint",
  "server_url",
  "serverUrl",
] as const;

/** Keys holding objects that describe one endpoint. */
const NESTED_KEYS = ["endpoint", "transport", "mcp"] as const;

/** Keys holding lists of endpoints or servers. */
const LIST_KEYS = ["remotes", "endpoints", "servers", "transports"] as const;

const STREAMABLE_TYPES = new Set(["streamable-http", "streamable_http", "streamablehttp", "http"]);
const LEGACY_TYPES = new Set(["sse", "http+sse"]);
const STDIO_TYPES = new Set(["stdio"]);

interface Candidate {
  url: string;
  /** 0 for a Streamable HTTP entry, 1 for an untyped one, 2 for a legacy SSE one. */
  rank: number;
}

/** The transport type an entry states, lower-case, or null. */
function readTransportType(entry: Record<string, unknown>): string | null {
  for (const key of ["type", "transport", "transportType", "transport_type"]) {
    const value = entry[key];
    if (typeof value === "string") return value.toLowerCase();
    if (isRecord(value) && typeof value.type === "string") return value.type.toLowerCase();
  }
  return null;
}

function collectCandidates(entry: Record<string, unknown>, base: string, depth: number, into: Candidate[]): void {
  const type = readTransportType(entry);
  if (type && STDIO_TYPES.has(type)) return;
  const rank = type && STREAMABLE_TYPES.has(type) ? 0 : type && LEGACY_TYPES.has(type) ? 2 : 1;
  for (const key of URL_KEYS) {
    const value = entry[key];
    // A URL template ("https://{tenant}.example.com/mcp") names no endpoint until filled in.
    if (typeof value !== "string" || /[{}]/.test(value)) continue;
    const url = resolveHttpUrl(value, base);
    if (url) into.push({ url, rank });
  }
  if (depth >= 3) return;
  for (const key of NESTED_KEYS) {
    const value = entry[key];
    if (isRecord(value)) collectCandidates({ ...value, type: readTransportType(value) ?? type }, base, depth + 1, into);
  }
  for (const key of LIST_KEYS) {
    const value = entry[key];
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      if (isRecord(item)) collectCandidates(item, base, depth + 1, into);
    }
  }
}

/**
 * The MCP endpoint a discovery document names, resolved against the document's URL, or null.
 * Accepted shapes, at the top level or nested up to three levels:
 * - a URL under `url`, `endpoint`, `mcp_url`, `mcpUrl`, `mcp_endpoint`, `mcpEndpoint`,
 *   `server_url` or `serverUrl`;
 * - an object under `endpoint`, `transport` or `mcp` holding one of those keys
 *   (`{"transport": {"type": "streamable-http", "url": …}}`);
 * - lists under `remotes` (the MCP registry and server-card shape, `[{type, url}]`), `endpoints`,
 *   `servers` or `transports`, whose items hold any of the above.
 * A Streamable HTTP entry (`type` or `transport` "streamable-http" or "http") is preferred to an
 * untyped one, and that to a legacy "sse" one; stdio entries and URL templates are skipped.
 * Relative URLs are allowed; only http and https are taken.
 */
export function findDiscoveredEndpoint(document: unknown, documentUrl: string): string | null {
  if (!isRecord(document)) return null;
  const candidates: Candidate[] = [];
  collectCandidates(document, documentUrl, 0, candidates);
  if (candidates.length === 0) return null;
  const best = Math.min(...candidates.map((candidate) => candidate.rank));
  return candidates.find((candidate) => candidate.rank === best)!.url;
}

interface DiscoveryReading {
  response: ProbeResponse;
  verdict: ProbeVerdict;
  endpoint: string | null;
}

function readDiscovery(response: ProbeResponse, origin: string): DiscoveryReading {
  const unusable = describeUnusable(response, origin);
  if (unusable || !response.ok) return { response, verdict: unusable!, endpoint: null };
  const answer = response;
  const where = displayUrl(answer.url, origin);
  if (isHtmlAnswer(answer)) {
    return { response, verdict: { status: "absent", reason: `${where} is an HTML page` }, endpoint: null };
  }
  const document = parseJson(answer.body);
  if (document === undefined) {
    return { response, verdict: { status: "absent", reason: `${where} is not JSON` }, endpoint: null };
  }
  const endpoint = findDiscoveredEndpoint(document, answer.finalUrl || answer.url);
  const reason = endpoint ? `${where} names ${displayUrl(endpoint, origin)}` : `${where} names no MCP endpoint`;
  return { response, verdict: { status: "absent", reason }, endpoint };
}

/** The signal status a probe result alone gives (see the module comment). */
function statusOfProbe(probe: McpProbeResult): ProbeVerdict["status"] {
  switch (probe.outcome) {
    case "compliant":
      return "present";
    case "gated":
      return probe.gate?.status === 401 && probe.gate.bearer ? "present" : "blocked";
    case "unreachable":
      return "error";
    case "not_mcp":
      return (probe.fetched[0]?.status ?? 0) >= 500 ? "error" : "absent";
    case "wrong_transport":
      return "absent";
  }
}

/** Detects an MCP server (see the module comment). */
export async function detectMcpServer(context: ProbeContext): Promise<SignalFinding> {
  const { origin, fetch } = context;
  const probeOptions = { diagnoseNotFound: false };
  // Most sites name no endpoint: the conventional one is probed while the documents are read,
  // rather than after, and used unless a document names another.
  const defaultEndpoint = siteUrl(origin, DEFAULT_MCP_PATH);
  const [defaultProbe, discoveryResponses] = await Promise.all([
    probeMcpEndpoint(fetch, defaultEndpoint, probeOptions),
    Promise.all(MCP_DISCOVERY_PATHS.map((path) => fetch(siteUrl(origin, path)))),
  ]);
  const discoveries = discoveryResponses.map((response) => readDiscovery(response, origin));
  const discovery = discoveries.find((reading) => reading.endpoint !== null) ?? null;
  const endpoint = discovery?.endpoint ?? defaultEndpoint;
  const probe = endpoint === defaultEndpoint ? defaultProbe : await probeMcpEndpoint(fetch, endpoint, probeOptions);

  const probeStatus = statusOfProbe(probe);
  const shownEndpoint = displayUrl(endpoint, origin);
  const foundVia = discovery
    ? `${displayUrl(discovery.response.url, origin)} names the MCP endpoint ${shownEndpoint}`
    : `No discovery document names an MCP endpoint, so ${shownEndpoint} was tried`;
  const troubles = discoveries.filter(
    (reading) => reading.verdict.status === "blocked" || reading.verdict.status === "error",
  );
  const status = combineStatus([probeStatus, ...troubles.map((reading) => reading.verdict.status)]);

  let reason: string;
  if (status === probeStatus) {
    const legacy =
      probe.outcome === "wrong_transport" ? " A server without the Streamable HTTP transport does not count." : "";
    reason = `${toSentence(foundVia)} ${probe.note}${legacy}`;
  } else {
    const deciding = troubles.find((reading) => reading.verdict.status === status)!;
    reason = `${toSentence(deciding.verdict.reason)} ${probe.note}`;
  }

  return {
    status,
    reason,
    fetched: [...discoveryResponses.map(fetchRecord), ...probe.fetched],
    details: {
      endpoint,
      outcome: probe.outcome,
      protocol_version: probe.protocolVersion ?? null,
      server_name: probe.serverName ?? null,
      tool_count: probe.toolCount ?? null,
      discovery_url: discovery ? discovery.response.finalUrl || discovery.response.url : null,
    },
  };
}
