/**
 * A site's favicon as the pages show it (GET /icons/{domain}): fetched by the service through the
 * guarded outbound fetcher, never hot-linked, so the site (or its CDN) never learns who looked at
 * a search or a report. Only the icon the index recorded for an indexed domain is fetched: the
 * route takes a domain, never a URL, so it cannot be used to fetch anything else.
 *
 * Only raster formats a browser draws as an image are kept (PNG, ICO, GIF, JPEG, WebP), told by
 * their leading bytes rather than the site's Content-Type, and served with the type those bytes
 * prove. SVG is not kept: it is a document that can carry script and links, and a plain letter
 * shows instead. Icons and their absence are cached a day per domain and icon URL, so a recrawl
 * that finds a new icon is fetched anew.
 */
import { eq } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import type { OpenFetcher } from "../../adapters/outbound/fetch-types.ts";
import type { DomainContext } from "../context.ts";
import { normalizeDomain } from "./domain-name.ts";

/** How long an icon (or the fact that there is none to show) is kept: icons change rarely. */
export const SITE_ICON_CACHE_SECONDS = 86_400;
/** The largest icon kept, in bytes: a favicon is a few kilobytes; more is not an icon. */
export const SITE_ICON_MAX_BYTES = 64 * 1024;
/** One fetch's whole budget: a slow icon must not hold a page's image for long. */
const SITE_ICON_BUDGET_MS = 3000;

/** The image types an icon may be served as, by their leading bytes. */
const SIGNATURES: readonly [type: string, test: (bytes: Uint8Array) => boolean][] = [
  ["image/png", (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ["image/x-icon", (b) => startsWith(b, [0x00, 0x00, 0x01, 0x00])],
  ["image/gif", (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38])],
  ["image/jpeg", (b) => startsWith(b, [0xff, 0xd8, 0xff])],
  ["image/webp", (b) => startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50])],
];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}

/** The image type the bytes prove, or null when they are none of the kept formats. */
export function sniffIconType(bytes: Uint8Array): string | null {
  return SIGNATURES.find(([, test]) => test(bytes))?.[0] ?? null;
}

export type SiteIcon = { found: true; type: string; bytes: Uint8Array<ArrayBuffer> } | { found: false };

type CachedIcon = { type: string; base64: string } | { none: true };

function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function fromBase64(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/** Fetches the icon at `url` and keeps it when it is a small image of a kept format. */
async function fetchIcon(openFetcher: OpenFetcher, url: string): Promise<CachedIcon> {
  const fetch = openFetcher({ deadline: Date.now() + SITE_ICON_BUDGET_MS });
  const answer = await fetch(url, { headers: { accept: "image/*" }, keepBytes: true });
  if (!answer.ok || answer.status !== 200 || !answer.bytes) return { none: true };
  if (answer.bytes.byteLength === 0 || answer.bytes.byteLength > SITE_ICON_MAX_BYTES) return { none: true };
  const type = sniffIconType(answer.bytes);
  return type ? { type, base64: toBase64(answer.bytes) } : { none: true };
}

/** The icon of an indexed site, or `found: false` (not indexed, no icon, or none that can be shown). */
export async function getSiteIcon({
  ctx,
  input,
}: {
  ctx: Pick<DomainContext, "db" | "cache"> & { openFetcher: OpenFetcher };
  input: { domain: string };
}): Promise<SiteIcon> {
  const domain = normalizeDomain(input.domain);
  if (!domain) return { found: false };
  const [row] = await ctx.db
    .select({ faviconUrl: sites.faviconUrl })
    .from(sites)
    .where(eq(sites.domain, domain))
    .limit(1);
  const url = row?.faviconUrl;
  if (!url) return { found: false };
  const { value } = await ctx.cache.remember(`icon:v1:${domain}:${url}`, SITE_ICON_CACHE_SECONDS, () =>
    fetchIcon(ctx.openFetcher, url),
  );
  return "none" in value ? { found: false } : { found: true, type: value.type, bytes: fromBase64(value.base64) };
}
