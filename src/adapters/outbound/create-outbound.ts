/**
 * The fetcher every crawl, check and MCP probe uses: the guarded fetcher, vetting addresses
 * through DNS over HTTPS, identifying itself with the crawler's User-Agent, within a time budget.
 */
import type { Config } from "../../config.ts";
import { createDohRecordLookup, type DnsRecordLookup } from "../dns-records.ts";
import { createCheckResolver, createDohLookup } from "./dns-over-https.ts";
import type { OpenFetcher, VetHost } from "./fetch-types.ts";
import { createGuardedFetch, vetHostAddresses } from "./guarded-fetch.ts";

/** The crawler's product token: site owners can name it in robots.txt or in their logs. */
export const CRAWLER_PRODUCT = "AgentReadinessBot/1.0";

/** The crawler's stable User-Agent, pointing at the service that sent it. */
export const crawlerUserAgent = (origin: string) => `${CRAWLER_PRODUCT} (+${origin}/)`;

export interface Outbound {
  openFetcher: OpenFetcher;
  vetHost: VetHost;
  /** Whether private and loopback addresses may be fetched (FETCH_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** The local demo sites' hosts (`host:port`) exempt from the address rules (LOCAL_DEMO_HOSTS, local only). */
  trustedHosts: readonly string[];
  /** TXT, SVCB and HTTPS lookups through the same resolver (DOH_URL), for the checklist's DNS discovery. */
  dnsRecords: DnsRecordLookup;
}

/**
 * The outbound side of one request or one queue batch. Its vetting and every fetcher it opens
 * share one check resolver, so the guard's lookups of a name within a check are compared (a name
 * that moves to new addresses is refused) and reused only while their TTL lasts (one crawl asks
 * about one host some 25 times).
 */
export function createOutbound(
  config: Pick<Config, "DOH_URL" | "FETCH_ALLOW_PRIVATE"> &
    Partial<Pick<Config, "LOCAL_DEMO_HOSTS" | "DATABASE_LOCAL_HTTP">>,
  origin: string,
): Outbound {
  const resolver = createCheckResolver(createDohLookup({ url: config.DOH_URL }));
  const allowPrivate = config.FETCH_ALLOW_PRIVATE;
  // The local demo sites: trusted only on the local stack, never beside a real database.
  const trustedHosts = config.DATABASE_LOCAL_HTTP ? (config.LOCAL_DEMO_HOSTS ?? []) : [];
  const trustedNames = new Set(trustedHosts.map((host) => new URL(`http://${host}`).hostname));
  return {
    openFetcher: ({ deadline }) =>
      createGuardedFetch({
        resolver,
        allowPrivate,
        trustedHost: trustedHosts,
        userAgent: crawlerUserAgent(origin),
        deadline,
      }),
    vetHost: (hostname) =>
      trustedNames.has(hostname) ? Promise.resolve(null) : vetHostAddresses(hostname, { resolver, allowPrivate }),
    allowPrivate,
    trustedHosts,
    dnsRecords: createDohRecordLookup({ url: config.DOH_URL }),
  };
}
