/**
 * The crawl queue's consumer: crawls each job's site and writes the outcome to the index.
 *
 * - A site that did not answer (unreachable) is retried with exponential backoff; on the last
 *   attempt its status is recorded (signals kept). A site that answered — even blocked or with an
 *   error status — is a result, recorded at once.
 * - A failure of our own (the database) retries the message; after the last retry the queue moves
 *   it to the dead-letter queue, where an operator can inspect and replay it.
 * - A malformed message is logged and acknowledged: retrying cannot fix it.
 * All crawls of one batch share one limit of outbound connections, as Workers require.
 */
import { CrawlJobSchema } from "../adapters/crawl-queue.ts";
import type { DomainContext } from "../domain/context.ts";
import {
  type ConcurrencyLimiter,
  createConcurrencyLimiter,
  WORKER_CONNECTION_LIMIT,
} from "../domain/crawling/crawl-fetcher.ts";
import { CRAWL_TIME_BUDGET_MS, crawlSite } from "../domain/crawling/crawl-site.ts";
import { recordCrawl } from "../domain/crawling/record-crawl.ts";
import type { OpenFetcher } from "../domain/signals/types.ts";

/** The crawl queue's name (the producer's binding is CRAWL_QUEUE); wrangler.toml names its consumer. */
export const CRAWL_QUEUE = "crawl-jobs";

/** Deliveries of one job, first included; wrangler.toml's max_retries is this minus one. */
export const CRAWL_MAX_ATTEMPTS = 4;

/** Crawls of one batch run two at a time: together they keep the 6 connections busy. */
const CRAWLS_AT_ONCE = 2;

/** Delay before the next attempt: 30 s, 60 s, 120 s… at most 15 minutes. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempts - 1), 900);
}

export interface CrawlConsumerContext extends DomainContext {
  openFetcher: OpenFetcher;
}

async function processMessage(ctx: CrawlConsumerContext, message: Message<unknown>, limiter: ConcurrencyLimiter) {
  const parsed = CrawlJobSchema.safeParse(message.body);
  if (!parsed.success) {
    console.error("malformed crawl job dropped", message.id, parsed.error.issues[0]?.message);
    message.ack();
    return;
  }
  const job = parsed.data;
  try {
    const crawl = await crawlSite({
      origin: job.url,
      fetcher: ctx.openFetcher({ deadline: Date.now() + CRAWL_TIME_BUDGET_MS }),
      limiter,
    });
    if (crawl.crawlStatus === "unreachable" && message.attempts < CRAWL_MAX_ATTEMPTS) {
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      return;
    }
    await recordCrawl({ ctx, input: { domain: job.domain, crawl } });
    message.ack();
  } catch (error) {
    console.error("crawl job failed", job.domain, String(error));
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
  }
}

/** Handles one batch of crawl jobs. */
export async function consumeCrawlBatch(ctx: CrawlConsumerContext, batch: MessageBatch<unknown>): Promise<void> {
  const limiter = createConcurrencyLimiter(WORKER_CONNECTION_LIMIT);
  const crawlSlots = createConcurrencyLimiter(CRAWLS_AT_ONCE);
  await Promise.all(batch.messages.map((message) => crawlSlots(() => processMessage(ctx, message, limiter))));
}
