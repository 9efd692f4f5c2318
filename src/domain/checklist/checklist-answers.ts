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
  mcpCardLegacy: "/.well-known/mcp-server-card",
  a2aCard: "/.well-known/agent-card.json",
  a2aLegacy: "/.well-known/agent.json",
  skills: "/.well-known/agent-skills/index.json",
  skillsLegacy: "/.well-known/skills/index.json",
  protectedResource: "/.well-known/oauth-protected-resource",
  authorizationServer: "/.well-known/oauth-authorization-server",
  openidConfiguration: "/.well-known/openid-configuration",
} as const;

/** The MCP server card paths scanners probe (the detector fetches the first three too). */
export const MCP_CARD_PATHS = [
  "/.well-known/mcp.json",
  "/.well-known/mcp/server-card.json",
  "/.well-known/mcp/server-card",
  CHECKLIST_PATHS.mcpCardLegacy,
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

/** The first-round paths, fetched beside the signal detectors. */
export function firstRoundPaths(): string[] {
  const paths = new Set<string>(["/", ...Object.values(CHECKLIST_PATHS), ...MCP_CARD_PATHS]);
  return [...paths];
}

/**
 * Fetches every document the checklist reads: the first round at once, then the documents those
 * answers name (`followUps`, a pure function of the answers so far), once.
 */
export async function gatherAnswers(
  fetch: SiteFetcher,
  origin: string,
  signals: Promise<Record<SignalField, SignalFinding>>,
  followUps: (answers: ChecklistAnswers) => string[],
): Promise<ChecklistAnswers> {
  const get = new Map<string, ProbeResponse>();
  const fetchInto = async (url: string) => {
    if (get.has(url)) return;
    const response = await fetch(url);
    get.set(url, response);
  };
  const firstRound = firstRoundPaths().map((path) => fetchInto(siteUrl(origin, path)));
  const markdown = fetch(siteUrl(origin, "/"), MARKDOWN_REQUEST);
  const [markdownHome, findings] = await Promise.all([markdown, signals, ...firstRound]);
  const answers: ChecklistAnswers = { origin, get, markdownHome, signals: findings };
  await Promise.all(followUps(answers).map(fetchInto));
  return answers;
}
