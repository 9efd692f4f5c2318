/**
 * Sites' favicons on the pages: always from the service's own `/icons/{domain}` (never the site's
 * address, so no third party learns who looked), and a plain letter where the index knows no icon.
 * The route answers the same plain letter, as an SVG, when the icon it knows cannot be fetched or
 * shown, so an image is never broken.
 */

/** The path of a site's icon on the service; `{domain}` is one path segment. */
export const SITE_ICON_PATH = "/icons/:domain";

/** The address of a site's icon. */
export function siteIconUrl(origin: string, domain: string): string {
  return `${origin}/icons/${encodeURIComponent(domain)}`;
}

/** The letter a fallback shows: the domain's first letter or digit, upper-case. */
export function iconLetter(domain: string): string {
  return (/[a-z0-9]/i.exec(domain)?.[0] ?? "?").toUpperCase();
}

/** The fallback icon as an SVG image: a grey rounded square with the domain's letter. */
export function fallbackIconSvg(domain: string): string {
  const letter = iconLetter(domain);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32" height="32"><rect width="32" height="32" rx="6" fill="#e2e8f0"/><text x="16" y="22" text-anchor="middle" font-family="system-ui,sans-serif" font-size="17" font-weight="700" fill="#334155">${letter}</text></svg>`;
}

/**
 * A site's icon beside its name: decorative (the name is written next to it), so `alt=""`. Lazy,
 * so a long page of results fetches only the icons in view.
 */
export function SiteIcon({ origin, domain, hasFavicon }: { origin: string; domain: string; hasFavicon: boolean }) {
  if (!hasFavicon) {
    // The letter is drawn by CSS from the attribute, so the name beside it reads (and copies) alone.
    return <span class="site-icon site-icon-fallback" aria-hidden="true" data-letter={iconLetter(domain)} />;
  }
  return <img class="site-icon" src={siteIconUrl(origin, domain)} alt="" width="20" height="20" loading="lazy" />;
}
