/**
 * The MCP server signal: a live Streamable HTTP exchange with the site's MCP endpoint, in either
 * era of the protocol (mcp-probe.ts: server/discover first, then initialize). Cards and
 * catalogs are leads, never proof; the endpoints they name are tried in order of trust:
 *
 * 1. the AI Catalogs: the one the home page names with the `ai-catalog` link relation, then the
 *    one at /.well-known/ai-catalog.json, each with the nested catalogs it names (crawl-state.ts):
 *    their server-card entries, by `url` (fetched) or inline in `data`, and entries typed as an MCP
 *    endpoint (see catalogLeads); a card that is only a JSON Reference stands for its target;
 * 2. the well-known discovery documents (/.well-known/mcp.json, /.well-known/mcp/server-card.json,
 *    /.well-known/mcp/server-card, /.well-known/mcp-server-card: SEP-1649 and SEP-2127 cards,
 *    registry server.json documents and flat shapes, fetched at once);
 * 3. endpoints an MCP Registry entry names for the site (a seed import's leads, `mcpLeads`);
 * 4. the conventional `<origin>/mcp`, probed while the documents are read and always tried.
 *
 * At most 3 named endpoints are probed, one after another, stopping at the first that answers as a
 * server. A document that is the site's catch-all answer (see catch-all.ts) names nothing. Beside an
 * endpoint that answered, `<endpoint>/server-card` (SEP-2127) is read for the crawl's findings.
 * Every card read is kept in the crawl's state (crawl-state.ts) with its route.
 *
 * Status:
 * - present: the exchange is compliant in either era, or it was refused with a 401 carrying a
 *   `WWW-Authenticate: Bearer` challenge. The MCP authorization spec has an OAuth-protected
 *   server answer exactly that to a client without a token, so such an endpoint is a real MCP
 *   server an agent can use once authorized.
 * - blocked: any other refusal (402, 403, 429, a 401 without a Bearer challenge, a bot
 *   challenge), or a discovery document refused the crawler while the handshake proved nothing.
 * - error: the endpoint could not be reached or answered a 5xx other than 501, or a discovery
 *   document could not be fetched, and nothing above decided. A 404, 405 or 501 to the POST is an
 *   answer (no server there), not undecided.
 * - absent: otherwise: no endpoint, not MCP, or only the legacy HTTP+SSE transport, which is not
 *   the Streamable HTTP transport agents use today.
 */

import { type AiCatalog, type AiCatalogEntry, describeEntries } from "./ai-catalog.ts";
import {
  combineStatus,
  describeUnusable,
  displayUrl,
  isHtmlAnswer,
  isRecord,
  isUndecidedStatus,
  type ProbeVerdict,
  parseJson,
  resolveHttpUrl,
  siteUrl,
  toSentence,
} from "./blocking.ts";
import { checkCatchAll } from "./catch-all.ts";
import { type AiCatalogFinding, type CrawlState, crawlStateOf } from "./crawl-state.ts";
import { type McpProbeResult, probeMcpEndpoint } from "./mcp-probe.ts";
import { type FetchRecord, fetchRecord, type ProbeContext, type ProbeResponse, type SignalFinding } from "./types.ts";

