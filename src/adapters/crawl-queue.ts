/**
 * The queue of crawl jobs: a Cloudflare Queue (binding CRAWL_QUEUE) with retries and a
 * dead-letter queue, configured in wrangler.toml. Locally `wrangler dev` and the tests simulate it.
 */
import { z } from "zod";

export const CrawlJobSchema = z.strictObject({
  /** The index's form of the domain. */
  domain: z.string().min(1).max(260),
  /** The origin to crawl, e.g. https://example.com. */
  url: z.url({ protocol: /^https?$/ }),
  reason: z.enum(["submit", "recrawl", "check", "monitor", "import"]),
  requested_at: z.iso.datetime(),
});

export type CrawlJob = z.infer<typeof CrawlJobSchema>;

export interface CrawlQueue {
  /** Enqueues the jobs; throws when the queue is unavailable. */
  send(jobs: CrawlJob[]): Promise<void>;
}

/** A Queue accepts at most 100 messages per sendBatch call. */
const SEND_BATCH_LIMIT = 100;

export class CrawlQueueUnavailableError extends Error {
  constructor() {
    super("the crawl queue binding CRAWL_QUEUE is not configured");
    this.name = "CrawlQueueUnavailableError";
  }
}

export function createCrawlQueue(binding: Queue<CrawlJob> | undefined): CrawlQueue {
  return {
    async send(jobs) {
      if (!binding) throw new CrawlQueueUnavailableError();
      for (let start = 0; start < jobs.length; start += SEND_BATCH_LIMIT) {
        await binding.sendBatch(jobs.slice(start, start + SEND_BATCH_LIMIT).map((body) => ({ body })));
      }
    },
  };
}
