/**
 * What the checklist reads: the answers of the crawl's fetcher, keyed by request, and the crawl's
 * own findings (the seven signals). Fetching happens here and only here; the checks themselves
 * (check-*.ts) are pure functions of these answers, so they can be tested on real documents
 * without a network.
 *
 * Every request goes through the crawl's memoised fetcher: a document a signal detector already
 * fetched (robots.txt, the home page, the API catalog, the MCP discovery documents) costs nothing
 * more. The follow-ups (documents the first answers name) are capped so a crawl stays within its
 * request budget (see CRAWL_REQUEST_BUDGET).
 */
import { siteUrl } from "../signals/blocking.ts";
import type { ProbeRequest, ProbeResponse, SignalFinding, SiteFetcher } from "../signals/types.ts";
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
  a2aCard: "/.well-known/agent-card.json",
  a2aLegacy: "/.well-known/agent.json",
  skills: "/.well-known/agent-skills/index.json",
  skillsLegacy: "/.well-known/skills/index.json",
  protectedResource: "/.well-known/oauth-protected-resource",
  authorizationServer: "/.well-known/oauth-authorization-server",
  openidConfiguration: "/.well-known/openid-configuration",
} as const;

/** The MCP server card paths read (the MCP detector fetches them: they cost nothing more). */
export const MCP_CARD_PATHS = [
  "/.well-known/mcp.json",
  "/.well-known/mcp/server-card.json",
  "/.well-known/mcp/server-card",
] as const;

/**
 * The first round: the documents of the checklist's own, fetched beside the signal detectors.
 * Kept to nine requests so a crawl stays within its budget whatever the detectors ask (see
 * CRAWL_REQUEST_BUDGET); the older paths (agent.json, skills/index.json, openid-configuration)
 * are asked for only when the current one gave nothing, after the detectors are done.
 */
const FIRST_ROUND = [
  CHECKLIST_PATHS.sitemap,
  CHECKLIST_PATHS.llmsFull,
  CHECKLIST_PATHS.webBotAuth,
  CHECKLIST_PATHS.aiCatalog,
  CHECKLIST_PATHS.a2aCard,
  CHECKLIST_PATHS.skills,
  CHECKLIST_PATHS.protectedResource,
  CHECKLIST_PATHS.authorizationServer,
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
}

/** The answer to a GET of `path` on the site (or of an absolute URL), if it was fetched. */
export function answerAt(answers: ChecklistAnswers, pathOrUrl: string): ProbeResponse | undefined {
  const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : siteUrl(answers.origin, pathOrUrl);
  return answers.get.get(url);
}

/** Documents the signal detectors fetch anyway, read by the checklist at no cost. */
const SHARED = ["/", CHECKLIST_PATHS.robots, CHECKLIST_PATHS.llmsTxt, CHECKLIST_PATHS.apiCatalog, ...MCP_CARD_PATHS];

/** The paths of the first round (the shared ones and the checklist's own). */
export function firstRoundPaths(): string[] {
  return [...new Set<string>([...SHARED, ...FIRST_ROUND])];
}

/** The fetchers the checklist uses: the crawl's, and the same one bounded by the request budget. */
export interface ChecklistFetchers {
  shared: SiteFetcher;
  budgeted: SiteFetcher;
}

/**
 * Fetches every document the checklist reads: the first round beside the detectors, then, once
 * the detectors are done, the documents those answers name and the older paths (`followUps`, a
 * pure function of the answers so far, in order of importance), as the budget allows.
 */
export async function gatherAnswers(
  fetchers: ChecklistFetchers,
  origin: string,
  signals: Promise<Record<SignalField, SignalFinding>>,
  followUps: (answers: ChecklistAnswers) => string[],
): Promise<ChecklistAnswers> {
  const get = new Map<string, ProbeResponse>();
  const sharedPaths = new Set(SHARED.map((path) => siteUrl(origin, path)));
  const fetchInto = async (url: string) => {
    if (get.has(url)) return;
    const fetch = sharedPaths.has(url) ? fetchers.shared : fetchers.budgeted;
    const response = await fetch(url);
    get.set(url, response);
  };
  const firstRound = firstRoundPaths().map((path) => fetchInto(siteUrl(origin, path)));
  const markdown = fetchers.budgeted(siteUrl(origin, "/"), MARKDOWN_REQUEST);
  const [markdownHome, findings] = await Promise.all([markdown, signals, ...firstRound]);
  const answers: ChecklistAnswers = { origin, get, markdownHome, signals: findings };
  // One at a time in order of importance would be slow; all at once, the budget still refuses
  // the last ones offered first-come, which is the order given.
  await Promise.all(followUps(answers).map(fetchInto));
  return answers;
}
