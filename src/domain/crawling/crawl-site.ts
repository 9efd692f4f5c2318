/**
 * One crawl of a site: the seven signal detectors run side by side over one shared, memoised,
 * concurrency-bounded fetcher; then the metadata, the category and tags, the score and the crawl
 * status are derived from what they found. Nothing here writes anywhere.
 */

import type { StoredCapabilityGroup } from "../../../db/schema/sites.ts";
import type { DnsRecordLookup } from "../../adapters/dns-records.ts";
import { capabilitiesOf, crawlCapabilityReadings } from "../capabilities/site-capabilities.ts";
import {
  CHECKLIST_PATHS,
  gatherAnswers,
  lookUpAgentDns,
  probeNamedMcpEndpoints,
} from "../checklist/checklist-answers.ts";
import type { ChecklistSummary, CheckResult } from "../checklist/checklist-definition.ts";
import {
  CHECKLIST_REQUESTS,
  earlyFollowUpUrls,
  FOLLOW_UP_ROUNDS,
  followUpUrls,
  probePaths,
} from "../checklist/checklist-requests.ts";
import { agentDnsMcpEndpoints } from "../checklist/families/agent-dns.ts";
import { judgeChecklist } from "../checklist/run-checklist.ts";
import { classifySite } from "../classification/classify-site.ts";
import { extractSiteMetadata } from "../classification/site-metadata.ts";
import { agenticScore, SCORE_VERSION, type Signals } from "../scoring/agentic-score.ts";
import { AI_CATALOG_PATH, ARD_PATH } from "../signals/ai-catalog.ts";
import { isBlockedAnswer, siteUrl } from "../signals/blocking.ts";
import { checkCatchAll } from "../signals/catch-all.ts";
import { type CrawlDiscovery, type CrawlState, crawlStateOf } from "../signals/crawl-state.ts";
import { AI_PLUGIN_PATH, detectAiPlugin } from "../signals/detect-ai-plugin.ts";
import { detectLlmsTxt, LLMS_TXT_PATHS } from "../signals/detect-llms-txt.ts";
import { DEFAULT_MCP_PATH, detectMcpServer, MCP_DISCOVERY_PATHS } from "../signals/detect-mcp-server.ts";
import { detectOpenApi, OPENAPI_COMMON_PATHS } from "../signals/detect-openapi.ts";
import { detectRobotsAi } from "../signals/detect-robots-ai.ts";
import { detectSchemaOrg } from "../signals/detect-schema-org.ts";
import { API_CATALOG_PATH, detectStructuredApi, JSON_API_PATHS } from "../signals/detect-structured-api.ts";
import type {
  FetchFailureKind,
  ProbeAnswer,
  ProbeContext,
  ProbeResponse,
  SignalDetector,
  SignalEvidence,
  SignalFinding,
  SiteFetcher,
} from "../signals/types.ts";
import type { Category, SignalField } from "../sites/site-fields.ts";
import { SIGNAL_FIELDS } from "../sites/site-fields.ts";
import { CRAWL_TIME_BUDGET_MS } from "./crawl-budget.ts";
import {
  type ConcurrencyLimiter,
  CRAWL_REQUEST_BUDGET,
  createCrawlFetcher,
  type RequestRole,
} from "./crawl-fetcher.ts";

export { CRAWL_TIME_BUDGET_MS };

export const SIGNAL_DETECTORS: Readonly<Record<SignalField, SignalDetector>> = {
  has_llms_txt: detectLlmsTxt,
  has_ai_plugin: detectAiPlugin,
  has_openapi: detectOpenApi,
  has_structured_api: detectStructuredApi,
  has_mcp_server: detectMcpServer,
  has_robots_ai: detectRobotsAi,
  has_schema_org: detectSchemaOrg,
};

/**
 * success: the home page answered 2xx. blocked: it answered 401/403/429 or a bot challenge.
 * unreachable: no answer at all (timeout, network, redirect loop, refused address, time budget).
 * error: an answer that could not be used (too large, 5xx, other statuses).
 */
export type CrawlStatus = "success" | "blocked" | "unreachable" | "error";

export type { CrawlDiscovery };

export interface SiteCrawl {
  origin: string;
  crawlStatus: CrawlStatus;
  /** Why the crawl status is what it is, in one sentence. */
  crawlNote: string;
  signals: Record<SignalField, SignalFinding>;
  flags: Signals;
  agenticScore: number;
  scoreVersion: number;
  name: string;
  description: string;
  faviconUrl: string | null;
  category: Category;
  tags: string[];
  discovery: CrawlDiscovery;
  startedAt: Date;
  durationMs: number;
  /**
   * The agent-readiness checklist (never part of the score), or null for a crawl that stopped
   * at its home page (see signalsOnlyOnSuccess) or ran without it (see withChecklist).
   */
  checklist: { checks: CheckResult[]; summary: ChecklistSummary } | null;
  /** The requests the crawl made, every detector and check together (at most CRAWL_REQUEST_BUDGET). */
  requestCount: number;
  /**
   * What the site's own documents say it does, grouped by source and capped
   * (site-capabilities.ts); null when they name nothing.
   */
  capabilities: StoredCapabilityGroup[] | null;
}

