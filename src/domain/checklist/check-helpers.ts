/**
 * What every check shares: how an answer stands before its content is judged, the verdict and
 * judgement shapes with their constructors, and small helpers (placeholders, JSON answers, signal
 * mirrors) used by several families of checks (families/*.ts).
 */
import { type HeaderLink, readLinkHeader } from "../readers/link-header.ts";
import { parseRobotsTxt, type RobotsTxt } from "../readers/robots-txt.ts";
import {
  describeBlock,
  displayUrl,
  isHtmlAnswer,
  isRecord,
  parseJson,
  resolveHttpUrl,
  toSentence,
} from "../signals/blocking.ts";
import type { CatchAllCheck } from "../signals/catch-all.ts";
import { fetchRecord, type ProbeAnswer, type ProbeResponse, type SignalFinding } from "../signals/types.ts";
import type { SignalField } from "../sites/site-fields.ts";
import { answerAt, CHECKLIST_PATHS, type ChecklistAnswers, type ProbedAnswers } from "./checklist-answers.ts";
import type { CheckEvidence, CheckStatus } from "./checklist-definition.ts";

/** A check's verdict before the definition (id, category, title, applies_to) is added. */
export interface Verdict {
  status: CheckStatus;
  reason: string;
  evidence: CheckEvidence[];
  /** The fix: a short instruction, then (after a blank line) a minimal example to copy. */
  fix?: string;
}

/**
 * Where an answer stands: `answer` when it is a 2xx to judge by its content; otherwise the
 * status it gives the check by itself (`absent` for a 4xx other than a refusal, which the caller
 * turns into fail or neutral) and a clause saying why.
 */
export type Standing =
  | { kind: "answer"; answer: ProbeAnswer; where: string }
  | { kind: "absent" | "blocked" | "error"; clause: string };

/**
 * Where the crawl stands: its origin and, when known, what the control requests said of each
 * 2xx answer (see checklist-answers.ts).
 */
export interface StandingScope {
  origin: string;
  catchAll?: ReadonlyMap<string, CatchAllCheck>;
}

/**
 * `scope` with the control requests' findings makes a 2xx answer that is the site's catch-all
 * (the same as its answer to a path that cannot exist) `absent`: a catch-all never passes a check.
 */
export function standingOf(response: ProbeResponse | undefined | null, scope: string | StandingScope): Standing {
  const { origin, catchAll } = typeof scope === "string" ? { origin: scope, catchAll: undefined } : scope;
  if (!response) return { kind: "error", clause: "was not fetched" };
  const where = displayUrl(response.url, origin);
  if (!response.ok) return { kind: "error", clause: `${where} could not be fetched: ${response.message}` };
  const block = describeBlock(response);
  if (block) return { kind: "blocked", clause: `${where} refused the crawler (${block})` };
  if (response.status >= 200 && response.status < 300) {
    const control = catchAll?.get(response.url);
    if (control?.catchAll) return { kind: "absent", clause: `${where} is ${control.clause}` };
    return { kind: "answer", answer: response, where };
  }
  // 501 Not Implemented is an answer (the server does not do this); other 5xx decide nothing.
  if (response.status >= 500 && response.status !== 501)
    return { kind: "error", clause: `${where} answered ${response.status} (a server error)` };
  return { kind: "absent", clause: `${where} answered ${response.status}` };
}

/** True when the control requests showed this answer to be the site's catch-all. */
export function isCatchAll(response: ProbeResponse | undefined | null, scope: StandingScope): boolean {
  return Boolean(response && scope.catchAll?.get(response.url)?.catchAll);
}

export function evidenceOf(...responses: (ProbeResponse | undefined | null)[]): CheckEvidence[] {
  const seen = new Set<string>();
  const records: CheckEvidence[] = [];
  for (const response of responses) {
    if (!response) continue;
    const record = fetchRecord(response);
    const key = `${record.url} ${record.status}`;
    if (seen.has(key)) continue;
    seen.add(key);
    records.push(record);
  }
  return records;
}

export function sentence(clause: string): string {
  return toSentence(clause);
}

/** The links of a Link header (RFC 8288), read by the Link header reader (readers/link-header.ts). */
export function parseLinkHeader(header: string | null, base: string): HeaderLink[] {
  return readLinkHeader(header, base, resolveHttpUrl);
}

/**
 * True for a value a template left unfilled or an example left in place: `{{ … }}`, `<your-…>`,
 * `YOUR_…`, `TODO`, `example.com`, localhost and loopback addresses.
 */
