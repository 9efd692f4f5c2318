/**
 * The discoverability family: robots.txt (RFC 9309), the sitemap (sitemaps.org) and the home
 * page's Link header (RFC 8288) naming agent resources.
 * Each check is a pure function of the crawl's answers; its fix texts sit beside it (FIX).
 * How to add a check: docs/architecture.md.
 */

import { parseRobotsTxt } from "../../readers/robots-txt.ts";
import { readSitemap } from "../../readers/sitemap.ts";
import { isHtmlAnswer, resolveHttpUrl } from "../../signals/blocking.ts";
import type { ProbeAnswer } from "../../signals/types.ts";
import {
  evidenceOf,
  fixWith,
  type Judge,
  missing,
  parseLinkHeader,
  robotsReading,
  standingOf,
  unanswered,
  type Verdict,
  verdict,
} from "../check-helpers.ts";
import { answerAt, CHECKLIST_PATHS, type ProbedAnswers } from "../checklist-answers.ts";

const FIX = {
  robots: fixWith(
    "Serve a plain-text robots.txt at /robots.txt (RFC 9309), with Content-Type: text/plain.",
    "User-agent: *\nAllow: /\n\nSitemap: https://example.com/sitemap.xml",
  ),
  sitemap: fixWith(
    "Publish an XML sitemap at /sitemap.xml and name it in robots.txt with a Sitemap: line.",
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url><loc>https://example.com/</loc></url>\n</urlset>',
  ),
  linkHeaders: fixWith(
    "Name your agent resources in the home page's Link header (RFC 8288).",
    'Link: </.well-known/api-catalog>; rel="api-catalog", </openapi.json>; rel="service-desc", </llms.txt>; rel="describedby"; type="text/markdown"',
  ),
} as const;

/** The fields of RFC 9309 and of the extensions agents read: a line with one of these is a robots.txt rule. */
const ROBOTS_FIELDS = new Set([
  "user-agent",
  "allow",
  "disallow",
  "sitemap",
  "crawl-delay",
  "content-signal",
  "content-usage",
  "host",
  "agentmap",
  "schemamap",
]);

export const checkRobotsTxt: Judge = (answers) => {
  const response = answerAt(answers, CHECKLIST_PATHS.robots);
  const early = unanswered(response, answers, FIX.robots);
  if (early) return early;
  const answer = response as ProbeAnswer;
  const evidence = evidenceOf(response);
  if (isHtmlAnswer(answer))
    return verdict("fail", "/robots.txt answered with an HTML page, not a robots.txt", evidence, FIX.robots);
  const robots = parseRobotsTxt(answer.body);
  const lines = [...robots.lines, ...robots.other];
  const known = robots.lines.filter((line) => ROBOTS_FIELDS.has(line.field));
  if (lines.length > 0 && known.length === 0) {
    return verdict(
      "fail",
      "/robots.txt holds no robots.txt rule (no User-agent, Allow, Disallow or Sitemap line)",
      evidence,
      FIX.robots,
    );
  }
  if (lines.length === 0)
    return verdict("warn", "/robots.txt is empty: it allows everything and says nothing", evidence, FIX.robots);
  const groups = known.filter((line) => line.field === "user-agent").length;
  if (answer.contentType && answer.contentType !== "text/plain") {
    return verdict(
      "warn",
      `/robots.txt has ${known.length} rules but is served as ${answer.contentType}, not text/plain`,
      evidence,
      FIX.robots,
    );
  }
  return verdict(
    "pass",
    `/robots.txt is a robots.txt with ${known.length} rules in ${groups} user-agent lines`,
    evidence,
  );
};

export function sitemapCandidates(answers: ProbedAnswers): string[] {
  const robots = robotsReading(answers);
  const base = `${answers.origin}/robots.txt`;
  const named = (robots?.sitemaps ?? []).flatMap((url) => resolveHttpUrl(url, base) ?? []);
  return [...named.slice(0, 1), `${answers.origin}${CHECKLIST_PATHS.sitemap}`];
}

export const checkSitemap: Judge = (answers) => {
  const candidates = sitemapCandidates(answers);
  const responses = candidates.map((url) => answers.get.get(url));
  const evidence = evidenceOf(...responses);
  const problems: string[] = [];
  let blockedOrError: Verdict | null = null;
  for (const [index, response] of responses.entries()) {
    const standing = standingOf(response, answers);
    const named = index === 0 && candidates.length > 1 ? " (named in robots.txt)" : "";
    if (standing.kind !== "answer") {
      if (standing.kind !== "absent" && !blockedOrError)
        blockedOrError = verdict(standing.kind, standing.clause, evidence, FIX.sitemap);
      problems.push(`${standing.clause}${named}`);
      continue;
    }
    if (isHtmlAnswer(standing.answer)) {
      problems.push(`${standing.where}${named} answered with an HTML page`);
      continue;
    }
    if (/\.gz$/i.test(standing.answer.url) || standing.answer.contentType === "application/gzip") {
      return verdict("warn", `${standing.where}${named} is gzip-compressed; it was not read`, evidence, FIX.sitemap);
    }
    const read = readSitemap(standing.answer.body);
    if ("problem" in read) {
      return verdict("fail", `${standing.where}${named} ${read.problem}`, evidence, FIX.sitemap);
    }
    const what = read.kind === "index" ? "a sitemap index" : read.kind === "text" ? "a text sitemap" : "a sitemap";
    if (read.entries === 0)
      return verdict("warn", `${standing.where}${named} is ${what} with no entries`, evidence, FIX.sitemap);
    return verdict("pass", `${standing.where}${named} is ${what} of ${read.entries} entries`, evidence);
  }
  if (blockedOrError) return blockedOrError;
  return missing(`no sitemap: ${problems.join("; ")}`, evidence, FIX.sitemap);
};

const AGENT_RELATIONS = ["service-desc", "service-doc", "api-catalog", "describedby", "service-meta"];

export const checkLinkHeaders: Judge = (answers) => {
  const home = answerAt(answers, "/");
  const early = unanswered(home, answers, FIX.linkHeaders);
  if (early) return early;
  const answer = home as ProbeAnswer;
  const evidence = evidenceOf(home);
  const links = parseLinkHeader(answer.headers.get("link"), answer.finalUrl || answer.url);
  const agent = links.filter(
    (link) =>
      link.rels.some((rel) => AGENT_RELATIONS.includes(rel)) ||
      /\/llms(?:-full)?\.txt$/i.test(new URL(link.href).pathname),
  );
  if (agent.length > 0) {
    const names = [...new Set(agent.flatMap((link) => link.rels.filter((rel) => AGENT_RELATIONS.includes(rel))))];
    const shown = names.length > 0 ? names.join(", ") : "an llms.txt";
    return verdict(
      "pass",
      `the home page's Link header names ${agent.length === 1 ? "an agent resource" : `${agent.length} agent resources`} (${shown})`,
      evidence,
    );
  }
  if (links.length > 0) {
    return missing(
      `the home page's Link header names no agent resource (only ${[...new Set(links.flatMap((link) => link.rels))].join(", ") || "links without rel"})`,
      evidence,
      FIX.linkHeaders,
    );
  }
  return missing("the home page sends no Link header", evidence, FIX.linkHeaders);
};
