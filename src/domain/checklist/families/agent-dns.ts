/**
 * DNS discovery of agent surfaces (`dns_agent_discovery`, category discovery): an AID TXT record
 * at `_agent.<host>` or DNS-AID SVCB/HTTPS records at `_index`, `_mcp`, `_a2a` under
 * `_agents.<host>`, read by readers/agent-dns.ts, each announced surface then checked to answer
 * the protocol it declares:
 * - mcp: the endpoint the crawl's MCP detector proved (no request more), else one live probe of
 *   either era (checklist-answers.ts probeNamedMcpEndpoints); a DNS-AID `_mcp` record names a
 *   host, so its endpoint is that host's conventional `/mcp` unless it is the proved endpoint's host;
 * - a2a: the A2A card (the URI itself when it names a `.json` document, else the host's
 *   `/.well-known/agent-card.json`), read by the A2A card reader;
 * - openapi: the URI, read by the OpenAPI reader;
 * - DNS-AID `_index`: the site itself, or an HTTPS answer of the host it names.
 * Undecided is not absent: a resolver that failed, a surface not reached, a 5xx: `error`.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 */

import { readAgentCard } from "../../readers/a2a-card.ts";
import {
  type AidRecord,
  DNS_AID_SERVICES,
  readAidRecord,
  readSvcbRecord,
  svcbEndpoint,
} from "../../readers/agent-dns.ts";
import { readOpenApiDocument } from "../../readers/openapi.ts";
import { isHtmlAnswer, parseJson } from "../../signals/blocking.ts";
import type { McpProbeResult } from "../../signals/mcp-probe.ts";
import type { ProbeResponse } from "../../signals/types.ts";
import { evidenceOf, fixWith, type Judge, linkedOutcome, missing, standingOf, verdict } from "../check-helpers.ts";
import { answerAt, type ChecklistAnswers, type DnsOutcome, dnsQuestionKey, isIpLiteral } from "../checklist-answers.ts";

const FIX = {
  dns: fixWith(
    "Announce your agent in DNS: an AID TXT record at _agent.<your domain> naming an https endpoint and its protocol (mcp, a2a or openapi), or DNS-AID SVCB/HTTPS records under _agents.<your domain>.",
    '_agent.example.com.       300 IN TXT   "v=aid1;u=https://api.example.com/mcp;p=mcp;s=Example tools"\n_mcp._agents.example.com. 300 IN HTTPS 1 api.example.com. alpn="h2" port=443',
  ),
} as const;

/** One surface a record announces. */
interface Surface {
  /** e.g. "the AID record at _agent.example.com" */
  source: string;
  proto: string;
  /** The https endpoint the record leads to. */
  url: string;
}

type SurfaceState =
  | { state: "answers"; clause: string }
  | { state: "dead" | "undecided" | "unverifiable"; clause: string };

const stripSlash = (url: string) => url.replace(/\/+$/, "");

function sameUrl(a: string, b: string): boolean {
  try {
    const left = new URL(a);
    const right = new URL(b);
    return left.host === right.host && stripSlash(left.pathname) === stripSlash(right.pathname);
  } catch {
    return false;
  }
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** The MCP endpoint the crawl's detector reached (proved or gated), if any. */
function detectedMcpEndpoint(answers: ChecklistAnswers): string | null {
  const finding = answers.signals.has_mcp_server;
  const endpoint = finding.details?.endpoint;
  return (finding.status === "present" || finding.status === "blocked") && typeof endpoint === "string"
    ? endpoint
    : null;
}

/** Where an A2A surface's card is read. */
function a2aCardUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return /\.json$/i.test(parsed.pathname) ? parsed.href : `${parsed.origin}/.well-known/agent-card.json`;
  } catch {
    return null;
  }
}

