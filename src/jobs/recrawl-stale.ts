/** The recrawl cron task: enqueues the stalest sites, in one bounded batch per run. */
import type { Config } from "../config.ts";
import { enqueueStaleRecrawls } from "../domain/crawling/enqueue-stale-recrawls.ts";
import type { CrawlContext } from "../domain/crawling/request-crawls.ts";

/** When the recrawl runs: every 10 minutes (wrangler.toml lists it for each environment that runs it). */
export const RECRAWL_CRON = "*/10 * * * *";

/** Queues one bounded batch of the stalest sites for a recrawl. */
export async function recrawlStaleSites(ctx: CrawlContext & { config: Config }): Promise<void> {
  const { stale, queued } = await enqueueStaleRecrawls({
    ctx,
    input: { olderThanHours: ctx.config.RECRAWL_AFTER_HOURS, batchSize: ctx.config.RECRAWL_BATCH_SIZE },
  });
  console.log(`recrawl: ${stale} stale sites found, ${queued} queued`);
}
