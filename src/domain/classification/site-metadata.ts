/**
 * What the home page says about the site (name, description, favicon) and its visible text, read
 * through the HTML reader (readers/html.ts), whose walkHtml and decodeHtmlEntities are re-exported
 * here for the modules that import them from this one.
 */
import { walkHtml } from "../readers/html.ts";
import { resolveHttpUrl } from "../signals/blocking.ts";
import type { ProbeAnswer } from "../signals/types.ts";

export { decodeHtmlEntities, type HtmlTag, walkHtml } from "../readers/html.ts";

export interface SiteMetadata {
  name: string;
  description: string;
  faviconUrl: string | null;
}

const NAME_MAX = 200;
const DESCRIPTION_MAX = 1000;

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
    if (tag.name === "title" && found.title === null) found.title = tag.content ?? "";
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
 * The visible text of an HTML page (scripts, styles and markup left out, entities decoded by the reader,
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
  return tidyText(parts.join(""), max);
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    return origin;
  }
}
