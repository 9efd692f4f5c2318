/**
 * The AI-rules-in-robots.txt signal. robots.txt is parsed as RFC 9309 says: `#` comments, field
 * names matched case-insensitively, groups of one or more `user-agent` lines followed by `allow`
 * and `disallow` rules, unknown lines ignored. Present when a group names an AI crawler from
 * AI_USER_AGENTS (product tokens matched case-insensitively, a `/version` suffix allowed), or when
 * a `Content-Signal:` line (Cloudflare's Content Signals Policy) carries at least one
 * `name=yes|no` pair, or an IETF AIPREF `Content-Usage:` rule (draft-ietf-aipref-attach, with
 * the vocabulary of draft-ietf-aipref-vocab) carries at least one `key=y|n` preference. A
 * `User-agent: *` group alone says nothing about AI in particular. A robots.txt that is the
 * site's catch-all answer (see catch-all.ts) is none.
 *
 * The attach draft's other attachment, the `Content-Usage` HTTP header field, counts too when the
 * home page's answer carries one with at least one `y`/`n` preference (the home page is fetched by
 * every crawl, so reading its header costs no request). Both are read as the vocabulary's
 * processing algorithm says: the expression is parsed as an RFC 9651 Dictionary (with the
 * structured-headers library); a parse failure means every preference is unknown; only a Token
 * `y` or `n` is a preference; parameters and unknown keys are ignored; a repeated key keeps its
 * last value.
 *
 * The file is read by the robots.txt reader (readers/robots-txt.ts), as the checklist reads it.
 *
 * Only a 2xx answer's body is read: a 4xx (other than 401, 403 and 429, which are blocks) means no
 * rules, a 5xx is an error, and an HTML page is a soft 404.
 */
import { parseRobotsTxt, readUsagePreferences } from "../readers/robots-txt.ts";
import { decideVerdict, displayUrl, isHtmlAnswer, judgeProbe, type ProbeVerdict, siteUrl } from "./blocking.ts";
import { controlsOf, ruleOutCatchAll } from "./crawl-state.ts";
import { fetchRecord, type ProbeAnswer, type ProbeContext, type ProbeResponse, type SignalFinding } from "./types.ts";

/** Product tokens of crawlers and fetchers that gather content for AI models or AI answers. */
export const AI_USER_AGENTS = [
  "GPTBot",
  "OAI-SearchBot",
  "ChatGPT-User",
  "ClaudeBot",
  "Claude-User",
  "Claude-SearchBot",
  "anthropic-ai",
  "claude-web",
  "PerplexityBot",
  "Perplexity-User",
  "Google-Extended",
  "Google-CloudVertexBot",
  "GoogleOther",
  "Applebot-Extended",
  "CCBot",
  "Bytespider",
  "Amazonbot",
  "meta-externalagent",
  "meta-externalfetcher",
  "FacebookBot",
  "cohere-ai",
  "cohere-training-data-crawler",
  "Diffbot",
  "YouBot",
  "AI2Bot",
  "Ai2Bot-Dolma",
  "omgili",
  "omgilibot",
  "Timpibot",
  "ImagesiftBot",
  "DuckAssistBot",
  "MistralAI-User",
  "Kangaroo Bot",
  "PetalBot",
  "PanguBot",
  "ICC-Crawler",
  "img2dataset",
  "Webzio-Extended",
  "VelenPublicWebCrawler",
  "Novellum",
  "TikTokSpider",
] as const;

const AI_AGENT_BY_TOKEN = new Map<string, string>(AI_USER_AGENTS.map((agent) => [agent.toLowerCase(), agent]));

export {
  type ContentUsageRule,
  parseContentSignal,
  parseContentUsage,
  parseRobotsTxt,
  type RobotsGroup,
  type RobotsTxt,
  readUsagePreferences,
} from "../readers/robots-txt.ts";

/** The AI crawler a user-agent line names, spelt as in AI_USER_AGENTS, or null. */
export function matchAiUserAgent(value: string): string | null {
  const token = value.trim().toLowerCase();
  return AI_AGENT_BY_TOKEN.get(token) ?? AI_AGENT_BY_TOKEN.get(token.split("/")[0]!.trim()) ?? null;
}

