/**
 * What the checklist reads: the answers of the crawl's fetcher, keyed by request, and the crawl's
 * own findings (the seven signals). Fetching happens here and only here; the checks themselves
 * (families/*.ts) are pure functions of these answers, so they can be tested on real documents
 * without a network. What is fetched, and when, is the crawl plan of checklist-requests.ts.
 *
 * Every request goes through the crawl's memoised fetcher: a document a signal detector already
 * fetched (robots.txt, the home page, the API catalog, the MCP discovery documents) costs nothing
 * more. The follow-ups (documents the first answers name) are capped so a crawl stays within its
 * request budget (see CRAWL_REQUEST_BUDGET).
 */

import type { DnsRecordLookup, DnsRecordType } from "../../adapters/dns-records.ts";
import { DNS_AID_SERVICES } from "../readers/agent-dns.ts";
import { siteUrl } from "../signals/blocking.ts";
import { type CatchAllCheck, type ControlShape, shapeOf } from "../signals/catch-all.ts";
import type { CrawlDiscovery } from "../signals/crawl-state.ts";
import { type McpProbeResult, probeMcpEndpoint } from "../signals/mcp-probe.ts";
import type { ProbeAnswer, ProbeRequest, ProbeResponse, SignalFinding, SiteFetcher } from "../signals/types.ts";
import type { SignalField } from "../sites/site-fields.ts";

/** The well-known paths the checklist reads besides the signal detectors' own. */
export const CHECKLIST_PATHS = {
  robots: "/robots.txt",
  sitemap: "/sitemap.xml",
  llmsTxt: "/llms.txt",
  llmsFull: "/llms-full.txt",
  webBotAuth: "/.well-known/http-message-signatures-directory",
  apiCatalog: "/.well-known/api-catalog",
  aiCatalog: "/.well-known/ai-catalog.json",
  ard: "/.well-known/ard.json",
  a2aCard: "/.well-known/agent-card.json",
  a2aLegacy: "/.well-known/agent.json",
  skills: "/.well-known/agent-skills/index.json",
  skillsLegacy: "/.well-known/skills/index.json",
  protectedResource: "/.well-known/oauth-protected-resource",
  authorizationServer: "/.well-known/oauth-authorization-server",
  openidConfiguration: "/.well-known/openid-configuration",
  ucp: "/.well-known/ucp",
  acp: "/.well-known/acp.json",
  authMd: "/auth.md",
  mcpRegistryAuth: "/.well-known/mcp-registry-auth",
} as const;

/** The MCP server card paths read (the MCP detector fetches them: they cost nothing more). */
export const MCP_CARD_PATHS = [
  "/.well-known/mcp.json",
  "/.well-known/mcp/server-card.json",
  "/.well-known/mcp/server-card",
] as const;

/** The home page asked for Markdown: the one request of the checklist with its own headers. */
export const MARKDOWN_REQUEST: ProbeRequest = { headers: { accept: "text/markdown" } };

/** How many documents named by a first answer each check may fetch (a sitemap, skills, catalog entries…). */
export const FOLLOW_UP_CAP = 2;

export interface ChecklistAnswers {
  origin: string;
  /** GET answers by absolute URL. */
  get: Map<string, ProbeResponse>;
  /** The home page as asked for with `Accept: text/markdown`. */
  markdownHome: ProbeResponse | null;
  /** The crawl's signal findings. */
  signals: Record<SignalField, SignalFinding>;
  /** The signal detectors' discovery: the AI Catalog as read, the server cards with their route. */
  discovery: CrawlDiscovery;
  /**
   * What the crawl's control requests (catch-all.ts) said of each 2xx answer on the site, by URL:
   * an answer that is the site's catch-all is treated as no document (see standingOf).
   */
  catchAll: Map<string, CatchAllCheck>;
  /** The cryptographic proofs (checklist-proofs.ts), computed before the checks are judged. */
  proofs?: ChecklistProofs;
  /**
   * What DNS said of the agent-discovery names of the site's host (`dns_agent_discovery`), or
   * undefined when the crawl had no DNS lookup to ask (see crawlSite's `dnsRecords`).
   */
  dns?: AgentDnsAnswers;
  /** Live MCP probes of endpoints only DNS named (the MCP detector probes the site's own). */
  mcpProbes?: Map<string, McpProbeResult>;
}

