/**
 * Proof instead of status codes: telling a site's catch-all answer apart from a real document.
 *
 * Many sites answer 200 to every path: an HTML app shell, a Markdown "page not found", a JSON
 * `{"error": "not found"}`. A document at a probed path counts only when it is what it claims to
 * be AND differs from what the site answers for a path that cannot exist. That answer is learnt
 * from one control request per shape and crawl, made only when some probe of that shape looks
 * like a hit (a site whose probes all miss pays nothing):
 *
 * - `root`: `/<random>.txt`, for every probed path outside `/.well-known/` (llms.txt, robots.txt,
 *   the OpenAPI paths, documents a catalog names on the site);
 * - `well-known`: `/.well-known/<random>.json`, for every path under `/.well-known/`, which
 *   servers often route apart from the rest of the site.
 *
 * An answer is the same as the catch-all (see sameAsCatchAll) when, after each body has its own
 * path written out of it, the two are identical, or both are JSON of the same structure, or their
 * texts share at least 80% of their word 3-grams, or both were redirected to the same URL.
 * A control that answers anything but 2xx means the site has no catch-all there, so nothing is
 * ruled out.
 */
import { isRecord, parseJson, siteUrl } from "./blocking.ts";
import type { ProbeAnswer, ProbeContext, ProbeResponse } from "./types.ts";

export type ControlShape = "root" | "well-known";

/** How much of two texts' word 3-grams must be shared for one to be the other with a few words changed. */
export const CATCH_ALL_SIMILARITY = 0.8;

/** One control request of a crawl and what it showed. */
export interface ControlAnswer {
  shape: ControlShape;
  /** The URL asked for (a random path that cannot exist). */
  url: string;
  /** The answer's status, or null when the fetch failed. */
  status: number | null;
  contentType: string | null;
  /** True when the site answered 2xx: it has a catch-all for paths of this shape. */
  catchAll: boolean;
}

