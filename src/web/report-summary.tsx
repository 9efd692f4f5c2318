/**
 * What a site's report says first, so its owner knows in a minute where the site stands: the
 * score, the kind of site it was read as, the checklist's tally for that kind, and the three
 * fixes that would help most, in order of effect. And, for a live check that could not read the
 * site at all, what happened and why, with the fix for that cause, instead of a score.
 */
import type { CheckResult, CheckStatus, SiteKind } from "../domain/checklist/checklist-definition.ts";
import { SIGNAL_WEIGHTS } from "../domain/scoring/agentic-score.ts";
import type { SignalEvidence } from "../domain/signals/types.ts";
import { SIGNAL_FIELDS, type SignalField } from "../domain/sites/site-fields.ts";
import { adviceFor, SIGNAL_GUIDES } from "./signal-guide.ts";

/** One fix the summary proposes: what to do, where its card is, and what it is worth. */
export interface TopFix {
  title: string;
  href: string;
  effect: string;
  instruction: string;
}

/** Check statuses a fix can change, the most pressing first. */
const FIXABLE_CHECKS: CheckStatus[] = ["fail", "warn", "blocked", "error"];

/** The first sentence of a text: a summary line never holds the whole instruction. */
export function firstSentence(text: string): string {
  const line = text.split("\n\n")[0] ?? text;
  const match = /^(.+?[.!?])(?:\s|$)/s.exec(line);
  return (match?.[1] ?? line).trim();
}

/**
 * The fixes that would help most, in order of effect: the missing signals by the points they add
 * to the score (most first), then the checks that apply to the site's kind, failures before
 * warnings (the checklist is not part of the score, so a check never outranks points).
 */
export function topFixes(
  signals: Record<SignalField, SignalEvidence>,
  checks: readonly CheckResult[],
  kind: SiteKind,
  count = 3,
): TopFix[] {
  const signalFixes = SIGNAL_FIELDS.filter((field) => signals[field].status !== "present")
    .sort((a, b) => SIGNAL_WEIGHTS[b] - SIGNAL_WEIGHTS[a])
    .map((field): TopFix => {
      const status = signals[field].status as Exclude<SignalEvidence["status"], "present">;
      return {
        title: SIGNAL_GUIDES[field].label,
        href: `#signal-${field}`,
        effect: `+${SIGNAL_WEIGHTS[field]} points`,
        instruction: firstSentence(adviceFor(field, status)),
      };
    });
  const checkFixes = checks
    .filter((check) => check.applies_to.includes(kind) && FIXABLE_CHECKS.includes(check.status) && check.fix)
    .sort((a, b) => FIXABLE_CHECKS.indexOf(a.status) - FIXABLE_CHECKS.indexOf(b.status))
    .map(
      (check): TopFix => ({
        title: check.title,
        href: `#check-${check.id}`,
        effect:
          check.status === "fail"
            ? "failing check"
            : check.status === "warn"
              ? "check with a warning"
              : "undecided check",
        instruction: firstSentence(check.fix ?? ""),
      }),
    );
  return [...signalFixes, ...checkFixes].slice(0, count);
}

/** Why a site could not be read, as a person names it. */
export type UnreachableCause =
  | "no_such_name"
  | "dns_failure"
  | "refused"
  | "timed_out"
  | "tls"
  | "not_public"
  | "redirects"
  | "other";

interface CauseText {
  title: string;
  fix: string;
}

/** Each cause's heading and what the site's owner can do about it. */
export const UNREACHABLE_CAUSES: Record<UnreachableCause, CauseText> = {
  no_such_name: {
    title: "No such name: the domain does not resolve",
    fix: "Check the address for typing mistakes. If it is right, the domain has no address record: add an A or AAAA record for it at its DNS host (`dig +short <name>` should print an address), and check again once it has spread.",
  },
  dns_failure: {
    title: "DNS failure: the name could not be looked up",
    fix: "The domain's name servers did not give an answer. Check that the NS records at the registrar name working name servers and that they answer for this name; then check again in a few minutes.",
  },
  refused: {
    title: "Connection refused or cut",
    fix: "Nothing accepted the connection on the site's port (443 for https, 80 for http). Check that the web server is running and listening there, and that no firewall or bot protection drops the crawler's connection.",
  },
  timed_out: {
    title: "Timed out: no answer in time",
    fix: "The site took longer than the check allows. Check that the server is up and not overloaded, and that no firewall silently drops connections; a home page should answer within a second or two.",
  },
  tls: {
    title: "TLS failure: the secure connection could not be made",
    fix: "The certificate is expired, self-signed, for another name, or its chain is incomplete. Renew it (Let's Encrypt is free), serve the whole chain, and check again.",
  },
  not_public: {
    title: "Not a public address",
    fix: "The name resolves to a private, loopback or reserved address, which the service never fetches. Point the domain at the site's public address.",
  },
  redirects: {
    title: "Too many redirects",
    fix: "The home page redirects in a loop or more than five times. Make it answer, after at most a redirect or two, with the page itself.",
  },
  other: {
    title: "The site could not be read",
    fix: "Make sure the home page answers a plain GET quickly with status 200 and an HTML page; then check again.",
  },
};

/**
 * The cause of a crawl that did not read the site, from its note (src/domain/crawling/crawl-site.ts
 * writes the guarded fetcher's plain words into it: "could not be resolved", "refused the
 * connection", "timed out", "TLS", "does not resolve", "resolves to … which is private", …).
 */
export function unreachableCause(note: string): UnreachableCause {
  if (/does not resolve|NXDOMAIN|no such (?:name|host)/i.test(note)) return "no_such_name";
  if (/could not be resolved|could not resolve|DNS lookup|resolver/i.test(note)) return "dns_failure";
  if (/TLS|certificate|secure connection/i.test(note)) return "tls";
  if (/timed out|did not answer in time|no complete answer within|time budget/i.test(note)) return "timed_out";
  if (
    /refused the connection|refused or cut|closed the connection|not reachable on the network|no connection could be made/i.test(
      note,
    )
  )
    return "refused";
  if (/resolves to .*which is|private|loopback|reserved|not allowed/i.test(note)) return "not_public";
  if (/redirect/i.test(note)) return "redirects";
  return "other";
}