/**
 * The part of the answers that the probes alone fill: what a follow-up reads when it is asked as
 * soon as the probes it depends on have answered, before the detectors are done (see
 * `EarlyFollowUpDeclaration`, checklist-requests.ts).
 */
export type ProbedAnswers = Pick<ChecklistAnswers, "origin" | "get" | "catchAll">;

/** What became of a signed agent card's signatures. */
export type CardSignatureProof =
  | { state: "verified"; kid: string | null; form: "as served" | "defaults omitted" }
  | { state: "failed" | "undecided"; clause: string };

/** The proofs the checks read (see checklist-proofs.ts). */
export interface ChecklistProofs {
  /** By the JCS of a published JWK: null when jose imports it, else why not. */
  jwks: Map<string, string | null>;
  /** By agent card URL, for cards that carry `signatures`. */
  cardSignatures: Map<string, CardSignatureProof>;
}

/** One DNS question's outcome: the record data (none when the name or type does not exist), or why it is undecided. */
export type DnsOutcome = { records: string[] } | { failed: string };

/** The DNS answers of one crawl, by question (`<type> <name>`, e.g. `TXT _agent.example.com`). */
export interface AgentDnsAnswers {
  host: string;
  answers: Map<string, DnsOutcome>;
}

/** The crawl's control requests, shared with the signal detectors (one per shape and crawl). */
export interface CatchAllJudge {
  /** Compares an answer with the control of its shape (asking it on first use). */
  judge(answer: ProbeAnswer): Promise<CatchAllCheck>;
  /** Asks the control of a shape now, before the budgeted follow-ups (see gatherAnswers). */
  prepare(shape: ControlShape): Promise<unknown>;
}

/** The answer to a GET of `path` on the site (or of an absolute URL), if it was fetched. */
export function answerAt(
  answers: Pick<ChecklistAnswers, "origin" | "get">,
  pathOrUrl: string,
): ProbeResponse | undefined {
  const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : siteUrl(answers.origin, pathOrUrl);
  return answers.get.get(url);
}

/** The fetchers the checklist uses: the crawl's, and the same one bounded by the request budget. */
export interface ChecklistFetchers {
  shared: SiteFetcher;
  budgeted: SiteFetcher;
  /** `budgeted` for the early follow-ups, which head no chain (queued as leaves); `budgeted` when not given. */
  early?: SiteFetcher;
  /** Keeps requests of the budget for the control requests asked after the follow-ups. */
  reserve(count: number): void;
  /** The requests the crawl has made so far, the detectors' included. */
  requestsMade(): number;
}

/**
 * Requests kept for the signal detectors' later rounds (an AI Catalog → card → four handshake
 * steps, a card at the endpoint, the OpenAPI framework paths, the control requests) when the
 * checklist's own first round is sent beside their first burst. The detectors are never refused,
 * so the checklist sends at once only what leaves them this many; the rest of its first round
 * waits until they are done and is then fetched within the budget (docs/crawling.md, "Request
 * budget").
 */
export const DETECTOR_RESERVE = 12;

/** The control requests a crawl may ask: one per shape (catch-all.ts). */
const CONTROL_SHAPES = 2;

/**
 * Runs the checklist's crawl plan (checklist-requests.ts): the probes beside the detectors, then,
 * once the detectors are done, the follow-ups the answers call for (in declaration order, the
 * order of importance), round after round while they name new documents, as the budget allows.
 */