/** What the records announce, and what the DNS answers left undecided or malformed. */
function readRecords(answers: ChecklistAnswers): {
  surfaces: Surface[];
  broken: string[];
  failed: string[];
  looked: boolean;
} {
  const dns = answers.dns;
  const surfaces: Surface[] = [];
  const broken: string[] = [];
  const failed: string[] = [];
  if (!dns || dns.answers.size === 0) return { surfaces, broken, failed, looked: false };
  const outcome = (type: "TXT" | "SVCB" | "HTTPS", name: string): DnsOutcome | undefined =>
    dns.answers.get(dnsQuestionKey(type, name));
  const aidName = `_agent.${dns.host}`;
  const txt = outcome("TXT", aidName);
  if (txt && "failed" in txt) failed.push(txt.failed);
  if (txt && "records" in txt) {
    const read = txt.records.map(readAidRecord);
    const valid = read.filter((each): each is AidRecord => "uri" in each);
    const problems = read.filter((each) => "problem" in each && each.isAid) as { problem: string }[];
    if (valid.length > 1)
      broken.push(`${aidName} holds ${valid.length} AID records (one is allowed: clients refuse an ambiguous answer)`);
    else if (valid.length === 1) {
      const record = valid[0]!;
      surfaces.push({ source: `the AID record at ${aidName}`, proto: record.proto, url: record.uri });
    } else if (problems.length > 0) broken.push(`the AID record at ${aidName} is not valid: ${problems[0]!.problem}`);
  }
  for (const { label, proto } of DNS_AID_SERVICES) {
    const name = `${label}._agents.${dns.host}`;
    for (const type of ["HTTPS", "SVCB"] as const) {
      const each = outcome(type, name);
      if (!each) continue;
      if ("failed" in each) {
        failed.push(each.failed);
        continue;
      }
      for (const data of each.records) {
        const record = readSvcbRecord(data);
        const endpoint = record ? svcbEndpoint(record, name) : null;
        if (!record) broken.push(`the ${type} record at ${name} does not parse (${data.slice(0, 80)})`);
        else if (record.priority === 0)
          broken.push(
            `the ${type} record at ${name} is an alias (priority 0) to ${record.target}, not a service record`,
          );
        else if (!endpoint) broken.push(`the ${type} record at ${name} names no reachable target (${record.target})`);
        else surfaces.push({ source: `the DNS-AID ${type} record at ${name}`, proto, url: endpoint });
      }
      // One record type per name is enough: HTTPS is read first, SVCB only where HTTPS gave none.
      if (each.records.length > 0) break;
    }
  }
  return { surfaces, broken, failed, looked: true };
}

/** The endpoint an MCP surface is checked at. */
function mcpEndpointOf(surface: Surface, answers: ChecklistAnswers): string {
  if (surface.source.startsWith("the AID")) return surface.url;
  const detected = detectedMcpEndpoint(answers);
  if (detected && hostOf(detected) === hostOf(surface.url)) return detected;
  return `${surface.url}mcp`;
}

/** The documents the announced surfaces lead to (GETs), for the checklist's follow-up round. */
export function agentDnsFollowUpUrls(answers: ChecklistAnswers): string[] {
  const urls: string[] = [];
  for (const surface of readRecords(answers).surfaces) {
    if (surface.proto === "a2a") {
      const url = a2aCardUrl(surface.url);
      if (url) urls.push(url);
    } else if (surface.proto === "openapi") urls.push(surface.url);
    else if (surface.proto === "index" && hostOf(surface.url) !== hostOf(answers.origin)) urls.push(surface.url);
  }
  return urls;
}

/** The MCP endpoints only DNS names (not the one the detector already proved), to probe live. */
export function agentDnsMcpEndpoints(answers: ChecklistAnswers): string[] {
  const detected = detectedMcpEndpoint(answers);
  const endpoints = readRecords(answers)
    .surfaces.filter((surface) => surface.proto === "mcp")
    .map((surface) => mcpEndpointOf(surface, answers))
    .filter((endpoint) => !(detected && sameUrl(endpoint, detected)));
  return [...new Set(endpoints)];
}

function probeState(probe: McpProbeResult | undefined, endpoint: string): SurfaceState {
  if (!probe) return { state: "undecided", clause: `the MCP endpoint ${endpoint} was not probed` };
  if (probe.outcome === "compliant")
    return { state: "answers", clause: `${endpoint} answered as an MCP server (the ${probe.era} era)` };
  if (probe.outcome === "gated")
    return { state: "answers", clause: `${endpoint} is an MCP server behind authorization (${probe.gate?.status})` };
  const status = probe.httpStatus;
  if (probe.outcome === "unreachable" || (status !== undefined && status >= 500 && status !== 501))
    return { state: "undecided", clause: `the MCP endpoint ${endpoint} could not be reached: ${probe.note}` };
  return { state: "dead", clause: `${endpoint} does not answer as an MCP server: ${probe.note}` };
}

function linkedState(
  response: ProbeResponse | undefined,
  answers: ChecklistAnswers,
  read: (body: string) => string | null,
  what: string,
): SurfaceState {
  const linked = linkedOutcome(response, answers);
  if (linked.state !== "answer") return { state: linked.state, clause: linked.clause };
  if (isHtmlAnswer(linked.answer)) return { state: "dead", clause: `${linked.where} is an HTML page, not ${what}` };
  const problem = read(linked.answer.body);
  return problem
    ? { state: "dead", clause: `${linked.where} is not ${what}: it ${problem}` }
    : { state: "answers", clause: `${linked.where} is ${what}` };
}

