/**
 * What the home page says about the site (name, description, favicon) and its visible text, read
 * with a small HTML tokenizer of our own: it runs in workerd and Node alike, with no DOM, and in
 * time linear in the page however broken the markup.
 */
import { resolveHttpUrl } from "../signals/blocking.ts";
import type { ProbeAnswer } from "../signals/types.ts";

/** A start tag: its lower-case name, its attributes (lower-case names, first wins) and, for raw-text elements, their text. */
export interface HtmlTag {
  name: string;
  attributes: Record<string, string>;
  /** The text inside script, style, textarea and title elements, which holds no tags. */
  content?: string;
}

export interface SiteMetadata {
  name: string;
  description: string;
  faviconUrl: string | null;
}

const RAW_TEXT_ELEMENTS = new Set(["script", "style", "textarea", "title", "xmp"]);
const NAME_MAX = 200;
const DESCRIPTION_MAX = 1000;

const isSpace = (char: string | undefined) =>
  char === " " || char === "\n" || char === "\t" || char === "\r" || char === "\f";
const isLetter = (char: string | undefined) => char !== undefined && /[A-Za-z]/.test(char);

/**
 * Walks an HTML document's start tags and text, in order. Comments, doctypes, processing
 * instructions and end tags are skipped; the content of raw-text elements is attached to their
 * tag instead of being walked.
 */
export function walkHtml(html: string, onTag: (tag: HtmlTag) => void, onText?: (text: string) => void): void {
  const lower = html.toLowerCase();
  let position = 0;
  while (position < html.length) {
    const open = html.indexOf("<", position);
    const textEnd = open < 0 ? html.length : open;
    if (onText && textEnd > position) onText(html.slice(position, textEnd));
    if (open < 0) return;
    if (html.startsWith("<!--", open)) {
      const close = html.indexOf("-->", open + 4);
      position = close < 0 ? html.length : close + 3;
      continue;
    }
    const next = html[open + 1];
    if (next === "/" || next === "!" || next === "?") {
      const close = html.indexOf(">", open + 1);
      position = close < 0 ? html.length : close + 1;
      continue;
    }
    if (!isLetter(next)) {
      if (onText) onText("<");
      position = open + 1;
      continue;
    }
    position = readTag(html, lower, open, onTag);
  }
}

/** Reads one start tag at `open` (and a raw-text element's content); returns where to go on. */
function readTag(html: string, lower: string, open: number, onTag: (tag: HtmlTag) => void): number {
  let position = open + 1;
  while (position < html.length && /[A-Za-z0-9:_-]/.test(html[position]!)) position++;
  const name = lower.slice(open + 1, position);
  const attributes: Record<string, string> = {};
  for (;;) {
    while (isSpace(html[position]) || html[position] === "/") position++;
    if (position >= html.length) return html.length;
    if (html[position] === ">") {
      position++;
      break;
    }
    const nameStart = position;
    while (position < html.length && !isSpace(html[position]) && !"=>/".includes(html[position]!)) position++;
    // A lone "=" or similar junk: step over it rather than loop on it.
    if (position === nameStart) position++;
    const attribute = lower.slice(nameStart, position);
    while (isSpace(html[position])) position++;
    let value = "";
    if (html[position] === "=") {
      position++;
      while (isSpace(html[position])) position++;
      const quote = html[position];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, position + 1);
        if (close < 0) return html.length;
        value = html.slice(position + 1, close);
        position = close + 1;
      } else {
        const valueStart = position;
        while (position < html.length && !isSpace(html[position]) && html[position] !== ">") position++;
        value = html.slice(valueStart, position);
      }
    }
    if (attribute && !(attribute in attributes)) attributes[attribute] = decodeHtmlEntities(value);
  }
  if (!RAW_TEXT_ELEMENTS.has(name)) {
    onTag({ name, attributes });
    return position;
  }
  const close = lower.indexOf(`</${name}`, position);
  const end = close < 0 ? html.length : close;
  onTag({ name, attributes, content: html.slice(position, end) });
  if (close < 0) return html.length;
  const closeEnd = html.indexOf(">", close);
  return closeEnd < 0 ? html.length : closeEnd + 1;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  copy: "©",
  reg: "®",
  trade: "™",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
  middot: "·",
  bull: "•",
  laquo: "«",
  raquo: "»",
};

