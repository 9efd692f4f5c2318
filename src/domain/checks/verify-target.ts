/**
 * Which endpoint GET /verify-mcp and the verify_mcp tool would probe, decided without any lookup,
 * apart from the probe itself: a caller refuses an unusable URL before it spends quota, and the
 * Workers that only forward a verification (the mcp group's) then bundle no probe.
 */
import { checkTargetUrl } from "../../adapters/outbound/address-policy.ts";
import { targetRefusalError } from "../crawling/crawl-target.ts";
import { DomainError } from "../errors.ts";

/**
 * The endpoint GET /verify-mcp?url= probes. The scheme is optional and https is assumed
 * (`example.com/mcp` is `https://example.com/mcp`); `http://` and `https://` are kept and any
 * other scheme is refused, as are URLs with credentials. A URL with no path, or only `/`, means
 * the conventional endpoint `<origin>/mcp` (its query kept). The fragment is dropped. Whether the
 * address may be fetched is the fetch guards' decision, not this one's.
 */
export function resolveVerifyTarget(input: string): { ok: true; url: string } | { ok: false; reason: string } {
  const text = input.trim();
  if (text === "") return { ok: false, reason: "it is empty" };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text);
  let absolute: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    if (!/^https?:\/\//i.test(text)) return { ok: false, reason: "only http and https URLs can be probed" };
    absolute = text;
  } else if (scheme && !/^[^:/?#]+:\d*(?:[/?#]|$)/.test(text)) {
    // "mailto:x" or "javascript:x" is a scheme; "example.com:8443/mcp" is a host and a port.
    return { ok: false, reason: "only http and https URLs can be probed" };
  } else {
    absolute = text.startsWith("//") ? `https:${text}` : `https://${text}`;
  }
  let url: URL;
  try {
    url = new URL(absolute);
  } catch {
    return { ok: false, reason: "it is not a valid URL" };
  }
  if (!url.hostname) return { ok: false, reason: "it names no host" };
  if (url.username || url.password) return { ok: false, reason: "URLs with credentials are not probed" };
  url.hash = "";
  if (url.pathname === "/" || url.pathname === "") url.pathname = "/mcp";
  return { ok: true, url: url.href };
}

/**
 * The endpoint a verification would probe, or the 400 that refuses `url` without any lookup
 * (unusable, or an address the guards never fetch). Callers may check it before spending quota.
 */
export function parseVerifyTarget(url: string, allowPrivate: boolean): string {
  const target = resolveVerifyTarget(url);
  if (!target.ok) throw new DomainError("invalid", "INVALID_URL", `url is not usable: ${target.reason}`);
  const verdict = checkTargetUrl(target.url, { allowPrivate });
  if (!verdict.ok) throw targetRefusalError(verdict);
  return target.url;
}
