/**
 * What every signal detector shares: telling a blocked answer from a missing one, turning one
 * probe's response into a verdict, and combining the verdicts of several probes.
 *
 * Blocked means the site refused the crawler rather than lacking the document: an answer with
 * status 401, 403 or 429, a `cf-mitigated: challenge` or `x-amzn-waf-action: challenge|captcha`
 * header, or a bot-challenge page (Cloudflare "Just a moment...", "Attention Required!" or
 * "Checking your browser"; Imperva/Incapsula incident pages; DataDome, PerimeterX and Akamai
 * "Access Denied" or captcha pages). Vendor markers that only a challenge page carries count at any
 * status; a generic "Access Denied" or captcha title counts only on an error status, so that an
 * ordinary page mentioning a captcha is not mistaken for one.
 */
import type { ProbeAnswer, ProbeResponse, SignalEvidence } from "./types.ts";

export type SignalStatus = SignalEvidence["status"];

/** One probe's contribution to a signal: its status and a short clause explaining it. */
export interface ProbeVerdict {
  status: SignalStatus;
  reason: string;
}

/** How a response stands before its content is judged. */
export type ResponseOutcome = "answered" | "blocked" | "error" | "absent";

/** Challenge pages are small and carry their markers early, so only their start is scanned. */
const CHALLENGE_SCAN_CHARS = 64 * 1024;