function stateOf(surface: Surface, answers: ChecklistAnswers): SurfaceState {
  switch (surface.proto) {
    case "mcp": {
      const endpoint = mcpEndpointOf(surface, answers);
      const detected = detectedMcpEndpoint(answers);
      if (detected && sameUrl(endpoint, detected))
        return { state: "answers", clause: `${endpoint} is the MCP server this crawl reached` };
      return probeState(answers.mcpProbes?.get(endpoint), endpoint);
    }
    case "a2a": {
      const url = a2aCardUrl(surface.url);
      if (!url) return { state: "dead", clause: `${surface.url} is not a URL` };
      return linkedState(
        answers.get.get(url),
        answers,
        (body) => {
          const card = readAgentCard(parseJson(body));
          return "problem" in card ? card.problem : null;
        },
        "an A2A agent card",
      );
    }
    case "openapi":
      return linkedState(
        answers.get.get(surface.url),
        answers,
        (body) => {
          const read = readOpenApiDocument(body);
          return "problem" in read ? read.problem : null;
        },
        "an OpenAPI document",
      );
    case "index": {
      if (hostOf(surface.url) === hostOf(answers.origin))
        return { state: "answers", clause: `it points at this site (${hostOf(surface.url)})` };
      const linked = linkedOutcome(answers.get.get(surface.url), answers);
      if (linked.state === "answer") return { state: "answers", clause: `${surface.url} answers` };
      return { state: linked.state, clause: linked.clause };
    }
    default:
      return {
        state: "unverifiable",
        clause: `it announces the ${surface.proto} protocol at ${surface.url}, which this checker does not speak`,
      };
  }
}

export const checkDnsAgentDiscovery: Judge = (answers) => {
  const absent = checkRecords(answers);
  if (!("missing" in absent)) return absent;
  // Nothing in DNS: a site that refused the crawler is blocked here too, as every check says.
  const home = answerAt(answers, "/");
  const standing = standingOf(home, answers);
  if (standing.kind === "blocked") return verdict("blocked", standing.clause, evidenceOf(home), FIX.dns);
  return absent;
};

const checkRecords: Judge = (answers) => {
  // An IP address has no names to ask, with a resolver or without: the same words either way.
  const siteHost = new URL(answers.origin).hostname;
  if (isIpLiteral(siteHost))
    return missing(`${siteHost} is an IP address, so it has no DNS names to announce agents under`, [], FIX.dns);
  if (!answers.dns)
    return missing("DNS records were not looked up: this checker had no DNS-over-HTTPS resolver", [], FIX.dns);
  const { surfaces, broken, failed } = readRecords(answers);
  const evidenceUrls: (ProbeResponse | undefined)[] = agentDnsFollowUpUrls(answers).map((url) => answers.get.get(url));
  const evidence = evidenceOf(...evidenceUrls);
  for (const endpoint of agentDnsMcpEndpoints(answers))
    evidence.push(...(answers.mcpProbes?.get(endpoint)?.fetched ?? []));
  const host = answers.dns.host;
  if (surfaces.length === 0) {
    if (broken.length > 0) return verdict("fail", broken[0]!, evidence, FIX.dns);
    if (failed.length > 0)
      return verdict("error", `whether DNS announces an agent could not be decided: ${failed[0]}`, evidence, FIX.dns);
    return missing(
      `no AID TXT record at _agent.${host} and no DNS-AID record under _agents.${host}`,
      evidence,
      FIX.dns,
    );
  }
  const states = surfaces.map((surface) => ({ surface, ...stateOf(surface, answers) }));
  const answering = states.filter((each) => each.state === "answers");
  const flawed = states.filter((each) => each.state !== "answers");
  const say = (each: (typeof states)[number]) => `${each.surface.source} (${each.surface.proto}): ${each.clause}`;
  if (answering.length > 0) {
    const troubles = [...flawed.map(say), ...broken];
    if (troubles.length > 0) return verdict("warn", `${say(answering[0]!)}; but ${troubles[0]}`, evidence, FIX.dns);
    return verdict("pass", answering.map(say).join("; "), evidence);
  }
  const undecided = flawed.find((each) => each.state === "undecided");
  if (undecided) return verdict("error", `could not be decided: ${say(undecided)}`, evidence, FIX.dns);
  const unverifiable = flawed.find((each) => each.state === "unverifiable");
  if (unverifiable && flawed.every((each) => each.state === "unverifiable"))
    return verdict("warn", say(unverifiable), evidence, FIX.dns);
  return verdict("fail", say(flawed.find((each) => each.state === "dead") ?? flawed[0]!), evidence, FIX.dns);
};