export async function gatherAnswers(
  fetchers: ChecklistFetchers,
  origin: string,
  findings: Promise<{ signals: Record<SignalField, SignalFinding>; discovery: CrawlDiscovery; dns?: AgentDnsAnswers }>,
  plan: {
    probes: { path: string; shared: boolean }[];
    /** The follow-ups the probes' answers alone call for, asked as soon as those answered. */
    early?: (answers: ProbedAnswers) => string[];
    followUps: (answers: ChecklistAnswers) => string[];
  },
  controls: CatchAllJudge,
  budget: number,
  rounds = 3,
): Promise<ChecklistAnswers> {
  const get = new Map<string, ProbeResponse>();
  const catchAll = new Map<string, CatchAllCheck>();
  const sharedPaths = new Set(plan.probes.filter((each) => each.shared).map((each) => siteUrl(origin, each.path)));
  const fetchInto = async (url: string, fetch: SiteFetcher = fetchers.budgeted) => {
    if (get.has(url)) return;
    const response = await (sharedPaths.has(url) ? fetchers.shared : fetch)(url);
    get.set(url, response);
  };
  // The two control requests (one per shape) stay in reserve until it is known which are asked.
  fetchers.reserve(CONTROL_SHAPES);
  const room = () => fetchers.requestsMade() + DETECTOR_RESERVE < budget - CONTROL_SHAPES;
  // The early follow-ups (an older path where the current one gave no document, the sitemap
  // robots.txt names) are asked the moment the answers they read are in, beside the detectors'
  // later rounds, instead of after the detectors are done: the same requests, made sooner.
  const home = siteUrl(origin, "/");
  const isHit = (response: ProbeResponse): response is ProbeAnswer =>
    response.ok && response.status >= 200 && response.status < 300 && response.url !== home;
  // A hit's control request (one per shape and crawl) is asked as soon as the hit answers: every
  // hit has its shape's control asked before the checks are judged (judgeAll), so asking it now
  // adds no request, and what waits on it (the judging) waits less.
  const controlsAsked: Promise<unknown>[] = [];
  const askControlOf = (url: string) => {
    const response = get.get(url);
    const shape = response && isHit(response) ? shapeOf(response.url, origin) : null;
    if (shape) controlsAsked.push(controls.prepare(shape));
  };
  const early = startEarlyFollowUps({ origin, get, catchAll }, plan.early, room, (url) =>
    fetchInto(url, fetchers.early ?? fetchers.budgeted).then(() => askControlOf(url)),
  );
  const firstRound: Promise<void>[] = [];
  const later: string[] = [];
  for (const { path } of plan.probes) {
    const url = siteUrl(origin, path);
    const fits = sharedPaths.has(url) || room();
    if (fits)
      firstRound.push(
        fetchInto(url).then(() => {
          askControlOf(url);
          early.offer();
        }),
      );
    else later.push(url);
  }
  const markdown = room()
    ? fetchers.budgeted(siteUrl(origin, "/"), MARKDOWN_REQUEST)
    : findings.then(() => fetchers.budgeted(siteUrl(origin, "/"), MARKDOWN_REQUEST));
  const [markdownHome, found] = await Promise.all([markdown, findings, ...firstRound]);
  await Promise.all(later.map((url) => fetchInto(url)));
  const answers: ChecklistAnswers = { origin, get, markdownHome, ...found, catchAll };
  const judgeAll = async () => {
    const pending = [...get.values()].filter((response) => isHit(response) && !catchAll.has(response.url));
    const checks = await Promise.all(pending.map((response) => controls.judge(response as ProbeAnswer)));
    for (const [i, response] of pending.entries()) catchAll.set(response.url, checks[i]!);
  };
  const next = plan.followUps(answers);
  // A control request is made at most once per shape and crawl, and only where some answer of
  // that shape may be a hit. The first round's hits have theirs asked by now (a control's request
  // is counted when it is asked, not when it answers); the shapes still unasked keep their request
  // in reserve while the budgeted follow-ups run, so the crawl's total stays within the budget
  // whatever the follow-ups turn up. No follow-up reads a control's answer: they run beside them.
  const asked = new Set<ControlShape>(found.discovery.controls.map((control) => control.shape));
  for (const response of get.values()) {
    const shape = isHit(response) ? shapeOf(response.url, origin) : null;
    if (shape) asked.add(shape);
  }
  controlsAsked.push(...[...asked].map((shape) => controls.prepare(shape)));
  fetchers.reserve(CONTROL_SHAPES - asked.size);
  // All of a round at once: the budget, if it runs short, refuses the last ones offered, which
  // is the order of importance. Each round's answers may name documents of the next.
  for (let round = 0, urls = next; round < rounds && urls.length > 0; round++) {
    await Promise.all(urls.map((url) => fetchInto(url)));
    urls = plan.followUps(answers);
  }
  await early.done();
  await Promise.all(controlsAsked);
  fetchers.reserve(0);
  await judgeAll();
  return answers;
}