/** Markers only a bot-challenge or WAF block page carries. */
const VENDOR_CHALLENGE_MARKERS: readonly [RegExp, string][] = [
  [/window\._cf_chl_opt|cf-browser-verification|cf_chl_prog/i, "a Cloudflare challenge"],
  [/<title>\s*(?:just a moment\.\.\.|attention required! \| cloudflare)\s*<\/title>/i, "a Cloudflare challenge"],
  [/incapsula incident id|request unsuccessful\. incapsula/i, "an Imperva (Incapsula) block page"],
  [/geo\.captcha-delivery\.com|ct\.captcha-delivery\.com/i, "a DataDome captcha"],
  [/id=["']px-captcha["']/i, "a PerimeterX captcha"],
  [/<title>\s*access denied\s*<\/title>[\s\S]{0,2000}you don't have permission to access/i, "an Akamai block page"],
];

/** Titles of generic block pages, trusted only on an error status. */
const GENERIC_CHALLENGE_TITLE =
  /<title>\s*(?:just a moment|attention required|checking your browser|access denied|security check|are you a robot|captcha|verify you are human|request unsuccessful|pardon our interruption)[^<]*<\/title>/i;

/** Why an answer is a refusal of the crawler ("403 Forbidden", "a Cloudflare challenge"), or null. */
export function describeBlock(answer: ProbeAnswer): string | null {
  if (answer.headers.get("cf-mitigated")?.toLowerCase() === "challenge") return "a Cloudflare challenge";
  const awsAction = answer.headers.get("x-amzn-waf-action")?.toLowerCase();
  if (awsAction === "challenge" || awsAction === "captcha") return "an AWS WAF challenge";
  const head = answer.body.slice(0, CHALLENGE_SCAN_CHARS);
  for (const [marker, kind] of VENDOR_CHALLENGE_MARKERS) {
    if (marker.test(head)) return kind;
  }
  if (answer.status === 401) return "401 Unauthorized";
  if (answer.status === 403) return "403 Forbidden";
  if (answer.status === 429) return "429 Too Many Requests";
  if (answer.status >= 400 && GENERIC_CHALLENGE_TITLE.test(head)) return "a bot-challenge page";
  return null;
}

/**
 * True for a status that leaves a question undecided: a server error other than 501. A 501 (Not
 * Implemented), like a 404 or a 405, is the server saying it does not do this: an answer.
 */
export function isUndecidedStatus(status: number): boolean {
  return status >= 500 && status !== 501;
}

/** True when the answer is the site refusing the crawler (see the module comment). */
export function isBlockedAnswer(answer: ProbeAnswer): boolean {
  return describeBlock(answer) !== null;
}

/** Where a response stands: answered (2xx, not a challenge), blocked, error (failure or a 5xx but 501) or absent. */
export function classifyResponse(response: ProbeResponse): ResponseOutcome {
  if (!response.ok) return "error";
  if (isBlockedAnswer(response)) return "blocked";
  if (response.status >= 200 && response.status < 300) return "answered";
  if (isUndecidedStatus(response.status)) return "error";
  return "absent";
}

const STATUS_PRIORITY: readonly SignalStatus[] = ["present", "blocked", "error", "absent"];

/** The status of several probes: present if any proves it, else blocked, else error, else absent. */
export function combineStatus(statuses: readonly SignalStatus[]): SignalStatus {
  for (const status of STATUS_PRIORITY) {
    if (statuses.includes(status)) return status;
  }
  return "absent";
}

/**
 * The verdict of several probes: the first verdict of the combined status, or for an absence
 * every probe's clause joined, since each explains a different place that was looked at.
 */
export function decideVerdict(verdicts: readonly ProbeVerdict[]): ProbeVerdict {
  const status = combineStatus(verdicts.map((verdict) => verdict.status));
  if (status !== "absent") {
    const first = verdicts.find((verdict) => verdict.status === status)!;
    return { status, reason: toSentence(first.reason) };
  }
  return { status, reason: toSentence(verdicts.map((verdict) => verdict.reason).join("; ")) };
}

/**
 * A clause made into one sentence: one final period, and a capital first letter unless it opens
 * with a file or domain name (llms.txt, schema.org), which keeps its own spelling.
 */
export function toSentence(clause: string): string {
  const trimmed = clause.trim().replace(/[.;\s]+$/, "");
  const firstWord = trimmed.split(/\s/, 1)[0] ?? "";
  if (firstWord.includes(".")) return `${trimmed}.`;
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}.`;
}

/** The absolute URL of a path on the site, spelt the same way by every detector. */
export function siteUrl(origin: string, path: string): string {
  return `${origin}${path.startsWith("/") ? path : `/${path}`}`;
}

/** A URL as a site owner reads it in a reason: "the home page", else the path when on the site's origin. */
export function displayUrl(url: string, origin: string): string {
  if (url === `${origin}/`) return "the home page";
  return url.startsWith(`${origin}/`) ? url.slice(origin.length) : url;
}

/** The clause for a response that gave no usable answer, or null when it answered 2xx. */
export function describeUnusable(response: ProbeResponse, origin: string): ProbeVerdict | null {
  const where = displayUrl(response.url, origin);
  if (!response.ok) {
    return { status: "error", reason: `${where} could not be fetched: ${response.message}` };
  }
  const block = describeBlock(response);
  if (block) return { status: "blocked", reason: `${where} refused the crawler (${block})` };
  if (response.status >= 200 && response.status < 300) return null;
  if (isUndecidedStatus(response.status))
    return { status: "error", reason: `${where} answered ${response.status} (a server error)` };
  return { status: "absent", reason: `${where} answered ${response.status}` };
}

/**
 * One probe's verdict: the failure, block or status clause when it gave no usable answer, else
 * what `judge` makes of its 2xx answer (`where` is the URL as shown in reasons).
 */
export function judgeProbe<V extends ProbeVerdict>(
  response: ProbeResponse,
  origin: string,
  judge: (answer: ProbeAnswer, where: string) => V,
): V | ProbeVerdict {
  if (!response.ok) return describeUnusable(response, origin)!;
  return describeUnusable(response, origin) ?? judge(response, displayUrl(response.url, origin));
}

/**
 * Elements an HTML page (or a fragment of one, as app shells and error pages are) opens with. A
 * body that opens with one is HTML whatever its media type says: HTML relabelled as Markdown,
 * text or JSON is still a page, not a document.
 */
const HTML_OPENING =
  /^\uFEFF?\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body|meta|title|link|script|style|noscript|div|main|header|nav|h1|p)\b/i;

/** True when an answer is an HTML page, by its content type or by how its body starts. */
export function isHtmlAnswer(answer: ProbeAnswer): boolean {
  if (answer.contentType === "text/html" || answer.contentType === "application/xhtml+xml") return true;
  return HTML_OPENING.test(answer.body.slice(0, 4096));
}

/** True for JSON media types: application/json, text/json and any `+json` suffix. */
export function isJsonContentType(contentType: string | null): boolean {
  if (!contentType) return false;
  return contentType === "application/json" || contentType === "text/json" || contentType.endsWith("+json");
}

/** JSON.parse without throwing: undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return undefined;
  }
}

/** True for a plain JSON object (not an array or null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An absolute http(s) URL for a reference, resolved against the document that named it, or null. */
export function resolveHttpUrl(reference: string, base: string): string | null {
  try {
    const url = new URL(reference.trim(), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}
