/**
 * The sitemap reader (sitemaps.org protocol 0.9): an XML `<urlset>` or `<sitemapindex>` (read with
 * fast-xml-parser after its validator says the XML is well-formed) or the protocol's text format,
 * one absolute URL per line, with the number of entries that name a URL.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { isRecord } from "../signals/blocking.ts";

const xmlParser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  isArray: (name) => name === "url" || name === "sitemap",
});

/** What a sitemap answer holds: a urlset or an index with their entry counts, or a problem. */
export function readSitemap(
  body: string,
): { kind: "urlset" | "index" | "text"; entries: number } | { problem: string } {
  const trimmed = body.replace(/^\uFEFF/, "").trim();
  if (!trimmed.startsWith("<")) {
    const lines = trimmed
      .split(/\r\n|\r|\n/)
      .map((line) => line.trim())
      .filter(Boolean);
    // The protocol's text format: one absolute URL per line.
    if (lines.length > 0 && lines.every((line) => /^https?:\/\/\S+$/.test(line)))
      return { kind: "text", entries: lines.length };
    return { problem: "is neither XML nor a text sitemap" };
  }
  if (XMLValidator.validate(trimmed) !== true) return { problem: "is not well-formed XML" };
  const document = xmlParser.parse(trimmed) as Record<string, unknown>;
  const urlset = document.urlset;
  const index = document.sitemapindex;
  const count = (items: unknown) =>
    Array.isArray(items)
      ? items.filter((item) => isRecord(item) && typeof item.loc === "string" && /^https?:\/\//.test(item.loc.trim()))
          .length
      : 0;
  if (urlset !== undefined) return { kind: "urlset", entries: isRecord(urlset) ? count(urlset.url) : 0 };
  if (index !== undefined) return { kind: "index", entries: isRecord(index) ? count(index.sitemap) : 0 };
  return { problem: "is XML but neither a <urlset> nor a <sitemapindex>" };
}
