/**
 * The recrawl cron's rule: the stalest sites first, in bounded batches, none queued twice.
 *
 * Two kinds of site are not worth a crawl on every run:
 * - A name reserved so that it never resolves on the public internet (RESERVED_NAME_SUFFIXES: the
 *   demo index lives under `.example`) is never queued: its crawl can only fail.
 * - A site whose host name DNS said does not exist waits longer after each such crawl in a row
 *   (sites.unresolved_crawls, written by record-crawl.ts): twice the recrawl interval after one,
 *   four times after two, at most UNRESOLVED_BACKOFF_LIMIT times; a name that comes back is
 *   crawled again at the latest then, and any other outcome resets the count.
 */
import { and, asc, gt, lt, notExists, type SQL, sql } from "drizzle-orm";
import { crawlRequests } from "../../../db/schema/crawl-requests.ts";
import { sites } from "../../../db/schema/sites.ts";
import { CRAWL_DEDUPE_WINDOW_SECONDS, type CrawlContext, requestCrawls } from "./request-crawls.ts";

/**
 * Names that never resolve on the public internet, matched with their subdomains: RFC 2606's
 * test, example, invalid and localhost top-level names and example.com/.net/.org, RFC 6761's
 * special-use names (the same set), RFC 6762's `local` (multicast DNS), RFC 7686's `onion`,
 * RFC 8375's `home.arpa` and RFC 9476's `alt`.
 */
export const RESERVED_NAME_SUFFIXES = [
  "example",
  "test",
  "invalid",
  "localhost",
  "local",
  "onion",
  "alt",
  "home.arpa",
  "example.com",
  "example.net",
  "example.org",
] as const;

/**
 * The top-level names no live check can reach, which a site's page does not offer to check again:
 * RFC 2606's `example` (the demo index's names; no public delegation) and `invalid` (never exists,
 * RFC 6761). The other reserved names stay checkable: `test` names resolve in the local DNS zone
 * the tests and `npm start` serve, `localhost` is refused by the address rules with its reason,
 * and example.com/.net/.org resolve publicly.
 */
const UNCHECKABLE_NAME_SUFFIXES = ["example", "invalid"] as const;

/** The suffix that makes a site's domain (a host name, with a port for a local fixture) uncheckable, or undefined. */
export function uncheckableNameSuffix(domain: string): string | undefined {
  const name = domain.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  return UNCHECKABLE_NAME_SUFFIXES.find((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/** The most a recrawl interval grows for a name that does not resolve: 16 times (4 crawls in a row). */
export const UNRESOLVED_BACKOFF_LIMIT = 16;

/** The domain column (a host name, with a port for a local fixture) under a reserved name: one anchored pattern. */
function reservedNameCondition(): SQL {
  const alternatives = RESERVED_NAME_SUFFIXES.map((suffix) => suffix.replaceAll(".", "\\.")).join("|");
  return sql`${sites.domain} ~ ${`(^|\\.)(${alternatives})(:[0-9]+)?$`}`;
}

export async function enqueueStaleRecrawls({
  ctx,
  input,
}: {
  ctx: CrawlContext;
  input: { olderThanHours: number; batchSize: number };
}): Promise<{ stale: number; queued: number }> {
  const exponent = Math.log2(UNRESOLVED_BACKOFF_LIMIT);
  // Sites already queued within the window are skipped, so a backed-up queue does not make every
  // run pick the same stalest sites again. The plain interval stays the condition the
  // last_crawled_at index serves; the backoff only narrows it.
  const stale = await ctx.db
    .select({ domain: sites.domain, origin: sites.url })
    .from(sites)
    .where(
      and(
        lt(sites.lastCrawledAt, sql`now() - make_interval(hours => ${input.olderThanHours})`),
        sql`(${sites.unresolvedCrawls} = 0 or ${sites.lastCrawledAt} < now() - make_interval(hours => ${input.olderThanHours}) * power(2, least(${sites.unresolvedCrawls}, ${exponent})))`,
        sql`not (${reservedNameCondition()})`,
        notExists(
          ctx.db
            .select({ one: sql`1` })
            .from(crawlRequests)
            .where(
              and(
                sql`${crawlRequests.domain} = ${sites.domain}`,
                gt(crawlRequests.queuedAt, sql`now() - make_interval(secs => ${CRAWL_DEDUPE_WINDOW_SECONDS})`),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(sites.lastCrawledAt))
    .limit(input.batchSize);
  const outcomes = await requestCrawls({
    ctx,
    input: {
      targets: stale.map((site) => ({ domain: site.domain, origin: new URL(site.origin).origin })),
      reason: "recrawl",
    },
  });
  return { stale: stale.length, queued: outcomes.filter((outcome) => outcome.queued).length };
}