/** The discovery documents read, in order of trust: the first that names an endpoint wins. */
export const MCP_DISCOVERY_PATHS = [
  "/.well-known/mcp.json",
  "/.well-known/mcp/server-card.json",
  "/.well-known/mcp/server-card",
  "/.well-known/mcp-server-card",
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

/**
 * A server card's URL template filled in from its remote's `variables` map (the MCP server-card
 * extension's schema: "Variables in {curly_braces} are substituted from the Remote.variables map
 * before the client connects"), each variable by its preset `value`, else its `default`. Null when
 * a variable has neither (a client would have to ask its user) or braces are left over.
 */
export function fillTemplate(template: string, variables: unknown): string | null {
  if (!isRecord(variables)) return null;
  let missing = false;
  const filled = template.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (_all, name: string) => {
    const variable = variables[name];
    const value = isRecord(variable)
      ? typeof variable.value === "string"
        ? variable.value
        : typeof variable.default === "string"
          ? variable.default
          : null
      : null;
    if (value === null || /[{}/?#@\s]/.test(value)) {
      missing = true;
      return "";
    }
    return value;
  });
  return missing || /[{}]/.test(filled) ? null : filled;
}

function collectCandidates(entry: Record<string, unknown>, base: string, depth: number, into: Candidate[]): void {
  const type = readTransportType(entry);
  if (type && STDIO_TYPES.has(type)) return;
  const rank = type && STREAMABLE_TYPES.has(type) ? 0 : type && LEGACY_TYPES.has(type) ? 2 : 1;
  for (const key of URL_KEYS) {
    const raw = entry[key];
    if (typeof raw !== "string") continue;
    // A URL template ("https://{tenant}.example.com/mcp") names an endpoint only once filled in:
    // from the remote's `variables`, each with a preset `value` or a `default` (SEP-2127's Remote).
    const value = /[{}]/.test(raw) ? fillTemplate(raw, entry.variables) : raw;
    if (value === null) continue;
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

/** An endpoint to try, and the discovery route that named it, in words. */
interface Lead {
  endpoint: string;
  /** "the AI Catalog /.well-known/ai-catalog.json names the server card /x/server-card, which names". */
  route: string;
  /** The AI Catalog the lead came from, when it came from one. */
  catalogUrl?: string;
}

/** One well-known discovery document's reading. */
interface DiscoveryReading {
  response: ProbeResponse;
  verdict: ProbeVerdict;
  endpoint: string | null;
  card: Record<string, unknown> | null;
  /** The control request asked about it, when one was. */
  control: ProbeResponse | null;
  /**
   * When the document was only a JSON Reference (`{"$ref": "…"}`) that was followed: the answer
   * at its target, and " refers by $ref to /x, which" for the route.
   */
  referred: { response: ProbeResponse; clause: string } | null;
}

/** At most this many MCP entries of an AI Catalog are followed. */
const MAX_CATALOG_ENTRIES = 4;

/** At most this many named endpoints are probed (the conventional /mcp besides). */
const MAX_PROBED_LEADS = 3;

/** Reads a server card or discovery document; a catch-all page (see catch-all.ts) is none. */
async function readDiscovery(
  context: ProbeContext & { controls: CrawlState["controls"] },
  response: ProbeResponse,
  followReference = true,
): Promise<DiscoveryReading> {
  const { origin } = context;
  const unusable = describeUnusable(response, origin);
  if (unusable || !response.ok) {
    return { response, verdict: unusable!, endpoint: null, card: null, control: null, referred: null };
  }
  const answer = response;
  const where = displayUrl(answer.url, origin);
  const none = (reason: string, control: ProbeResponse | null = null): DiscoveryReading => ({
    response,
    verdict: { status: "absent", reason },
    endpoint: null,
    card: null,
    control,
    referred: null,
  });
  if (answer.status !== 200) return none(`${where} answered ${answer.status}`);
  if (isHtmlAnswer(answer)) return none(`${where} is an HTML page`);
  const document = parseJson(answer.body);
  if (document === undefined) return none(`${where} is not JSON`);
  if (!isRecord(document)) return none(`${where} is not a JSON object`);
  const control = await checkCatchAll(context, answer);
  if (control.catchAll) return none(`${where} is ${control.clause}`, control.control);
  const endpoint = findDiscoveredEndpoint(document, answer.finalUrl || answer.url);
  const target = endpoint ? null : referenceOf(document, answer.finalUrl || answer.url, origin);
  if (target && followReference) {
    // A document that is only a JSON Reference stands for the document it refers to: one hop, on
    // the site's own origin, through the crawl's fetcher (memoised: a target that is one of the
    // probed paths costs nothing more).
    const referred = await readDiscovery(context, await context.fetch(target), false);
    const clause = ` refers by $ref to ${displayUrl(target, origin)}, which`;
    const reason = referred.endpoint
      ? `${where}${clause} names ${displayUrl(referred.endpoint, origin)}`
      : `${where}${clause} ${referred.verdict.reason.replace(/^\S+ /, "")}`;
    return {
      response,
      verdict: referred.verdict.status === "absent" ? { status: "absent", reason } : referred.verdict,
      endpoint: referred.endpoint,
      card: referred.card,
      control: referred.control ?? control.control,
      referred: { response: referred.response, clause },
    };
  }
  const reason = endpoint
    ? `${where} names ${displayUrl(endpoint, origin)}`
    : target
      ? `${where} only refers by $ref to ${displayUrl(target, origin)}`
      : `${where} names no MCP endpoint`;
  return {
    response,
    verdict: { status: "absent", reason },
    endpoint,
    card: document,
    control: control.control,
    referred: null,
  };
}

/**
 * The target of a document that is only a JSON Reference (`{"$ref": "card.json"}`, besides at most
 * `$schema` and `$comment`), resolved against the document's URL as RFC 3986 resolves a relative
 * reference, when it lies on the site's origin; else null. The server-card schema has no `$ref`
 * member (its objects take no other members), so such a document is not a card: it is read as
 * the JSON Reference it is (draft-pbryan-zyp-json-ref), which stands for the document referred to.
 */
export function referenceOf(document: Record<string, unknown>, documentUrl: string, origin: string): string | null {
  const ref = document.$ref;
  if (typeof ref !== "string") return null;
  if (Object.keys(document).some((key) => !["$ref", "$schema", "$comment"].includes(key))) return null;
  const target = resolveHttpUrl(ref.replace(/#.*$/, ""), documentUrl);
  if (!target || new URL(target).origin !== origin || target === documentUrl) return null;
  return target;
}

/** Where a reading's card was fetched: the target of a JSON Reference that was followed, else the document. */
function cardUrlOf(reading: DiscoveryReading): string {
  const response = reading.referred?.response ?? reading.response;
  return response.finalUrl || response.url;
}

function schemaOf(card: Record<string, unknown>): string | null {
  return typeof card.$schema === "string" ? card.$schema : null;
}

/**
 * The endpoints an AI Catalog leads to, in the catalog's order: a server card carried inline or
 * named by `url` (fetched and read), or an entry typed as an MCP endpoint. An entry typed as a
 * server card whose URL holds no card naming an endpoint is itself tried as the endpoint (real
 * catalogs name the endpoint so), or, when it ends in `/server-card`, the endpoint it is the
 * card of (SEP-2127 serves a card at `<endpoint>/server-card`).
 */
async function catalogLeads(
  context: ProbeContext & { controls: CrawlState["controls"] },
  state: CrawlState,
  catalog: AiCatalogFinding,
): Promise<{ leads: Lead[]; fetched: ProbeResponse[]; readings: DiscoveryReading[] }> {
  const read = catalog.catalog;
  if (!read) return { leads: [], fetched: [], readings: [] };
  const from = chainOf(catalog, read, context.origin);
  const entries = read.reachable
    .filter((entry) => entry.kind === "mcp-server-card" || entry.kind === "mcp-endpoint")
    .slice(0, MAX_CATALOG_ENTRIES);
  const cardUrls = entries.filter((entry) => entry.kind === "mcp-server-card" && entry.url && !isRecord(entry.data));
  const responses = await Promise.all(cardUrls.map((entry) => context.fetch(entry.url!)));
  const readings = await Promise.all(responses.map((response) => readDiscovery(context, response)));
  const leads: Lead[] = [];
  for (const entry of entries) {
    const lead = isRecord(entry.data)
      ? inlineCardLead(context.origin, state, read, entry, entry.data, from)
      : !entry.url
        ? null
        : entry.kind === "mcp-endpoint"
          ? {
              endpoint: entry.url,
              route: `${from(entry)} names the MCP endpoint ${displayUrl(entry.url, context.origin)}`,
            }
          : fetchedCardLead(context.origin, state, read, entry, entry.url, readings[cardUrls.indexOf(entry)]!, from);
    if (lead) leads.push(lead);
  }
  return { leads: leads.map((lead) => ({ ...lead, catalogUrl: read.url })), fetched: responses, readings };
}

/**
 * How an entry was reached, in words: "the AI Catalog /a names the nested catalog /b, which";
 * a catalog the home page links to says so first.
 */
function chainOf(catalog: AiCatalogFinding, read: AiCatalog, origin: string): (entry: AiCatalogEntry) => string {
  const at = displayUrl(read.url, origin);
  const opening =
    catalog.source === "well-known"
      ? `the AI Catalog ${at}`
      : `the home page's ${catalog.source} names the AI Catalog ${at}, which`;
  return (entry) =>
    opening +
    entry.via
      .map(
        (url) => ` names ${url ? `the nested catalog ${displayUrl(url, origin)}` : "a nested catalog inline"}, which`,
      )
      .join("");
}

/** A server card carried inline by the catalog: recorded, and its endpoint (if any) a lead. */
function inlineCardLead(
  origin: string,
  state: CrawlState,
  read: AiCatalog,
  entry: AiCatalogEntry,
  card: Record<string, unknown>,
  from: (entry: AiCatalogEntry) => string,
): Lead | null {
  const endpoint = findDiscoveredEndpoint(card, read.url);
  state.serverCards.push({
    route: "ai-catalog-inline",
    url: null,
    catalogUrl: read.url,
    schema: schemaOf(card),
    card,
    endpoint,
  });
  if (!endpoint) return null;
  return {
    endpoint,
    route: `${from(entry)} carries a server card inline that names the MCP endpoint ${displayUrl(endpoint, origin)}`,
  };
}

/**
 * A server card the catalog names by URL, as fetched: its endpoint when the card names one;
 * otherwise the endpoint the card's own URL implies (`<endpoint>/server-card`), or the URL itself
 * tried as the endpoint, saying why.
 */
function fetchedCardLead(
  origin: string,
  state: CrawlState,
  read: AiCatalog,
  entry: AiCatalogEntry,
  url: string,
  reading: DiscoveryReading,
  from: (entry: AiCatalogEntry) => string,
): Lead {
  const cardAt = displayUrl(url, origin);
  if (reading.card) {
    state.serverCards.push({
      route: "ai-catalog",
      url: cardUrlOf(reading),
      catalogUrl: read.url,
      schema: schemaOf(reading.card),
      card: reading.card,
      endpoint: reading.endpoint,
    });
  }
  if (reading.endpoint) {
    return {
      endpoint: reading.endpoint,
      route: `${from(entry)} names the server card ${cardAt}, which${reading.referred?.clause ?? ""} names the MCP endpoint ${displayUrl(reading.endpoint, origin)}`,
    };
  }
  const cardUrl = new URL(url);
  const cardOf = /\/server-card\/?$/.test(cardUrl.pathname)
    ? new URL(cardUrl.pathname.replace(/\/server-card\/?$/, "") || "/", cardUrl.origin).href
    : null;
  const endpoint = cardOf ?? url;
  const why = cardOf
    ? `which is the card of the endpoint ${displayUrl(endpoint, origin)}`
    : "which is not a server card naming an endpoint, so it was tried as the endpoint itself";
  return {
    endpoint,
    route: `${from(entry)} names the server card ${cardAt} (${toSentence(reading.verdict.reason).replace(/\.$/, "")}), ${why}`,
  };
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
      // An answer decides (a 404, 405 or 501 refusing the POST is one); a server error does not.
      return probe.httpStatus !== undefined && isUndecidedStatus(probe.httpStatus) ? "error" : "absent";
    case "wrong_transport":
      return "absent";
  }
}

/** A crawl's probe context with the crawl's catch-all controls, as document readers need it. */
type DiscoveryContext = ProbeContext & { controls: CrawlState["controls"] };

/** What the AI Catalogs led to: the endpoints, the cards fetched and their readings. */
type CatalogLeads = Awaited<ReturnType<typeof catalogLeads>>;

/** Everything read before any named endpoint is probed. */
interface Discovery {
  /** The conventional /mcp's probe, made while the documents were read. */
  defaultProbe: McpProbeResult;
  /** The well-known documents' answers (and the endpoint's own card once it is read). */
  discoveryResponses: ProbeResponse[];
  discoveries: DiscoveryReading[];
  /** The linked AI Catalog, when the home page names one, then the well-known one. */
  catalogs: AiCatalogFinding[];
  fromCatalog: CatalogLeads;
}

/** A crawl never asks for the legacy-SSE diagnosis of a 404: the signal is absent either way. */
const PROBE_OPTIONS = { diagnoseNotFound: false };

/** Each probe made, with the lead it followed: the named endpoints in order, then /mcp. */
type Probes = [Lead, McpProbeResult][];

/** Detects an MCP server (see the module comment). */
export async function detectMcpServer(context: ProbeContext): Promise<SignalFinding> {
  const state = crawlStateOf(context);
  const shared: DiscoveryContext = { ...context, controls: state.controls };
  const defaultEndpoint = siteUrl(context.origin, DEFAULT_MCP_PATH);
  const found = await readDiscoveryWhileProbingDefault(shared, state, defaultEndpoint);
  recordWellKnownCards(state, found.discoveries);
  const leads = orderLeads(context, found);
  const probes = await probeLeads(context, leads, defaultEndpoint, found.defaultProbe);

  const present = probes.find(([, probe]) => statusOfProbe(probe) === "present");
  const [lead, probe] = present ?? probes[0]!;
  if (present && probe.outcome === "compliant" && !state.serverCards.some((card) => card.endpoint === lead.endpoint)) {
    found.discoveryResponses.push(await readEndpointCard(shared, state, lead.endpoint));
  }
  const troubles = collectTroubles(found.discoveries, found.catalogs);
  const status = decideStatus(probe, present !== undefined, probes, troubles);
  const note = catalogNote(context.origin, found, present !== undefined);
  return {
    status,
    reason: explainStatus(status, [lead, probe], probes, troubles, note),
    fetched: collectFetched(found, probes),
    details: {
      endpoint: lead.endpoint,
      // A catalog, card, discovery document or registry named an endpoint (mcp-health.ts).
      advertised: leads.length > 0,
      outcome: probe.outcome,
      era: probe.era ?? null,
      protocol_version: probe.protocolVersion ?? null,
      server_name: probe.serverName ?? null,
      tool_count: probe.toolCount ?? null,
      // What tools/list said of them (site-capabilities.ts keeps what the site says it does).
      tools: probe.tools ?? null,
      discovery_url: discoveryUrlOf(lead, found.discoveries),
      route: lead.route,
      // RFC 9728 section 5.1: the 401's resource_metadata, which the checklist reads first.
      resource_metadata: probe.gate?.resourceMetadata ?? null,
    },
  };
}

/** Probes /mcp while fetching the well-known documents and both AI Catalogs, then reads them all. */
async function readDiscoveryWhileProbingDefault(
  shared: DiscoveryContext,
  state: CrawlState,
  defaultEndpoint: string,
): Promise<Discovery> {
  const { origin, fetch } = shared;
  // Most sites name no endpoint: the conventional one is probed while the documents are read,
  // rather than after.
  const [defaultProbe, discoveryResponses, catalog, linkedCatalog] = await Promise.all([
    probeMcpEndpoint(fetch, defaultEndpoint, PROBE_OPTIONS),
    Promise.all(MCP_DISCOVERY_PATHS.map((path) => fetch(siteUrl(origin, path)))),
    state.aiCatalog(),
    state.linkedAiCatalog(),
  ]);
  // The AI Catalog Link Relation Discovery procedure asks the home page's link first, then the
  // well-known path: leads from a linked catalog come first.
  const catalogs = linkedCatalog ? [linkedCatalog, catalog] : [catalog];
  const [discoveries, catalogReadings] = await Promise.all([
    Promise.all(discoveryResponses.map((response) => readDiscovery(shared, response))),
    Promise.all(catalogs.map((each) => catalogLeads(shared, state, each))),
  ]);
  const fromCatalog = {
    leads: catalogReadings.flatMap((each) => each.leads),
    fetched: catalogReadings.flatMap((each) => each.fetched),
    readings: catalogReadings.flatMap((each) => each.readings),
  };
  return { defaultProbe, discoveryResponses, discoveries, catalogs, fromCatalog };
}

/** Keeps the cards the well-known documents held in the crawl's state, after the catalogs' cards. */
function recordWellKnownCards(state: CrawlState, discoveries: DiscoveryReading[]): void {
  for (const reading of discoveries) {
    if (!reading.card) continue;
    state.serverCards.push({
      route: "well-known",
      url: cardUrlOf(reading),
      catalogUrl: null,
      schema: schemaOf(reading.card),
      card: reading.card,
      endpoint: reading.endpoint,
    });
  }
}

/**
 * The named endpoints in order of trust: the catalogs', then the well-known documents', then a
 * registry's (a list outside the site). Duplicates are kept; /mcp is not among them.
 */
function orderLeads(context: ProbeContext, found: Discovery): Lead[] {
  const { origin } = context;
  const leads: Lead[] = [...found.fromCatalog.leads];
  for (const reading of found.discoveries) {
    if (reading.endpoint) {
      leads.push({
        endpoint: reading.endpoint,
        route: `${displayUrl(reading.response.url, origin)}${reading.referred?.clause ?? ""} names the MCP endpoint ${displayUrl(reading.endpoint, origin)}`,
      });
    }
  }
  for (const endpoint of context.mcpLeads ?? []) {
    const url = resolveHttpUrl(endpoint, `${origin}/`);
    if (url) leads.push({ endpoint: url, route: `the MCP Registry lists the endpoint ${displayUrl(url, origin)}` });
  }
  return leads;
}

/** Probes the distinct named endpoints until one is present, then adds /mcp's probe with its route. */
async function probeLeads(
  context: ProbeContext,
  leads: Lead[],
  defaultEndpoint: string,
  defaultProbe: McpProbeResult,
): Promise<Probes> {
  const { origin, fetch } = context;
  const distinct: Lead[] = [];
  for (const lead of leads) {
    if (!distinct.some((other) => other.endpoint === lead.endpoint)) distinct.push(lead);
  }
  const tried = distinct.filter((lead) => lead.endpoint !== defaultEndpoint).slice(0, MAX_PROBED_LEADS);
  const probes: Probes = [];
  // Named endpoints one after another, stopping at the first that answers as a server: each
  // handshake costs up to four requests.
  for (const lead of tried) {
    const probe = await probeMcpEndpoint(fetch, lead.endpoint, PROBE_OPTIONS);
    probes.push([lead, probe]);
    if (statusOfProbe(probe) === "present") break;
  }
  const defaultLead = distinct.find((lead) => lead.endpoint === defaultEndpoint) ?? {
    endpoint: defaultEndpoint,
    route:
      leads.length > 0
        ? `${displayUrl(defaultEndpoint, origin)}, the conventional endpoint, was tried as well`
        : `no AI Catalog, server card or discovery document names an MCP endpoint, so ${displayUrl(defaultEndpoint, origin)} was tried`,
  };
  probes.push([defaultLead, defaultProbe]);
  return probes;
}

/** Reads `<endpoint>/server-card` and keeps any card in the crawl's state; returns the answer fetched. */
async function readEndpointCard(shared: DiscoveryContext, state: CrawlState, endpoint: string): Promise<ProbeResponse> {
  // SEP-2127 serves a card at <endpoint>/server-card: read for the crawl's findings, not the verdict.
  const response = await shared.fetch(`${endpoint.replace(/\/$/, "")}/server-card`);
  const reading = await readDiscovery(shared, response);
  if (reading.card) {
    state.serverCards.push({
      route: "endpoint",
      url: response.finalUrl || response.url,
      catalogUrl: null,
      schema: schemaOf(reading.card),
      card: reading.card,
      endpoint: reading.endpoint,
    });
  }
  return response;
}

/** The documents' verdicts, and each catalog or nested catalog that refused the crawler or failed. */
function collectTroubles(discoveries: DiscoveryReading[], catalogs: AiCatalogFinding[]): ProbeVerdict[] {
  const troubles = [...discoveries.map((reading) => reading.verdict)];
  for (const each of catalogs) {
    if (each.status === "blocked" || each.status === "error") troubles.push(each);
    // A nested catalog that refused the crawler or failed may have named a server: like any other
    // discovery document, it makes the signal blocked or error when no endpoint proved itself.
    for (const nested of each.nested) {
      if (nested.status === "blocked" || nested.status === "error") {
        troubles.push({ status: nested.status, reason: `the nested catalog ${nested.reason}` });
      }
    }
  }
  return troubles;
}

/**
 * The signal's status: the deciding probe's, unless no endpoint is present and another probe or a
 * document was blocked or failed (it might have led to a server).
 */
function decideStatus(
  probe: McpProbeResult,
  present: boolean,
  probes: Probes,
  troubles: ProbeVerdict[],
): ProbeVerdict["status"] {
  const otherStatuses = present
    ? []
    : [...probes.map(([, other]) => statusOfProbe(other)), ...troubles.map((verdict) => verdict.status)].filter(
        (status) => status === "blocked" || status === "error",
      );
  return combineStatus([statusOfProbe(probe), ...otherStatuses]);
}

/** A sentence saying the AI Catalog named no server, when one was read, named none, and none is present. */
function catalogNote(origin: string, found: Discovery, present: boolean): string {
  const listed = found.catalogs.find((each) => each.catalog)?.catalog;
  return !present && listed && found.fromCatalog.leads.length === 0
    ? ` The AI Catalog ${displayUrl(listed.url, origin)} lists ${describeEntries(listed)} and names no MCP server.`
    : "";
}

/** The reason: the deciding probe's route and note, or what else (a document, another probe) set the status. */
function explainStatus(
  status: ProbeVerdict["status"],
  [lead, probe]: [Lead, McpProbeResult],
  probes: Probes,
  troubles: ProbeVerdict[],
  note: string,
): string {
  if (status === statusOfProbe(probe)) {
    const legacy =
      probe.outcome === "wrong_transport" ? " A server without the Streamable HTTP transport does not count." : "";
    return `${toSentence(lead.route)} ${probe.note}${legacy}${note}`;
  }
  const deciding =
    troubles.find((verdict) => verdict.status === status) ??
    probes
      .map(([other, result]) => ({ status: statusOfProbe(result), reason: `${other.route}: ${result.note}` }))
      .find((verdict) => verdict.status === status)!;
  return `${toSentence(deciding.reason)} ${probe.note}${note}`;
}

/**
 * Every exchange, in the order the evidence lists them: catalogs, cards, documents, $ref targets,
 * the control requests that ruled on them (once each), then the probes.
 */
function collectFetched(found: Discovery, probes: Probes): FetchRecord[] {
  const { catalogs, discoveries, fromCatalog } = found;
  const controls = new Map<string, ProbeResponse>();
  for (const asked of [
    ...catalogs.map((each) => each.control?.control),
    ...discoveries.map((r) => r.control),
    ...fromCatalog.readings.map((r) => r.control),
  ]) {
    if (asked) controls.set(asked.url, asked);
  }
  return [
    ...catalogs.flatMap((each) => [
      fetchRecord(each.response),
      ...each.nested.flatMap((nested) => (nested.response ? [fetchRecord(nested.response)] : [])),
    ]),
    ...fromCatalog.fetched.map(fetchRecord),
    ...found.discoveryResponses.map(fetchRecord),
    ...[...discoveries, ...fromCatalog.readings].flatMap((r) => (r.referred ? [fetchRecord(r.referred.response)] : [])),
    ...[...controls.values()].map(fetchRecord),
    ...probes.flatMap(([, result]) => result.fetched),
  ];
}

/** The document that named the deciding endpoint, or null for the conventional /mcp. */
function discoveryUrlOf(lead: Lead, discoveries: DiscoveryReading[]): string | null {
  const document = discoveries.find((reading) => reading.endpoint === lead.endpoint);
  if (document) return document.response.finalUrl || document.response.url;
  if (lead.catalogUrl) return lead.catalogUrl;
  return null;
}
