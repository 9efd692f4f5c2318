/**
 * The headers every page for people carries. They follow from what the layout loads: its one
 * inline stylesheet, images from the service's own origin (the icon, badges), and forms that
 * submit to it. A page that runs a script names it by its hash, so exactly that script may run.
 */

export interface PageSecurityOptions {
  /** `sha256-…` sources of the inline scripts this page runs (none by default). */
  scriptHashes?: readonly string[];
}

/**
 * Nothing but the page's own styles, images, forms and named scripts may load or run; no framing;
 * no referrer to other sites. (The service's own pages still get one, and with it an Origin header on
 * their form POSTs: under `no-referrer` a browser sends `Origin: null`, which the cross-origin guard
 * refuses, as it must, since sandboxed frames of other sites send the same.)
 */
export function pageSecurityHeaders(
  origin: string,
  { scriptHashes = [] }: PageSecurityOptions = {},
): Record<string, string> {
  const directives = [
    "default-src 'none'",
    ...(scriptHashes.length ? [`script-src ${scriptHashes.map((hash) => `'${hash}'`).join(" ")}`] : []),
    "style-src 'unsafe-inline'",
    `img-src 'self' ${origin}`,
    `form-action 'self' ${origin}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ];
  return {
    "Content-Security-Policy": directives.join("; "),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
  };
}
