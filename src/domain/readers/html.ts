/**
 * The HTML reader: a page's start tags (with their attributes) and its text, in document order,
 * through htmlparser2's tokenizer (a maintained, forgiving parser that runs in workerd and Node
 * alike, with no DOM, linear in the page however broken the markup) and the `entities` package for
 * character references. Every module that reads HTML (the site's name and text, schema.org,
 * WebMCP forms, `<link rel>` discovery, the checks) reads it through walkHtml, so a page is never
 * read with two sets of rules.
 */
import { decodeHTML } from "entities";
import { Parser } from "htmlparser2";

/** A start tag: its lower-case name, its attributes (lower-case names, first wins) and, for raw-text elements, their text. */
export interface HtmlTag {
  name: string;
  attributes: Record<string, string>;
  /** The text inside script, style, textarea, title and xmp elements, which holds no tags. */
  content?: string;
}

/** Elements whose content is text, not markup: their tag is reported once, with that text. */
const RAW_TEXT_ELEMENTS = new Set(["script", "style", "textarea", "title", "xmp"]);

/**
 * Walks an HTML document's start tags and text, in order. Comments, doctypes, processing
 * instructions and end tags are skipped; the content of raw-text elements is attached to their
 * tag instead of being walked. Attribute values and text come with character references decoded
 * (script and style content as written, as a browser reads it).
 */
export function walkHtml(html: string, onTag: (tag: HtmlTag) => void, onText?: (text: string) => void): void {
  let raw: HtmlTag | null = null;
  let rawText = "";
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (raw) return;
        const tag: HtmlTag = { name, attributes: { ...attributes } };
        if (RAW_TEXT_ELEMENTS.has(name)) {
          raw = tag;
          rawText = "";
          return;
        }
        onTag(tag);
      },
      ontext(text) {
        if (raw) rawText += text;
        else onText?.(text);
      },
      onclosetag(name) {
        if (!raw || raw.name !== name) return;
        const tag: HtmlTag = raw;
        raw = null;
        onTag({ ...tag, content: rawText });
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
}

/** Decodes HTML character references (numeric and every named one of the HTML standard). */
export function decodeHtmlEntities(text: string): string {
  return text.includes("&") ? decodeHTML(text) : text;
}

/** The value of a `rel` attribute (or Link parameter) as its lower-case relation types. */
export function relationsOf(value: string | undefined): string[] {
  return (value ?? "").toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * The `<link rel>` elements of a page, each target resolved against the page's `<base>` (when it
 * has one) by `resolve`, with its relation types. Used for every relation discovered in HTML
 * (`ai-catalog`, `ard`, `nlweb`, `service-desc`…).
 */
export function htmlLinks(
  html: string,
  pageUrl: string,
  resolve: (href: string, base: string) => string | null,
): { href: string; rels: string[]; type?: string }[] {
  let base = pageUrl;
  const links: { href: string; rels: string[]; type?: string }[] = [];
  walkHtml(html, (tag) => {
    if (tag.name === "base" && tag.attributes.href) base = resolve(tag.attributes.href, base) ?? base;
    if (tag.name !== "link" || !tag.attributes.href || tag.attributes.rel === undefined) return;
    const href = resolve(tag.attributes.href, base);
    if (!href) return;
    const type = tag.attributes.type?.trim().toLowerCase();
    links.push({ href, rels: relationsOf(tag.attributes.rel), ...(type ? { type } : {}) });
  });
  return links;
}
