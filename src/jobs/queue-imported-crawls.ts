/**
 * The drain of seed imports (src/domain/crawling/crawl-leads.ts): on the recrawl's schedule, the
 * leads whose `crawl_after` has come are sent to the crawl queue, at most IMPORT_CRAWL_BATCH_SIZE
 * a run, so an import of a long list becomes crawls at its own rate rather than all at once.
 */
import type { Config } from "../config.ts";
import { queueDueLeads } from "../domain/crawling/crawl-leads.ts";
import type { CrawlContext } from "../domain/crawling/request-crawls.ts";

/** Queues one bounded batch of the due imported leads. */
export async function queueImportedCrawls(ctx: CrawlContext & { config: Config }): Promise<void> {
  const { due, queued } = await queueDueLeads({ ctx, input: { limit: ctx.config.IMPORT_CRAWL_BATCH_SIZE } });
  console.log(`imported leads: ${due} due, ${queued} crawls queued`);
}