/** Decodes numeric character references and the common named entities; leaves others as they are. */
export function decodeHtmlEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(
    /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));?/g,
    (entity, dec, hex, named) => {
      if (dec !== undefined || hex !== undefined) {
        const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex, 16);
        const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
        return valid ? String.fromCodePoint(code) : "\uFFFD";
      }
      return NAMED_ENTITIES[(named as string).toLowerCase()] ?? entity;
    },
  );
}

/** Collapses whitespace and cuts to `max` characters without splitting a character. */
function tidyText(text: string, max: number): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  const characters = Array.from(collapsed);
  return characters.length <= max ? collapsed : characters.slice(0, max).join("").trimEnd();
}

function isUsableHomePage(home: ProbeAnswer | null): home is ProbeAnswer {
  return home !== null && home.status >= 200 && home.status < 300;
}

/** The name, description and declared favicon of a site, from its home page answer (see each field's fallback). */
export function extractSiteMetadata(home: ProbeAnswer | null, origin: string): SiteMetadata {
  const host = hostOf(origin);
  if (!isUsableHomePage(home)) return { name: host, description: "", faviconUrl: null };
  const meta = new Map<string, string>();
  const found: { title: string | null } = { title: null };
  let base = home.finalUrl || home.url || `${origin}/`;
  let baseSeen = false;
  const icons: { rank: number; href: string }[] = [];
  walkHtml(home.body, (tag) => {
    if (tag.name === "title" && found.title === null) found.title = decodeHtmlEntities(tag.content ?? "");
    if (tag.name === "meta") {
      const key = (tag.attributes.property ?? tag.attributes.name ?? "").trim().toLowerCase();
      const content = tag.attributes.content;
      if (key && content !== undefined && !meta.has(key) && content.trim() !== "") meta.set(key, content);
    }
    if (tag.name === "base" && !baseSeen && tag.attributes.href) {
      baseSeen = true;
      base = resolveHttpUrl(tag.attributes.href, base) ?? base;
    }
    if (tag.name === "link" && tag.attributes.href) {
      const relations = (tag.attributes.rel ?? "").toLowerCase().split(/\s+/);
      const rank = relations.includes("icon")
        ? 0
        : relations.some((rel) => rel === "apple-touch-icon" || rel === "apple-touch-icon-precomposed")
          ? 1
          : -1;
      if (rank >= 0) icons.push({ rank, href: tag.attributes.href });
    }
  });
  const nameSource = meta.get("og:site_name") ?? meta.get("application-name") ?? found.title ?? "";
  const name = tidyText(nameSource, NAME_MAX) || host;
  const description = tidyText(meta.get("description") ?? meta.get("og:description") ?? "", DESCRIPTION_MAX);
  let faviconUrl: string | null = null;
  for (const icon of icons.sort((a, b) => a.rank - b.rank)) {
    faviconUrl = resolveHttpUrl(icon.href, base);
    if (faviconUrl) break;
  }
  return { name, description, faviconUrl };
}

/**
 * The visible text of an HTML page (scripts, styles and markup left out, entities decoded,
 * whitespace collapsed), cut to `max` characters: what keyword rules read.
 */
export function extractPageText(html: string, max = 20_000): string {
  const parts: string[] = [];
  let length = 0;
  walkHtml(
    html,
    (tag) => {
      if (tag.name === "title" && tag.content) parts.push(" ", tag.content, " ");
      else parts.push(" ");
    },
    (text) => {
      if (length > max * 2) return;
      parts.push(text);
      length += text.length;
    },
  );
  return tidyText(decodeHtmlEntities(parts.join("")), max);
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    return origin;
  }
}
