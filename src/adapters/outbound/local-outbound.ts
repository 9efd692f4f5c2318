/**
 * The outbound side of the command-line checker (scripts/readiness.ts), on the site owner's own
 * machine, in Node. The same guarded fetcher as the service, with one difference: the host the
 * owner named may be private or on any port (a preview on the office network, localhost:3000),
 * because they asked for it. Every other host a crawl reaches (a redirect, a document's link)
 * is held to the service's rules, so a public start is never redirected into a private range.
 *
 * Names are resolved with the system's resolver (getaddrinfo, as Node's fetch itself connects):
 * there is no DNS-over-HTTPS endpoint to ask on a laptop or a CI runner, and the answer the guard
 * vets is then the one the connection uses, short of a change between the two.
 */
import { lookup } from "node:dns/promises";
import { createDohRecordLookup, type DnsRecordLookup } from "../dns-records.ts";
import { CRAWLER_PRODUCT } from "./create-outbound.ts";
import { createCheckResolver, type DnsAnswer, type DnsLookup, DnsLookupError } from "./dns-over-https.ts";
import type { OpenFetcher, VetHost } from "./fetch-types.ts";
import { createGuardedFetch, vetHostAddresses } from "./guarded-fetch.ts";

/**
 * How long one system lookup is reused within a check. getaddrinfo gives no TTL, and a check
 * lasts at most 15 s: one lookup per host per check, as a local resolver cache would answer,
 * without refusing a CDN name whose round-robin answer differs between two lookups.
 */
const SYSTEM_LOOKUP_REUSE_SECONDS = 60;

/** The crawler's User-Agent on a person's own machine: the crawler's product token, so robots.txt rules for it apply. */
export const LOCAL_CHECK_USER_AGENT = `${CRAWLER_PRODUCT} (command-line check)`;

/** Resolves a name with the system's resolver; [] when the name does not exist. */
export function createSystemLookup(
  resolve: (host: string) => Promise<{ address: string }[]> = (host) => lookup(host, { all: true, verbatim: true }),
): DnsLookup {
  return async (host): Promise<DnsAnswer> => {
    try {
      const answers = await resolve(host);
      return {
        addresses: [...new Set(answers.map((answer) => answer.address))],
        ttlSeconds: SYSTEM_LOOKUP_REUSE_SECONDS,
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOTFOUND" || code === "EAI_NONAME" || code === "EAI_NODATA") {
        return { addresses: [], ttlSeconds: 0 };
      }
      throw new DnsLookupError(`the system resolver could not look ${host} up (${code ?? "unknown error"})`);
    }
  };
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

export interface LocalOutboundOptions {
  /** The URL the person asked to check: its host is the one exempt from the address rules. */
  url: string;
  lookup?: DnsLookup;
  fetchImpl?: typeof fetch;
  /**
   * A DNS-over-HTTPS JSON endpoint for the checklist's DNS discovery (TXT, SVCB, HTTPS records,
   * which the system resolver cannot all ask for); without one, that check says it did not look.
   */
  dohUrl?: string;
}

/**
 * The outbound side of one command-line check. `allowPrivate` is true because the URL the person
 * named passes whatever its host (the static rules are theirs to waive); the fetcher and the
 * vetting apply it to that host only.
 */
export function createLocalOutbound(options: LocalOutboundOptions): {
  openFetcher: OpenFetcher;
  vetHost: VetHost;
  allowPrivate: boolean;
  dnsRecords?: DnsRecordLookup;
} {
  // A URL that does not parse names no host to exempt; the check refuses it before any fetch.
  const named = parseUrl(options.url);
  const resolver = createCheckResolver(options.lookup ?? createSystemLookup());
  return {
    openFetcher: ({ deadline }) =>
      createGuardedFetch({
        resolver,
        allowPrivate: false,
        ...(named ? { trustedHost: named.host } : {}),
        userAgent: LOCAL_CHECK_USER_AGENT,
        deadline,
        fetchImpl: options.fetchImpl,
      }),
    vetHost: (hostname) =>
      named !== null && hostname.toLowerCase() === named.hostname.toLowerCase()
        ? Promise.resolve(null)
        : vetHostAddresses(hostname, { resolver, allowPrivate: false }),
    allowPrivate: true,
    ...(options.dohUrl
      ? { dnsRecords: createDohRecordLookup({ url: options.dohUrl, fetchImpl: options.fetchImpl }) }
      : {}),
  };
}
