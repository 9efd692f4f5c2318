/**
 * What every check shares: how an answer stands before its content is judged, the verdict shape,
 * and small readers (Link headers, placeholders) used by several checks.
 */
import { describeBlock, displayUrl, isRecord, resolveHttpUrl, toSentence } from "../signals/blocking.ts";
import { fetchRecord, type ProbeAnswer, type ProbeResponse } from "../signals/types.ts";
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

export function standingOf(response: ProbeResponse | undefined | null, origin: string): Standing {
  if (!response) return { kind: "error", clause: "was not fetched" };
  const where = displayUrl(response.url, origin);
  if (!response.ok) return { kind: "error", clause: `${where} could not be fetched: ${response.message}` };
  const block = describeBlock(response);
  if (block) return { kind: "blocked", clause: `${where} refused the crawler (${block})` };
  if (response.status >= 200 && response.status < 300) return { kind: "answer", answer: response, where };
  if (response.status >= 500) return { kind: "error", clause: `${where} answered ${response.status} (a server error)` };
  return { kind: "absent", clause: `${where} answered ${response.status}` };
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

/** The link relations of a Link header (RFC 8288): each target with its relation types. */
export function parseLinkHeader(
  header: string | null,
  base: string,
): { href: string; rels: string[]; type?: string }[] {
  if (!header) return [];
  const links: { href: string; rels: string[]; type?: string }[] = [];
  const link = /<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"[^"]*"|[^;,\s]*))?)*)/g;
  for (const match of header.matchAll(link)) {
    const params = match[2] ?? "";
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(params);
    const type = /;\s*type\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(params);
    const href = resolveHttpUrl(match[1] ?? "", base);
    if (!href) continue;
    links.push({
      href,
      rels: (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/).filter(Boolean),
      ...(type ? { type: (type[1] ?? type[2] ?? "").toLowerCase() } : {}),
    });
  }
  return links;
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

function sameHost(value: string, origin: string): boolean {
  try {
    return new URL(value).host === new URL(origin).host;
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
