/**
 * Each indexed site's report as an MCP resource. Its URI is the REST URL of the same JSON,
 * `{base_url}/site/{domain}` (GET /api/v1/site/{domain}), so a resource read over MCP and a plain
 * HTTP GET name and return one document, and a client that cannot read resources can still follow
 * the URI.
 */
import { buildSiteLinks } from "../../domain/descriptor/site-documents.ts";

/** What resources/read returns: the REST site detail's JSON. */
export const SITE_REPORT_MIME_TYPE = "application/json";

/** The RFC 6570 template of the site report resources, for resources/templates/list. */
export function siteReportUriTemplate(origin: string): string {
  return `${buildSiteLinks(origin).apiBase}/site/{domain}`;
}

/** The resource URI of `domain`'s report. */
export function siteReportUri(origin: string, domain: string): string {
  return `${buildSiteLinks(origin).apiBase}/site/${encodeURIComponent(domain)}`;
}

/**
 * The domain a site report URI names, or undefined for a URI that is not one (another origin,
 * another path, an empty or multi-segment domain, a query or fragment).
 */
export function parseSiteReportUri(origin: string, uri: string): string | undefined {
  const prefix = `${buildSiteLinks(origin).apiBase}/site/`;
  if (!uri.startsWith(prefix)) return undefined;
  const rest = uri.slice(prefix.length);
  if (rest === "" || /[/?#]/.test(rest)) return undefined;
  try {
    return decodeURIComponent(rest);
  } catch {
    return undefined;
  }
}