/**
 * Asks the early follow-ups as the answers they read come in: `offer` (called after each probe
 * answers) fetches the URLs `early` names that are not yet asked, while the budget leaves the
 * detectors room, and offers again after each of those answers (a sitemap robots.txt names, then
 * `/sitemap.xml` when it gave none). What does not fit waits for the ordinary follow-up rounds,
 * which ask every follow-up, these included, over all the answers.
 */
function startEarlyFollowUps(
  answers: ProbedAnswers,
  early: ((answers: ProbedAnswers) => string[]) | undefined,
  room: () => boolean,
  fetchInto: (url: string) => Promise<void>,
): { offer: () => void; done: () => Promise<void> } {
  const asked = new Set<string>();
  const pending: Promise<void>[] = [];
  const offer = () => {
    if (!early) return;
    for (const url of early(answers)) {
      if (asked.has(url) || answers.get.has(url) || !room()) continue;
      asked.add(url);
      pending.push(fetchInto(url).then(offer));
    }
  };
  const done = async () => {
    while (pending.length > 0) await Promise.all(pending.splice(0));
  };
  return { offer, done };
}

/** The DNS questions of `dns_agent_discovery` for a host: AID's TXT, then DNS-AID's SVCB and HTTPS names. */
export function agentDnsQuestions(host: string): { name: string; type: DnsRecordType }[] {
  const questions: { name: string; type: DnsRecordType }[] = [{ name: `_agent.${host}`, type: "TXT" }];
  for (const { label } of DNS_AID_SERVICES) {
    for (const type of ["SVCB", "HTTPS"] as const) questions.push({ name: `${label}._agents.${host}`, type });
  }
  return questions;
}

/** The key of a DNS question in AgentDnsAnswers. */
export const dnsQuestionKey = (type: DnsRecordType, name: string) => `${type} ${name}`;

/**
 * Asks every agent-discovery question of a host at once (seven DNS-over-HTTPS queries, none of
 * them an HTTP request to the site, so outside the crawl's request budget). A failed lookup is
 * kept as undecided, never as no record. IP literals have no names to ask: no questions.
 */
export async function lookUpAgentDns(lookup: DnsRecordLookup, host: string): Promise<AgentDnsAnswers> {
  const answers = new Map<string, DnsOutcome>();
  if (isIpLiteral(host)) return { host, answers };
  await Promise.all(
    agentDnsQuestions(host).map(async ({ name, type }) => {
      try {
        answers.set(dnsQuestionKey(type, name), { records: await lookup(name, type) });
      } catch (error) {
        answers.set(dnsQuestionKey(type, name), {
          failed: error instanceof Error ? error.message : "the DNS lookup failed",
        });
      }
    }),
  );
  return { host, answers };
}

/** True for an IPv4 or bracketed/bare IPv6 literal (a host with no DNS name). */
export function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || host.includes(":") || host.startsWith("[");
}

/**
 * Probes, within the crawl's budget, the MCP endpoints only DNS named (see agent-dns.ts): each
 * a completed exchange of either era, as the MCP detector proves the site's own. The probe sends
 * the protocol's own requests (server/discover, initialize, tools/list), never a registration.
 */
export async function probeNamedMcpEndpoints(
  fetch: SiteFetcher,
  endpoints: readonly string[],
): Promise<Map<string, McpProbeResult>> {
  const results = await Promise.all(
    endpoints.map((endpoint) => probeMcpEndpoint(fetch, endpoint, { diagnoseNotFound: false })),
  );
  return new Map(endpoints.map((endpoint, i) => [endpoint, results[i]!]));
}
