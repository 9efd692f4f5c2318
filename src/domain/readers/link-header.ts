/**
 * The Link header reader (RFC 8288), through the maintained `http-link-header` parser: each link
 * of a `Link` header with its target resolved against the page, its relation types (a `rel` may
 * list several, space-separated, matched case-insensitively) and its `type` hint. Every module
 * that reads a Link header (the checks, AI Catalog / ARD and NLWeb discovery) reads it here.
 *
 * The parser refuses a whole header for one malformed link-value; a browser or agent still uses
 * the well-formed ones, so a header that does not parse whole is read one link-value at a time
 * (split before each `<`), the broken ones left out.
 */
import LinkHeader from "http-link-header";
import { relationsOf } from "./html.ts";

/** One link of a Link header. */
export interface HeaderLink {
  /** The target, made absolute against the page it came with. */
  href: string;
  /** The relation types, lower-cased. */
  rels: string[];
  /** The `type` parameter, lower-cased, when given. */
  type?: string;
}

function parseRefs(header: string): LinkHeader.Reference[] {
  try {
    return LinkHeader.parse(header).refs;
  } catch {
    const refs: LinkHeader.Reference[] = [];
    for (const part of header.split(/,(?=\s*<)/)) {
      try {
        refs.push(...LinkHeader.parse(part).refs);
      } catch {
        // A malformed link-value: left out, as a client leaves it out.
      }
    }
    return refs;
  }
}

/**
 * The links of a Link header, each target resolved against `base` by `resolve` (links whose
 * target is not an http(s) URL are left out).
 */
export function readLinkHeader(
  header: string | null | undefined,
  base: string,
  resolve: (href: string, base: string) => string | null,
): HeaderLink[] {
  if (!header) return [];
  const links: HeaderLink[] = [];
  for (const ref of parseRefs(header)) {
    const href = resolve(ref.uri, base);
    if (!href) continue;
    const type = typeof ref.type === "string" ? ref.type.trim().toLowerCase() : "";
    // The parser gives one reference per relation type of a link: they are one link again here.
    const previous = links[links.length - 1];
    if (previous && previous.href === href && (previous.type ?? "") === type) {
      for (const rel of relationsOf(ref.rel)) if (!previous.rels.includes(rel)) previous.rels.push(rel);
      continue;
    }
    links.push({ href, rels: relationsOf(ref.rel), ...(type ? { type } : {}) });
  }
  return links;
}

/** The first link whose relation types include `rel`, or null. */
export function findLink(links: readonly HeaderLink[], rel: string): HeaderLink | null {
  return links.find((link) => link.rels.includes(rel)) ?? null;
}
