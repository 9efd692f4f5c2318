/**
 * The registry's paging tokens (ARD §5.3.2, §5.3.5): opaque to clients, stable (the same query at
 * the same place gives the same token), and bound to the query they page through, so a token sent
 * with another query is refused rather than silently paging something else. A token carries a
 * fingerprint of the query, never its text.
 */
import { DomainError } from "../errors.ts";

export interface PagePosition {
  /** Search and Explore page by offset in the ranked set. */
  offset?: number;
  /** List pages by the last entry given: its site's domain and its place in the site's list. */
  after?: { domain: string; position: number };
}

/** FNV-1a (32 bit) of a canonical form of the query: a fingerprint, not a secret. */
export function queryFingerprint(parts: unknown): string {
  const text = canonical(parts);
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonical(member)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

const toBase64Url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

function fromBase64Url(token: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(token)) return null;
  try {
    const binary = atob(token.replaceAll("-", "+").replaceAll("_", "/"));
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(binary, (char) => char.charCodeAt(0)),
    );
  } catch {
    return null;
  }
}

/** The token of a position in the set a query fingerprints. */
export function encodePageToken(fingerprint: string, position: PagePosition): string {
  return toBase64Url(JSON.stringify({ v: 1, f: fingerprint, ...position }));
}

const invalidToken = (why: string) =>
  new DomainError(
    "invalid",
    "INVALID_PAGE_TOKEN",
    `pageToken ${why}; send the pageToken a previous page gave for this query.`,
  );

/** The position a token names; refuses a token that is not ours or belongs to another query. */
export function decodePageToken(token: string, fingerprint: string): PagePosition {
  const text = fromBase64Url(token);
  let value: unknown;
  try {
    value = text === null ? undefined : JSON.parse(text);
  } catch {
    value = undefined;
  }
  const record = value as { v?: unknown; f?: unknown; offset?: unknown; after?: unknown } | undefined;
  if (!record || typeof record !== "object" || record.v !== 1 || typeof record.f !== "string") {
    throw invalidToken("is not a token of this registry");
  }
  if (record.f !== fingerprint) throw invalidToken("belongs to another query");
  if (record.offset !== undefined) {
    if (typeof record.offset !== "number" || !Number.isInteger(record.offset) || record.offset < 0) {
      throw invalidToken("is not a token of this registry");
    }
    return { offset: record.offset };
  }
  const after = record.after as { domain?: unknown; position?: unknown } | undefined;
  if (
    after &&
    typeof after.domain === "string" &&
    typeof after.position === "number" &&
    Number.isInteger(after.position) &&
    after.position >= 0
  ) {
    return { after: { domain: after.domain, position: after.position } };
  }
  throw invalidToken("is not a token of this registry");
}