const UNREACHABLE_FAILURES = new Set(["timeout", "network", "too_many_redirects", "refused", "deadline"]);

/** The opening of the note for a home page that gave no answer, in the words a site owner uses. */
const FAILURE_OPENINGS: Record<FetchFailureKind, string> = {
  network: "The site could not be reached",
  timeout: "The site did not answer in time",
  deadline: "The site did not answer in time",
  refused: "The home page was not fetched",
  too_many_redirects: "The home page could not be fetched",
  too_large: "The home page could not be read",
};

function crawlStatusOf(home: ProbeResponse): { status: CrawlStatus; note: string } {
  if (!home.ok) {
    const note = `${FAILURE_OPENINGS[home.failure]}: ${home.message}.`;
    return { status: UNREACHABLE_FAILURES.has(home.failure) ? "unreachable" : "error", note };
  }
  if (isBlockedAnswer(home))
    return { status: "blocked", note: `The home page answered ${home.status} to the crawler.` };
  if (home.status >= 200 && home.status < 300) return { status: "success", note: "The home page answered." };
  return { status: "error", note: `The home page answered ${home.status}.` };
}

/** A favicon named by the home page, else /favicon.ico when it answers with an image. */
async function findFavicon(fetch: SiteFetcher, origin: string, declared: string | null): Promise<string | null> {
  if (declared) return declared;
  const answer = await fetch(`${origin}/favicon.ico`);
  const isImage =
    answer.ok && answer.status === 200 && /^image\//.test(answer.contentType ?? "") && answer.body.length > 0;
  return isImage ? `${origin}/favicon.ico` : null;
}

/** The home page and, when it answered, its favicon: the crawl's eighth probe, beside the detectors. */
export async function probeHome(
  fetch: SiteFetcher,
  origin: string,
): Promise<{ home: ProbeResponse; faviconUrl: string | null }> {
  const home = await fetch(`${origin}/`);
  const faviconUrl =
    home.ok && home.status === 200
      ? await findFavicon(fetch, origin, extractSiteMetadata(home, origin).faviconUrl)
      : null;
  return { home, faviconUrl };
}

export interface CrawlSiteInput {
  /** The site's origin, e.g. https://example.com. */
  origin: string;
  /** The guarded fetcher, with its time budget already set. */
  fetcher: SiteFetcher;
  /** Shared by every crawl of one Worker invocation, so their fetches together stay in bounds. */
  limiter: ConcurrencyLimiter;
  /** The crawl's place among the crawls sharing `limiter`: earlier crawls' requests go first. */
  rank?: number;
  /**
   * Probe the signals only once the home page answered 2xx, for a caller that keeps nothing but
   * the crawl status of any other crawl (the queue consumer: see recordCrawl). Such a crawl then
   * makes one request instead of ~30. A check shows every signal, so it probes them all
   * at once.
   */
  signalsOnlyOnSuccess?: boolean;
  /**
   * MCP endpoints a list named for this site (a seed import's MCP Registry `remotes` URLs,
   * table crawl_leads): tried as leads for the MCP signal after the site's own documents.
   */
  mcpLeads?: readonly string[];
  /**
   * Run the checklist beside the signals (the default). Off, the crawl makes only the signal
   * detectors' requests: how their own request count is measured (docs/crawling.md, "Request
   * budget"), and `checklist` is null.
   */
  withChecklist?: boolean;
  /**
   * DNS record lookups (DNS over HTTPS, the service's resolver) for the checklist's DNS discovery
   * (`dns_agent_discovery`); without one that check says the records were not looked up.
   */
  dnsRecords?: DnsRecordLookup;
}

/**
 * The requests other requests wait on. The MCP discovery documents, the `/mcp` handshake, both
 * manifest paths (ARD's and the AI Catalog's, read together: a catalog, its control request, a
 * card, an endpoint's four handshake steps) and the home page and robots.txt (which may name the
 * catalog) head the longest chains; the API catalog and the plugin manifest (the documents they
 * name), the OpenAPI common paths (the framework default paths wait for all of them) and the
 * checklist's skills index and protected-resource metadata head chains of one more round.
 */