function judgeRobotsAnswer(answer: ProbeAnswer, where: string): ProbeVerdict & { details?: Record<string, unknown> } {
  if (isHtmlAnswer(answer)) return { status: "absent", reason: `${where} answered with an HTML page (a soft 404)` };
  const robots = parseRobotsTxt(answer.body);
  const agents: string[] = [];
  for (const group of robots.groups) {
    for (const userAgent of group.userAgents) {
      const agent = matchAiUserAgent(userAgent);
      if (agent && !agents.includes(agent)) agents.push(agent);
    }
  }
  const contentSignals: Record<string, "yes" | "no"> = {};
  for (const line of robots.contentSignals) {
    for (const [name, value] of Object.entries(line)) if (!(name in contentSignals)) contentSignals[name] = value;
  }
  const hasSignals = robots.contentSignals.length > 0;
  const hasUsage = robots.contentUsage.length > 0;
  if (agents.length === 0 && !hasSignals && !hasUsage) {
    return {
      status: "absent",
      reason: `${where} names no AI crawler and has no Content-Signal or Content-Usage line`,
    };
  }
  const parts: string[] = [];
  if (agents.length > 0) {
    const shown = agents.slice(0, 5).join(", ") + (agents.length > 5 ? ", …" : "");
    parts.push(`names ${agents.length === 1 ? "an AI crawler" : `${agents.length} AI crawlers`} (${shown})`);
  }
  if (hasSignals) parts.push("sets Content Signals");
  if (hasUsage) parts.push("states AIPREF Content-Usage preferences");
  return {
    status: "present",
    reason: `${where} ${parts.join(" and ")}`,
    details: {
      agents,
      content_signals: hasSignals ? contentSignals : null,
      content_usage: hasUsage ? robots.contentUsage : null,
    },
  };
}

/** The home page's `Content-Usage` header, read as AI rules when it states a preference. */
function judgeUsageHeader(
  home: ProbeResponse,
  origin: string,
): (ProbeVerdict & { details?: Record<string, unknown> }) | null {
  if (!home.ok || home.status < 200 || home.status >= 300) return null;
  const value = home.headers.get("content-usage");
  if (!value) return null;
  const preferences = readUsagePreferences(value);
  const where = `${displayUrl(home.finalUrl || home.url, origin)}'s Content-Usage header`;
  if (!preferences)
    return { status: "absent", reason: `${where} states no y/n preference that parses as an RFC 9651 dictionary` };
  const shown = Object.entries(preferences)
    .map(([key, pref]) => `${key}=${pref}`)
    .join(", ");
  return {
    status: "present",
    reason: `${where} states AIPREF Content-Usage preferences (${shown})`,
    details: { content_usage_header: preferences },
  };
}

/** Detects AI rules in robots.txt or the home page's Content-Usage header (see the module comment). */
export async function detectRobotsAi(context: ProbeContext): Promise<SignalFinding> {
  const [response, home] = await Promise.all([
    context.fetch(siteUrl(context.origin, "/robots.txt")),
    context.fetch(`${context.origin}/`),
  ]);
  const judged = await ruleOutCatchAll(
    context,
    response,
    judgeProbe(response, context.origin, judgeRobotsAnswer) as ProbeVerdict & { details?: Record<string, unknown> },
  );
  const robots: ProbeVerdict & { details?: Record<string, unknown> } = judged.verdict;
  const header = judgeUsageHeader(home, context.origin);
  const fetched = [response, ...controlsOf([judged])];
  // robots.txt decides when it holds rules; else the header does when it states a preference;
  // else robots.txt's verdict (absent, blocked or error) stands, with the header's reading added.
  let verdict = robots;
  if (robots.status !== "present" && header?.status === "present") {
    verdict = header;
    fetched.push(home);
  } else if (robots.status === "present" && header?.status === "present") {
    verdict = {
      ...robots,
      reason: `${robots.reason}, and ${header.reason}`,
      details: { ...robots.details, ...header.details },
    };
    fetched.push(home);
  } else if (robots.status === "absent" && header) {
    verdict = { ...robots, reason: `${robots.reason}, and ${header.reason}` };
    fetched.push(home);
  }
  const finding: SignalFinding = {
    ...decideVerdict([verdict]),
    fetched: fetched.map(fetchRecord),
  };
  if (verdict.status === "present" && verdict.details) finding.details = verdict.details;
  return finding;
}
