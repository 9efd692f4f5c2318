/**
 * The AI-rules-in-robots.txt signal. robots.txt is parsed as RFC 9309 says: `#` comments, field
 * names matched case-insensitively, groups of one or more `user-agent` lines followed by `allow`
 * and `disallow` rules, unknown lines ignored. Present when a group names an AI crawler from
 * AI_USER_AGENTS (product tokens matched case-insensitively, a `/version` suffix allowed), or when
 * a `Content-Signal:` line (Cloudflare's Content Signals Policy) carries at least one
 * `name=yes|no` pair. A `User-agent: *` group alone says nothing about AI in particular.
 *
 * Only a 2xx answer's body is read: a 4xx (other than 401, 403 and 429, which are blocks) means no
 * rules, a 5xx is an error, and an HTML page is a soft 404.
 */
import { decideVerdict, isHtmlAnswer, judgeProbe, type ProbeVerdict, siteUrl } from "./blocking.ts";
import { fetchRecord, type ProbeAnswer, type ProbeContext, type SignalFinding } from "./types.ts";

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

/** One group of a robots.txt: the agents it names and its rules. */
export interface RobotsGroup {
  userAgents: string[];
  rules: { allow: boolean; path: string }[];
}

/** A parsed robots.txt. */
export interface RobotsTxt {
  groups: RobotsGroup[];
  /** Every `Content-Signal:` line's pairs, in order, names lower-cased. */
  contentSignals: Record<string, "yes" | "no">[];
}

/** Parses robots.txt text (RFC 9309 grouping, plus Content-Signal lines). */
export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  const contentSignals: Record<string, "yes" | "no">[] = [];
  let current: RobotsGroup | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim();
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { userAgents: [], rules: [] };
        groups.push(current);
      }
      if (value) current.userAgents.push(value);
      lastWasAgent = true;
      continue;
    }
    if (field === "allow" || field === "disallow") {
      // Rules before the first user-agent line belong to no group and are ignored.
      if (current) current.rules.push({ allow: field === "allow", path: value });
      lastWasAgent = false;
      continue;
    }
    if (field === "content-signal") {
      const signals = parseContentSignal(value);
      if (Object.keys(signals).length > 0) contentSignals.push(signals);
    }
    // Other lines (sitemap, crawl-delay, unknown) neither end nor start a group.
  }
  return { groups, contentSignals };
}

/** The `name=yes|no` pairs of a Content-Signal value; other pairs are ignored. */
export function parseContentSignal(value: string): Record<string, "yes" | "no"> {
  const signals: Record<string, "yes" | "no"> = {};
  for (const pair of value.split(",")) {
    const match = /^\s*([a-z0-9][a-z0-9_-]*)\s*=\s*(yes|no)\s*$/i.exec(pair);
    if (!match) continue;
    const name = match[1]!.toLowerCase();
    if (!(name in signals)) signals[name] = match[2]!.toLowerCase() as "yes" | "no";
  }
  return signals;
}

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
  if (agents.length === 0 && !hasSignals) {
    return { status: "absent", reason: `${where} names no AI crawler and has no Content-Signal line` };
  }
  const parts: string[] = [];
  if (agents.length > 0) {
    const shown = agents.slice(0, 5).join(", ") + (agents.length > 5 ? ", …" : "");
    parts.push(`names ${agents.length === 1 ? "an AI crawler" : `${agents.length} AI crawlers`} (${shown})`);
  }
  if (hasSignals) parts.push("sets Content Signals");
  return {
    status: "present",
    reason: `${where} ${parts.join(" and ")}`,
    details: { agents, content_signals: hasSignals ? contentSignals : null },
  };
}

/** Detects AI rules in robots.txt (see the module comment). */
export async function detectRobotsAi(context: ProbeContext): Promise<SignalFinding> {
  const response = await context.fetch(siteUrl(context.origin, "/robots.txt"));
  const verdict: ProbeVerdict & { details?: Record<string, unknown> } = judgeProbe(
    response,
    context.origin,
    judgeRobotsAnswer,
  );
  const finding: SignalFinding = { ...decideVerdict([verdict]), fetched: [fetchRecord(response)] };
  if (verdict.details) finding.details = verdict.details;
  return finding;
}