function roleOfRequests(origin: string): (url: string) => Exclude<RequestRole, "follow-up"> {
  // The home page and robots.txt are read before any catalog lead is probed: the catalog they may
  // name (`rel="ai-catalog"`, `Agentmap:`) comes first (crawl-state.ts, readLinkedAiCatalog).
  const longHeads = new Set(
    ["/", CHECKLIST_PATHS.robots, DEFAULT_MCP_PATH, ...MCP_DISCOVERY_PATHS, ARD_PATH, AI_CATALOG_PATH].map((path) =>
      siteUrl(origin, path),
    ),
  );
  const heads = new Set(
    [
      API_CATALOG_PATH,
      AI_PLUGIN_PATH,
      ...OPENAPI_COMMON_PATHS,
      // The answers that decide whether the framework default paths are guessed (detect-openapi.ts).
      ...JSON_API_PATHS,
      ...LLMS_TXT_PATHS,
      // The checklist's documents that name one more document to fetch.
      CHECKLIST_PATHS.skills,
      CHECKLIST_PATHS.protectedResource,
    ].map((path) => siteUrl(origin, path)),
  );
  return (url) => (longHeads.has(url) ? "long-chain-head" : heads.has(url) ? "chain-head" : "leaf");
}

/** The findings of a crawl that stopped at its home page: never shown or stored (see signalsOnlyOnSuccess). */
function notProbed(): Record<SignalField, SignalFinding> {
  const finding: SignalFinding = {
    status: "error",
    reason: "Not probed: the home page did not answer with success, so only the crawl status is kept.",
    fetched: [],
  };
  return Object.fromEntries(
    SIGNAL_FIELDS.map((field): [SignalField, SignalFinding] => [field, { ...finding, fetched: [] }]),
  ) as Record<SignalField, SignalFinding>;
}

async function detectAll(context: ProbeContext): Promise<Record<SignalField, SignalFinding>> {
  const findings = await Promise.all(SIGNAL_FIELDS.map((field) => SIGNAL_DETECTORS[field](context)));
  return Object.fromEntries(SIGNAL_FIELDS.map((field, i) => [field, findings[i] as SignalFinding])) as Record<
    SignalField,
    SignalFinding
  >;
}

/** Crawls one site and derives everything the index keeps about it. */
export async function crawlSite({
  origin,
  fetcher,
  limiter,
  rank = 0,
  signalsOnlyOnSuccess = false,
  withChecklist = true,
  mcpLeads,
  dnsRecords,
}: CrawlSiteInput): Promise<SiteCrawl> {
  const startedAt = new Date();
  const fetch = createCrawlFetcher(fetcher, limiter, {
    rank,
    roleOf: roleOfRequests(origin),
    maxRequests: CRAWL_REQUEST_BUDGET,
  });
  const context: ProbeContext = { origin, fetch, ...(mcpLeads?.length ? { mcpLeads } : {}) };

  const homeProbe = probeHome(fetch, origin);
  const state = crawlStateOf(context);
  const probe = await probeSignals(context, fetch, state, { signalsOnlyOnSuccess, withChecklist, dnsRecords });
  const { home, faviconUrl } = await homeProbe;
  // Read after the checklist, so its control requests (if it asked any) are listed too.
  const answers = probe.checklistAnswers ? await probe.checklistAnswers : null;
  // MCP endpoints only DNS named: probed within the budget, once the detectors' own are known.
  const dnsMcp = answers ? agentDnsMcpEndpoints(answers) : [];
  if (answers && dnsMcp.length > 0) answers.mcpProbes = await probeNamedMcpEndpoints(fetch.budgeted, dnsMcp);
  const discovery = await findDiscovery(state, probe.probed);
  const site = describeSite(origin, home, probe.signals);
  const checklist = answers ? await judgeChecklist(answers, site.category) : null;

  return {
    origin,
    crawlStatus: site.status,
    crawlNote: site.note,
    signals: probe.signals,
    flags: site.flags,
    agenticScore: agenticScore(site.flags),
    scoreVersion: SCORE_VERSION,
    name: site.name,
    description: site.description,
    faviconUrl,
    category: site.category,
    tags: site.tags,
    discovery,
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    checklist,
    requestCount: fetch.requestsMade(),
    capabilities: capabilitiesOf(
      crawlCapabilityReadings({ signals: probe.signals, discovery, answers, checks: checklist?.checks ?? null }),
    ),
  };
}

type CrawlFetcher = ReturnType<typeof createCrawlFetcher>;

/** What the signal probing gave: the findings, the checklist's answers still arriving, and whether it ran. */
interface SignalProbe {
  signals: Record<SignalField, SignalFinding>;
  checklistAnswers: ReturnType<typeof gatherAnswers> | null;
  /** False when the crawl stopped at a home page that did not answer with success. */
  probed: boolean;
}

