/**
 * The headers every page for people carries. They follow from what the layout loads: its one
 * inline stylesheet, the icon from the service's own origin, and forms that submit to it.
 */

/** Nothing but the page's own styles, icon and forms may load or run; no framing, no referrer. */
export function pageSecurityHeaders(origin: string): Record<string, string> {
  return {
    "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' ${origin}; form-action 'self' ${origin}; base-uri 'none'; frame-ancestors 'none'`,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  };
}
