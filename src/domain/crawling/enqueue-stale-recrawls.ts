/** The recrawl cron's rule: the stalest sites first, in bounded batches, none queued twice. */
import { and, asc, gt, lt, notExists, sql } from "drizzle-orm";
import { crawlRequests } from "../../../db/schema/crawl-requests.ts";
import { sites } from "../../../db/schema/sites.ts";
import { CRAWL_DEDUPE_WINDOW_SECONDS, type CrawlContext, requestCrawls } from "./request-crawls.ts";

export async function enqueueStaleRecrawls({
  ctx,
  input,
}: {
  ctx: CrawlContext;
  input: { olderThanHours: number; batchSize: number };
}): Promise<{ stale: number; queued: number }> {
  // Sites already queued within the window are skipped, so a backed-up queue does not make every
  // run pick the same stalest sites again.
  const stale = await ctx.db
    .select({ domain: sites.domain, origin: sites.url })
    .from(sites)
    .where(
      and(
        lt(sites.lastCrawledAt, sql`now() - make_interval(hours => ${input.olderThanHours})`),
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
