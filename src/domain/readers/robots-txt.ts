/**
 * The robots.txt reader (RFC 9309): the one place a robots.txt is split into lines and groups.
 * Besides the groups of `user-agent` lines and their `allow`/`disallow` rules it reads the lines
 * agents look for: `Sitemap:` (sitemaps.org), `Content-Signal:` (Cloudflare's Content Signals
 * Policy), AIPREF `Content-Usage:` (draft-ietf-aipref-attach, the vocabulary of
 * draft-ietf-aipref-vocab, parsed as an RFC 9651 dictionary with the structured-headers
 * library), ARD's `Agentmap:` (ARD v0.91) and NLWeb's `Schemamap:`. Unknown lines neither end
 * nor start a group. The signal detector (detect-robots-ai.ts) and the checks read this reading.
 */
import { parseDictionary, Token } from "structured-headers";

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
  /** Every AIPREF `Content-Usage:` rule with at least one `key=y|n` preference, in order. */
  contentUsage: ContentUsageRule[];
  /** Every `key=value` pair of every Content-Signal line as written (lower-cased), valid or not. */
  signalPairs: [string, string][];
  /** Every Content-Usage line's preference expression as written (its leading path removed). */
  usageExpressions: string[];
  /** The `Sitemap:` URLs, as written, in order, without repeats. */
  sitemaps: string[];
  /** The `Agentmap:` URLs (ARD v0.91: where the site's ARD manifest is), as written. */
  agentmaps: string[];
  /** The `Schemamap:` URLs (NLWeb: the site's schema feeds and endpoint), as written. */
  schemamaps: string[];
  /** Every line with a field, in order. */
  lines: RobotsLine[];
  /** The non-empty lines with no `field:` at all. */
  other: string[];
}

/** One AIPREF `Content-Usage:` rule of a robots.txt (draft-ietf-aipref-attach). */
export interface ContentUsageRule {
  /** The path the rule applies to, when it names one; null for the whole group or file. */
  path: string | null;
  /** The preferences, keys lower-cased, `y` or `n` (draft-ietf-aipref-vocab). */
  preferences: Record<string, "y" | "n">;
}

/** One line of a robots.txt: its field name (lower-cased) and value, comments and spaces removed. */
export interface RobotsLine {
  field: string;
  value: string;
}

/**
 * The lines of a robots.txt (RFC 9309 section 2.2: `#` starts a comment, field names are matched
 * case-insensitively): every non-empty line, with its `field: value` split when it has one.
 */
export function robotsLines(text: string): { lines: RobotsLine[]; other: string[] } {
  const lines: RobotsLine[] = [];
  const other: string[] = [];
  for (const rawLine of text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim();
    if (!line) continue;
    const colon = line.indexOf(":");
    if (colon <= 0) {
      other.push(line);
      continue;
    }
    lines.push({ field: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1).trim() });
  }
  return { lines, other };
}

/** Parses robots.txt text (RFC 9309 grouping, plus Content-Signal, Content-Usage and the discovery lines). */
export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  const contentSignals: Record<string, "yes" | "no">[] = [];
  const contentUsage: ContentUsageRule[] = [];
  const signalPairs: [string, string][] = [];
  const usageExpressions: string[] = [];
  const named = { sitemap: [] as string[], agentmap: [] as string[], schemamap: [] as string[] };
  let current: RobotsGroup | null = null;
  let lastWasAgent = false;
  const { lines, other } = robotsLines(text);
  for (const { field, value } of lines) {
    if (field === "sitemap" || field === "agentmap" || field === "schemamap") {
      const first = value.split(/\s+/)[0] ?? "";
      if (first && !named[field].includes(first)) named[field].push(first);
    }
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
      for (const part of value.split(",")) {
        const [key, pairValue] = part.split("=").map((piece) => piece.trim().toLowerCase());
        if (key) signalPairs.push([key, pairValue ?? ""]);
      }
      const signals = parseContentSignal(value);
      if (Object.keys(signals).length > 0) contentSignals.push(signals);
    }
    if (field === "content-usage") {
      // The attach draft lets a rule start with a path the preference is scoped to.
      usageExpressions.push(value.replace(/^[/*]\S*\s+/, ""));
      const rule = parseContentUsage(value);
      if (rule) contentUsage.push(rule);
    }
    // Other lines (sitemap, crawl-delay, unknown) neither end nor start a group.
  }
  return {
    groups,
    contentSignals,
    contentUsage,
    signalPairs,
    usageExpressions,
    sitemaps: named.sitemap,
    agentmaps: named.agentmap,
    schemamaps: named.schemamap,
    lines,
    other,
  };
}

/**
 * An AIPREF `Content-Usage` rule: an optional path (the attach draft starts every robots.txt rule
 * with one; earlier drafts did not), then the preference expression, an RFC 9651 structured-field
 * dictionary whose members are vocabulary keys with the Token `y` or `n`
 * (`Content-Usage: train-ai=n` or `Content-Usage: /blog/ train-ai=n, search=y`). A rule whose
 * expression has no single `y`/`n` preference is null (see readUsagePreferences).
 */
export function parseContentUsage(value: string): ContentUsageRule | null {
  const trimmed = value.trim();
  const pathMatch = /^([/*][^\s]*)\s+(.*)$/.exec(trimmed);
  const path = pathMatch ? pathMatch[1]! : null;
  const expression = pathMatch ? pathMatch[2]! : trimmed;
  const preferences = readUsagePreferences(expression);
  return preferences ? { path, preferences } : null;
}

/**
 * The `y`/`n` preferences of an AIPREF preference expression, as draft-ietf-aipref-vocab's
 * processing algorithm reads it: parsed as a Dictionary (RFC 9651 §4.2.2, with the maintained
 * structured-headers library), a failed parse leaving every preference unknown (so upper-case
 * keys, which the format does not allow, void the whole expression); a member counts only when
 * its value is the Token `y` or `n`; parameters are ignored; a repeated key keeps its last value,
 * as the Dictionary parser does. Null when no preference is stated.
 */
export function readUsagePreferences(expression: string): Record<string, "y" | "n"> | null {
  let dictionary: ReturnType<typeof parseDictionary>;
  try {
    dictionary = parseDictionary(expression);
  } catch {
    return null;
  }
  const preferences: Record<string, "y" | "n"> = {};
  for (const [key, member] of dictionary) {
    const [value] = member;
    if (!(value instanceof Token)) continue;
    const token = value.toString();
    if (token === "y" || token === "n") preferences[key] = token;
  }
  return Object.keys(preferences).length > 0 ? preferences : null;
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