export function isPlaceholder(value: string, origin?: string): boolean {
  // A loopback or .local address is a leftover from development, unless the site itself is served
  // there (a local test site naming its own documents).
  if (origin && sameHost(value, origin)) return /\{\{|\}\}|\{%|<%|\$\{/.test(value);
  return (
    /\{\{|\}\}|\{%|<%|\$\{/.test(value) ||
    /\byour[-_ ]?(?:domain|api|server|url|name|key|agent|host)|\bTODO\b|\bFIXME\b|\bCHANGE[-_ ]?ME\b|\bREPLACE[-_ ]?ME\b/i.test(
      value,
    ) ||
    /^https?:\/\/(?:[^/]*\.)?example\.(?:com|org|net)(?:[:/]|$)/i.test(value) ||
    /^https?:\/\/(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\])(?:[:/]|$)/i.test(value) ||
    /\.local(?:[:/]|$)/i.test(value)
  );
}

/** Same host name, whatever the port: a site served on loopback names its neighbours there too. */
function sameHost(value: string, origin: string): boolean {
  try {
    return new URL(value).hostname === new URL(origin).hostname;
  } catch {
    return false;
  }
}

/** The first placeholder among the string values of a JSON document, or null. */
export function findPlaceholder(value: unknown, origin?: string, depth = 0): string | null {
  if (depth > 8) return null;
  if (typeof value === "string") return isPlaceholder(value, origin) ? value : null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findPlaceholder(item, origin, depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (isRecord(value)) {
    for (const item of Object.values(value)) {
      const found = findPlaceholder(item, origin, depth + 1);
      if (found) return found;
    }
  }
  return null;
}

/** True when the answer's body is a JSON object or array (whatever its media type says). */
export function contentTypeOf(answer: ProbeAnswer): string {
  return answer.contentType ?? "no content type";
}

/** A fix: an instruction and a minimal example, separated by a blank line (the pages split on it). */
export function fixWith(instruction: string, example?: string): string {
  return example ? `${instruction}\n\n${example.trim()}` : instruction;
}

/** The document is not there: fail or neutral, by the site's kind (see run-checklist.ts). */
export interface Missing {
  missing: true;
  reason: string;
  evidence: Verdict["evidence"];
  fix: string;
}

export type Judgement = Verdict | Missing;

/** A check: a pure function of the crawl's answers. */
export type Judge = (answers: ChecklistAnswers) => Judgement;

/** A missing document's judgement (the reason made a sentence). */
export const missing = (reason: string, evidence: Verdict["evidence"], fix: string): Missing => ({
  missing: true,
  reason: sentence(reason),
  evidence,
  fix,
});

/** A verdict (the reason made a sentence; no fix on pass). */
export const verdict = (
  status: Verdict["status"],
  reason: string,
  evidence: Verdict["evidence"],
  fix?: string,
): Verdict => ({
  status,
  reason: sentence(reason),
  evidence,
  ...(status === "pass" || fix === undefined ? {} : { fix }),
});

/** The verdict of a response that gave no 2xx answer: blocked, error, or missing. */
export function unanswered(
  response: ProbeResponse | undefined,
  answers: ChecklistAnswers,
  fix: string,
): Judgement | null {
  const standing = standingOf(response, answers);
  if (standing.kind === "answer") return null;
  const evidence = evidenceOf(response);
  if (standing.kind === "absent") return missing(standing.clause, evidence, fix);
  return verdict(standing.kind, standing.clause, evidence, fix);
}

/** A JSON document from an answer, or null with a clause saying why not. */
export function readJsonAnswer(answer: ProbeAnswer, where: string): { document: unknown } | { problem: string } {
  if (isHtmlAnswer(answer)) return { problem: `${where} answered 200 with an HTML page, not the document` };
  const document = parseJson(answer.body);
  if (document === undefined) return { problem: `${where} is not JSON (${answer.contentType ?? "no content type"})` };
  return { document };
}

/** A JSON error body a catch-all route gives for any path (`{"error": "not found"}`). */
export function isErrorBody(document: unknown): boolean {
  if (!isRecord(document)) return false;
  const keys = Object.keys(document).map((key) => key.toLowerCase());
  return (
    keys.length > 0 && keys.length <= 4 && keys.some((key) => ["error", "errors", "message", "detail"].includes(key))
  );
}

/** A check that mirrors a signal: pass exactly when the signal is present, so the two agree. */
export function mirrorSignal(field: SignalField, fix: string, passNote = ""): Judge {
  return (answers) => {
    const finding: SignalFinding = answers.signals[field];
    const evidence = finding.fetched.map((record) => ({ ...record }));
    if (finding.status === "present") return verdict("pass", `${finding.reason}${passNote}`, evidence);
    if (finding.status === "absent") return missing(finding.reason, evidence, fix);
    return verdict(finding.status, finding.reason, evidence, fix);
  };
}

/** A 2xx answer that is a document: not an HTML page, not the site's catch-all answer. */
export function answered2xx(response: ProbeResponse | undefined, answers: ChecklistAnswers): boolean {
  return Boolean(
    response?.ok &&
      response.status >= 200 &&
      response.status < 300 &&
      !isHtmlAnswer(response) &&
      !isCatchAll(response, answers),
  );
}

/** The site's robots.txt read by the robots.txt reader, when it answered one (text, not HTML); else null. */
export function robotsReading(answers: ProbedAnswers): RobotsTxt | null {
  const response = answerAt(answers, CHECKLIST_PATHS.robots);
  const standing = standingOf(response, answers);
  if (standing.kind !== "answer" || isHtmlAnswer(standing.answer)) return null;
  return parseRobotsTxt(standing.answer.body);
}

/**
 * What became of a document another one names (a catalog entry, a linked authorization server, a
 * skill file): `answer` when it answered 2xx (not the site's catch-all), `dead` when an answer
 * settles that it is not there (a 4xx other than a refusal, 501, the catch-all), and `undecided`
 * when nothing was settled: not fetched, a network or resolver failure, a timeout, a 5xx other
 * than 501, a refusal. Undecided is never absent: a check says `error` for it, never `fail`.
 */
export type Linked =
  | { state: "answer"; answer: ProbeAnswer; where: string }
  | { state: "dead" | "undecided"; clause: string };

export function linkedOutcome(response: ProbeResponse | undefined | null, scope: StandingScope): Linked {
  const standing = standingOf(response, scope);
  if (standing.kind === "answer") return { state: "answer", answer: standing.answer, where: standing.where };
  return { state: standing.kind === "absent" ? "dead" : "undecided", clause: standing.clause };
}
