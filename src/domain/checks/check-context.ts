/** What the live checks and submissions run against. */
import type { CrawlContext } from "../crawling/request-crawls.ts";
import type { DnsRecordLookup, OpenFetcher, VetHost } from "../signals/types.ts";

export interface CheckContext extends CrawlContext {
  openFetcher: OpenFetcher;
  vetHost: VetHost;
  /** FETCH_ALLOW_PRIVATE: local development and tests only. */
  allowPrivate: boolean;
  /** `host:port`s exempt from the address rules: `npm start`'s local demo sites (LOCAL_DEMO_HOSTS). */
  trustedHosts?: readonly string[];
  /** DNS record lookups for the checklist's DNS discovery (the service's DoH resolver). */
  dnsRecords?: DnsRecordLookup;
}

/**
 * Whether `url` may name a private or loopback address: anywhere with FETCH_ALLOW_PRIVATE, else
 * only on one of the trusted hosts (the local demo sites), host and port alike.
 */
export function mayBePrivate(url: string, ctx: Pick<CheckContext, "allowPrivate" | "trustedHosts">): boolean {
  if (ctx.allowPrivate) return true;
  if (!ctx.trustedHosts?.length) return false;
  try {
    const host = new URL(url.includes("://") ? url : `http://${url}`).host.toLowerCase();
    return ctx.trustedHosts.includes(host);
  } catch {
    return false;
  }
}
