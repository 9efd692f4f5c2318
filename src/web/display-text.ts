/**
 * What a person reads of a site's `name` and `description`. The interface keeps those as the
 * crawl found them, HTML character entities included ("Atlas Inference &amp; Co"), and the API
 * returns them so. A page, an SVG title or an e-mail shows the text the entities stand for: each
 * is decoded here once, by the maintained `entities` package (every named entity of the HTML
 * standard, with and without its semicolon where HTML allows, and every numeric one), and the
 * renderer escapes the result once on output (JSX for pages, escapeXml for SVG, nothing for
 * plain-text mail).
 */
import { decodeHTML } from "entities";

/** The text a stored name or description stands for, entities decoded once. */
export function displayText(stored: string): string {
  return decodeHTML(stored);
}

/** `displayText` of a text that may be absent. */
export function displayTextOrNull(stored: string | null | undefined): string | null {
  return stored == null ? null : displayText(stored);
}
