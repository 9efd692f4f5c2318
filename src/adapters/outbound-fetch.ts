/**
 * The fetcher every crawl, check and MCP probe uses: the guarded fetcher, vetting addresses
 * through DNS over HTTPS, identifying itself with the crawler's User-Agent, within a time budget.
 */
import type { Config } from "../config.ts";
import type { OpenFetcher, VetHost } from "../domain/crawl/types.ts";
import { type AddressResolver, createDohResolver } from "./dns-over-https.ts";
import { createGuardedFetch, vetHostAddresses } from "./guarded-fetch.ts";

/** The crawler's product token: site owners can name it in robots.txt or in their logs. */
export const CRAWLER_PRODUCT = "AgentReadinessBot/1.0";

/** The crawler's stable User-Agent, pointing at the service that sent it. */
export const crawlerUserAgent = (origin: string) => `${CRAWLER_PRODUCT} (+${origin}/)`;

/** The resolver, answering each name from its first lookup (failed lookups are not kept). */
function rememberAnswers(resolver: AddressResolver): AddressResolver {
  const answers = new Map<string, Promise<string[]>>();
  return (host) => {
    let answer = answers.get(host);
    if (!answer) {
      answer = resolver(host);
      answers.set(host, answer);
      answer.catch(() => answers.delete(host));
    }
    return answer;
  };
}

export interface Outbound {
  openFetcher: OpenFetcher;
  vetHost: VetHost;
}

export function createOutbound(config: Pick<Config, "DOH_URL" | "FETCH_ALLOW_PRIVATE">, origin: string): Outbound {
  const resolver = createDohResolver({ url: config.DOH_URL });
  const allowPrivate = config.FETCH_ALLOW_PRIVATE;
  return {
    // One crawl asks about one host some 25 times: each opened fetcher resolves a name once.
    openFetcher: ({ deadline }) =>
      createGuardedFetch({
        resolver: rememberAnswers(resolver),
        allowPrivate,
        userAgent: crawlerUserAgent(origin),
        deadline,
      }),
    vetHost: (hostname) => vetHostAddresses(hostname, { resolver, allowPrivate }),
  };
}
