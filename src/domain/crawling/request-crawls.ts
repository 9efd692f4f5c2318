/**
 * Asks for crawls: each domain is queued at most once per dedupe window. The crawl_requests
 * primary key decides between racing requests; only the winner's job is sent to the queue.
 */
import { and, gte, inArray, sql } from "drizzle-orm";
import { crawlRequests } from "../../../db/schema/crawl-requests.ts";
import type { CrawlJob, CrawlQueue } from "../../adapters/crawl-queue.ts";
import type { DomainContext } from "../context.ts";
import { DomainError } from "../errors.ts";

/** A domain queued less than this long ago is not queued again. */
export const CRAWL_DEDUPE_WINDOW_SECONDS = 3600;

export interface CrawlContext extends DomainContext {
  crawlQueue: CrawlQueue;
}

export interface CrawlRequestOutcome {
  domain: string;
  /** True when this request queued a crawl; false when one was queued within the window. */
  queued: boolean;
  /** When the crawl that will serve this request was queued. */
  queuedAt: Date;
}

export async function requestCrawls({
  ctx,
  input,
}: {
  ctx: CrawlContext;
  input: { targets: { domain: string; origin: string }[]; reason: CrawlJob["reason"] };
}): Promise<CrawlRequestOutcome[]> {
  // One row per domain: an upsert may not touch the same row twice.
  const targets = [...new Map(input.targets.map((target) => [target.domain, target])).values()];
  if (targets.length === 0) return [];
  const won = await ctx.db
    .insert(crawlRequests)
    .values(targets.map((target) => ({ domain: target.domain, url: target.origin, reason: input.reason })))
    .onConflictDoUpdate({
      target: crawlRequests.domain,
      set: { url: sql`excluded.url`, reason: sql`excluded.reason`, queuedAt: sql`excluded.queued_at` },
      setWhere: sql`${crawlRequests.queuedAt} < now() - make_interval(secs => ${CRAWL_DEDUPE_WINDOW_SECONDS})`,
    })
    .returning({ domain: crawlRequests.domain, url: crawlRequests.url, queuedAt: crawlRequests.queuedAt });

  if (won.length > 0) {
    try {
      await ctx.crawlQueue.send(
        won.map((row) => ({
          domain: row.domain,
          url: row.url,
          reason: input.reason,
          requested_at: row.queuedAt.toISOString(),
        })),
      );
    } catch (error) {
      // Undo the claim, or the domain would wait out the window without a crawl ever queued.
      await ctx.db.delete(crawlRequests).where(
        and(
          inArray(
            crawlRequests.domain,
            won.map((row) => row.domain),
          ),
          // Dates carry milliseconds and Postgres microseconds: this claim is at or after them.
          gte(crawlRequests.queuedAt, won[0]?.queuedAt ?? new Date(0)),
        ),
      );
      console.error("crawl queue send failed", String(error));
      throw new DomainError(
        "unavailable",
        "CRAWL_QUEUE_UNAVAILABLE",
        "Crawls cannot be queued right now; try again later.",
      );
    }
  }

  const wonByDomain = new Map(won.map((row) => [row.domain, row.queuedAt]));
  const pending = targets.filter((target) => !wonByDomain.has(target.domain)).map((target) => target.domain);
  const earlier =
    pending.length > 0
      ? await ctx.db
          .select({ domain: crawlRequests.domain, queuedAt: crawlRequests.queuedAt })
          .from(crawlRequests)
          .where(inArray(crawlRequests.domain, pending))
      : [];
  const earlierByDomain = new Map(earlier.map((row) => [row.domain, row.queuedAt]));
  return input.targets.map((target) => {
    const queuedAt = wonByDomain.get(target.domain);
    return queuedAt
      ? { domain: target.domain, queued: true, queuedAt }
      : { domain: target.domain, queued: false, queuedAt: earlierByDomain.get(target.domain) ?? new Date() };
  });
}