/**
 * Runs the detectors (and starts the checklist beside them), unless only a successful home page
 * warrants them and it did not answer so; resolves once the detectors are done.
 */
async function probeSignals(
  context: ProbeContext,
  fetch: CrawlFetcher,
  state: CrawlState,
  {
    signalsOnlyOnSuccess,
    withChecklist,
    dnsRecords,
  }: { signalsOnlyOnSuccess: boolean; withChecklist: boolean; dnsRecords?: DnsRecordLookup },
): Promise<SignalProbe> {
  const { origin } = context;
  if (signalsOnlyOnSuccess && crawlStatusOf(await fetch(`${origin}/`)).status !== "success") {
    return { signals: notProbed(), checklistAnswers: null, probed: false };
  }
  // After a wait for the home page, the detectors' requests are a burst of their own, placed by
  // role like a check's first one. The checklist's requests ride in the same burst; it reads the
  // detectors' discovery (catalog, cards, control requests) once they are done.
  if (signalsOnlyOnSuccess) fetch.newBurst();
  const detected = detectAll(context);
  const checklistAnswers = withChecklist ? startChecklist(context, fetch, state, detected, dnsRecords) : null;
  return { signals: await detected, checklistAnswers, probed: true };
}

/** Starts gathering the checklist's answers; it reads the detectors' findings and discovery once they are done. */
function startChecklist(
  context: ProbeContext,
  fetch: CrawlFetcher,
  state: CrawlState,
  detected: Promise<Record<SignalField, SignalFinding>>,
  dnsRecords?: DnsRecordLookup,
): ReturnType<typeof gatherAnswers> {
  // DNS discovery asks the resolver beside the detectors' requests (never the site itself).
  const dns = dnsRecords ? lookUpAgentDns(dnsRecords, new URL(context.origin).hostname) : null;
  const findings = detected.then(async (found) => ({
    signals: found,
    discovery: await findDiscovery(state, true),
    ...(dns ? { dns: await dns } : {}),
  }));
  return gatherAnswers(
    {
      shared: fetch,
      budgeted: fetch.budgeted,
      early: fetch.budgetedLeaves,
      reserve: fetch.reserve,
      requestsMade: fetch.requestsMade,
    },
    context.origin,
    findings,
    {
      probes: probePaths(CHECKLIST_REQUESTS),
      early: (answers) => earlyFollowUpUrls(CHECKLIST_REQUESTS, answers),
      followUps: (answers) => followUpUrls(CHECKLIST_REQUESTS, answers),
    },
    {
      judge: (answer) => checkCatchAll({ ...context, controls: state.controls }, answer),
      prepare: (shape) => state.controls.answer(shape),
    },
    CRAWL_REQUEST_BUDGET,
    FOLLOW_UP_ROUNDS,
  );
}

/** What the crawl's discovery kept: the AI Catalog (when probed), the server cards, the control requests. */
async function findDiscovery(state: CrawlState, probed: boolean): Promise<CrawlDiscovery> {
  return {
    aiCatalog: probed ? await state.aiCatalog() : null,
    serverCards: [...state.serverCards],
    controls: await state.controls.made(),
  };
}

/** The site as the index describes it: the crawl status, the flags, the home page's metadata, category and tags. */
function describeSite(origin: string, home: ProbeResponse, signals: Record<SignalField, SignalFinding>) {
  const flags = Object.fromEntries(
    SIGNAL_FIELDS.map((field) => [field, signals[field].status === "present"]),
  ) as unknown as Signals;
  const homeAnswer: ProbeAnswer | null = home.ok && home.status === 200 ? home : null;
  const metadata = extractSiteMetadata(homeAnswer, origin);
  const { status, note } = crawlStatusOf(home);
  const apiKinds = signals.has_structured_api.details?.kinds;
  const { category, tags } = classifySite({
    name: metadata.name,
    description: metadata.description,
    bodyText: homeAnswer?.body ?? "",
    signals: flags,
    extraTags: Array.isArray(apiKinds) && apiKinds.includes("graphql") ? ["graphql"] : [],
  });
  return { status, note, flags, name: metadata.name, description: metadata.description, category, tags };
}

/** The evidence shown and stored for each signal, without detector-internal details. */
export function signalEvidence(crawl: SiteCrawl): Record<SignalField, SignalEvidence> {
  return Object.fromEntries(
    SIGNAL_FIELDS.map((field) => {
      const { status, reason, fetched } = crawl.signals[field];
      return [field, { status, reason, fetched }];
    }),
  ) as Record<SignalField, SignalEvidence>;
}