/** A random path segment no site serves. */
function randomSegment(): string {
  return `${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;
}

/** The control path of a shape. */
export function controlPath(shape: ControlShape): string {
  return shape === "well-known" ? `/.well-known/${randomSegment()}.json` : `/${randomSegment()}.txt`;
}

/** The control shape that applies to a probed URL, or null when it is not on the site's origin. */
export function shapeOf(url: string, origin: string): ControlShape | null {
  if (!url.startsWith(`${origin}/`)) return null;
  return new URL(url).pathname.startsWith("/.well-known/") ? "well-known" : "root";
}

/** Spellings of a URL's path that a catch-all page may echo, longest first. */
function pathSpellings(answer: ProbeAnswer): string[] {
  const spellings = new Set<string>();
  for (const raw of [answer.url, answer.finalUrl]) {
    if (!raw) continue;
    spellings.add(raw);
    const url = new URL(raw);
    const paths = [url.pathname];
    try {
      paths.push(decodeURIComponent(url.pathname));
    } catch {
      // A malformed escape is echoed as is.
    }
    for (const path of paths) {
      spellings.add(`${url.host}${path}`);
      spellings.add(path);
      spellings.add(path.replace(/^\/+/, ""));
      const last = path.split("/").filter(Boolean).pop() ?? "";
      spellings.add(last);
      spellings.add(last.replace(/\.[a-z0-9]+$/i, ""));
    }
  }
  return [...spellings].filter((spelling) => spelling.length >= 3).sort((a, b) => b.length - a.length);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A body with its own path written out (a catch-all that echoes the path asked for says the same
 * thing for every path), digit runs made one (request ids, timestamps, nonces) and white space
 * folded.
 */
export function normaliseBody(answer: ProbeAnswer): string {
  let text = answer.body.replace(/^\uFEFF/, "");
  for (const spelling of pathSpellings(answer)) {
    text = text.replace(new RegExp(escapeRegExp(spelling), "gi"), " requestedpath ");
  }
  return text
    .replace(/[0-9a-f]{16,}/gi, "0")
    .replace(/\d+/g, "0")
    .replace(/\s+/g, " ")
    .trim();
}

/** The structure of a JSON value: its keys and the kinds of their values, not the values. */
function jsonStructure(value: unknown, depth = 0): string {
  if (Array.isArray(value)) return depth > 6 || value.length === 0 ? "[]" : `[${jsonStructure(value[0], depth + 1)}]`;
  if (isRecord(value)) {
    if (depth > 6) return "{}";
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${key}:${jsonStructure(value[key], depth + 1)}`).join(",")}}`;
  }
  return value === null ? "null" : typeof value;
}

function shingles(text: string): Set<string> {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const size = words.length >= 3 ? 3 : 1;
  const set = new Set<string>();
  for (let i = 0; i + size <= words.length; i++) set.add(words.slice(i, i + size).join(" "));
  return set;
}

/** The share of word 3-grams two texts have in common (Jaccard), 1 for two empty texts. */
export function textSimilarity(a: string, b: string): number {
  const left = shingles(a);
  const right = shingles(b);
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const shingle of left) if (right.has(shingle)) shared++;
  return shared / (left.size + right.size - shared);
}

/** True when `answer` is the site's catch-all answer `control` (see the module comment). */
export function sameAsCatchAll(answer: ProbeAnswer, control: ProbeAnswer): boolean {
  if (control.status < 200 || control.status >= 300) return false;
  if (answer.redirects.length > 0 && control.redirects.length > 0 && answer.finalUrl === control.finalUrl) return true;
  const left = normaliseBody(answer);
  const right = normaliseBody(control);
  if (left === right) return true;
  const leftJson = parseJson(answer.body);
  const rightJson = parseJson(control.body);
  if (leftJson !== undefined && rightJson !== undefined && (isRecord(leftJson) || Array.isArray(leftJson))) {
    return jsonStructure(leftJson) === jsonStructure(rightJson);
  }
  return textSimilarity(left, right) >= CATCH_ALL_SIMILARITY;
}

/** The control requests of one crawl, each made at most once, and only when asked for. */
export interface ControlRequests {
  /** The answer to the control of a shape (fetched on first use). */
  answer(shape: ControlShape): Promise<ProbeResponse>;
  /** The controls made so far, for the crawl's result. */
  made(): Promise<ControlAnswer[]>;
}

export function createControlRequests(context: ProbeContext): ControlRequests {
  const asked = new Map<ControlShape, Promise<ProbeResponse>>();
  return {
    answer(shape) {
      let answer = asked.get(shape);
      if (!answer) {
        answer = context.fetch(siteUrl(context.origin, controlPath(shape)));
        asked.set(shape, answer);
      }
      return answer;
    },
    async made() {
      const entries = [...asked.entries()];
      const responses = await Promise.all(entries.map(([, answer]) => answer));
      return entries.map(([shape], i) => {
        const response = responses[i]!;
        return {
          shape,
          url: response.url,
          status: response.ok ? response.status : null,
          contentType: response.ok ? response.contentType : null,
          catchAll: response.ok && response.status >= 200 && response.status < 300,
        };
      });
    },
  };
}

/** What the control said of one answer. */
export interface CatchAllCheck {
  /** True when the answer is the site's catch-all, not a document. */
  catchAll: boolean;
  /** The control asked, when one was (its evidence belongs with the verdict). */
  control: ProbeResponse | null;
  /** A clause naming the control, for reasons: "the same as its answer to /x.txt, a path that cannot exist". */
  clause: string | null;
}

/**
 * Compares an answer that looks like a hit with the site's answer to a path that cannot exist
 * of the same shape. Answers from another origin are not compared (their site's catch-all was
 * not asked).
 */
export async function checkCatchAll(
  context: ProbeContext & { controls: ControlRequests },
  answer: ProbeAnswer,
): Promise<CatchAllCheck> {
  const shape = shapeOf(answer.url, context.origin);
  if (!shape) return { catchAll: false, control: null, clause: null };
  const control = await context.controls.answer(shape);
  if (!control.ok || control.status < 200 || control.status >= 300) {
    return { catchAll: false, control, clause: null };
  }
  const where = control.url.slice(context.origin.length);
  if (sameAsCatchAll(answer, control)) {
    return {
      catchAll: true,
      control,
      clause: `the same as the site's answer to ${where}, a path that cannot exist: a catch-all page, not a document`,
    };
  }
  return { catchAll: false, control, clause: `it differs from the site's catch-all answer to ${where}` };
}

const CONTROL_PATH = /^\/(?:[0-9a-f]{20}\.txt|\.well-known\/[0-9a-f]{20}\.json)$/;

/**
 * True for the URL of a control request (a path `controlPath` makes): reports show these apart
 * from the evidence, since they are asked to learn the catch-all, not to find a document.
 */
export function isControlUrl(url: string): boolean {
  try {
    return CONTROL_PATH.test(new URL(url).pathname);
  } catch {
    return false;
  }
}
