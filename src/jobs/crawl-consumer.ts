/**
 * The crawl queue's consumer: crawls each job's site and writes the outcome to the index.
 *
 * - A site that did not answer (unreachable) is retried with exponential backoff; on the last
 *   attempt its status is recorded (signals kept). A site whose own host name DNS says does not
 *   exist is recorded at once: retrying within minutes cannot bring the name back, and the
 *   recrawl cron backs off on it (unresolved_crawls, enqueue-stale-recrawls.ts). A site that answered — even blocked or with an
 *   error status — is a result, recorded at once.
 * - A failure of our own (the database) retries the message; after the last retry the queue moves
 *   it to the dead-letter queue, where an operator can inspect and replay it.
 * - A malformed message is logged and acknowledged: retrying cannot fix it.
 * All crawls of one batch share one scheduler of the 6 outbound connections Workers allow (see
 * consumeCrawlBatch), and each crawl probes the signals only once its home page answered: the
 * index keeps nothing but the status of any other crawl.
 */
import { CrawlJobSchema } from "../adapters/crawl-queue.ts";
import type { DomainContext } from "../domain/context.ts";
import {
  type ConcurrencyLimiter,
  createConnectionScheduler,
  FIRST_PRIORITY,
  WORKER_CONNECTION_LIMIT,
} from "../domain/crawling/crawl-fetcher.ts";
import { loadMcpLeads } from "../domain/crawling/crawl-leads.ts";
import { CRAWL_TIME_BUDGET_MS, crawlSite } from "../domain/crawling/crawl-site.ts";
import { recordCrawl } from "../domain/crawling/record-crawl.ts";
import type { DnsRecordLookup, OpenFetcher, SiteFetcher } from "../domain/signals/types.ts";

/** The crawl queue's name (the producer's binding is CRAWL_QUEUE); wrangler.toml names its consumer. */
export const CRAWL_QUEUE = "crawl-jobs";

/** Deliveries of one job, first included; wrangler.toml's max_retries is this minus one. */
export const CRAWL_MAX_ATTEMPTS = 4;

/**
 * At most this many crawls of a batch run at once. A new one starts whenever fewer requests wait
 * than two rounds of the connections, so the connections never sit idle while a crawl waits on
 * its chains; the cap bounds how long the oldest crawl's requests can wait behind the others'
 * (each crawl has its own 15 s budget, counted from its start).
 */
const MAX_CRAWLS_AT_ONCE = 4;

/** Delay before the next attempt: 30 s, 60 s, 120 s… at most 15 minutes. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempts - 1), 900);
}

export interface CrawlConsumerContext extends DomainContext {
  openFetcher: OpenFetcher;
  /** DNS record lookups for the checklist's DNS discovery (the service's DoH resolver). */
  dnsRecords?: DnsRecordLookup;
}

/**
 * The fetcher, watched for a failure that says `host` does not exist in DNS. Only the site's own
 * name counts: a redirect to a name that is gone is the site's answer, not a name to back off on.
 */
function watchForUnresolvedName(
  fetcher: SiteFetcher,
  host: string,
): { fetcher: SiteFetcher; unresolved: () => boolean } {
  let unresolved = false;
  return {
    fetcher: async (url, request) => {
      const response = await fetcher(url, request);
      if (!response.ok && response.unresolvedHost === host) unresolved = true;
      return response;
    },
    unresolved: () => unresolved,
  };
}

async function processMessage(
  ctx: CrawlConsumerContext,
  message: Message<unknown>,
  limiter: ConcurrencyLimiter,
  rank: number,
  mcpLeads: ReadonlyMap<string, string[]>,
) {
  const parsed = CrawlJobSchema.safeParse(message.body);
  if (!parsed.success) {
    console.error("malformed crawl job dropped", message.id, parsed.error.issues[0]?.message);
    message.ack();
    return;
  }
  const job = parsed.data;
  try {
    const watched = watchForUnresolvedName(
      ctx.openFetcher({ deadline: Date.now() + CRAWL_TIME_BUDGET_MS }),
      new URL(job.url).hostname,
    );
    const crawl = await crawlSite({
      origin: job.url,
      fetcher: watched.fetcher,
      limiter,
      rank,
      signalsOnlyOnSuccess: true,
      mcpLeads: mcpLeads.get(job.domain),
      ...(ctx.dnsRecords ? { dnsRecords: ctx.dnsRecords } : {}),
    });
    const nameUnresolved = crawl.crawlStatus === "unreachable" && watched.unresolved();
    if (crawl.crawlStatus === "unreachable" && !nameUnresolved && message.attempts < CRAWL_MAX_ATTEMPTS) {
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      return;
    }
    // The database is reached over HTTP: its request takes one of the connections too, ahead of the crawls'.
    await limiter(() => recordCrawl({ ctx, input: { domain: job.domain, crawl, nameUnresolved } }), FIRST_PRIORITY);
    message.ack();
  } catch (error) {
    console.error("crawl job failed", job.domain, String(error));
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
  }
}

/** The domains of a batch's well-formed jobs. */
function domainsOf(messages: readonly Message<unknown>[]): string[] {
  return messages.flatMap((message) => {
    const parsed = CrawlJobSchema.safeParse(message.body);
    return parsed.success ? [parsed.data.domain] : [];
  });
}

/**
 * Handles one batch of crawl jobs. The crawls share one connection scheduler: every crawl's
 * requests that others wait on go first, then the rest, the older crawl first among equals
 * (crawl-fetcher.ts); crawls start one by one as the queue of waiting requests runs low.
 */
export async function consumeCrawlBatch(ctx: CrawlConsumerContext, batch: MessageBatch<unknown>): Promise<void> {
  const scheduler = createConnectionScheduler(WORKER_CONNECTION_LIMIT);
  const messages = [...batch.messages];
  const crawls: Promise<void>[] = [];
  let active = 0;
  let allStarted!: () => void;
  const started = new Promise<void>((resolve) => (allStarted = resolve));
  const startNext = () => {
    const rank = crawls.length;
    const message = messages[rank];
    if (!message) return;
    active++;
    crawls.push(
      processMessage(ctx, message, scheduler.run, rank, mcpLeads).finally(() => {
        active--;
        // A crawl that ended may leave nothing waiting and no connection busy.
        maybeStart();
      }),
    );
    if (crawls.length === messages.length) allStarted();
  };
  const maybeStart = () => {
    const lowOnWork = scheduler.waiting() < 2 * WORKER_CONNECTION_LIMIT;
    if (active === 0 || (active < MAX_CRAWLS_AT_ONCE && lowOnWork)) startNext();
  };
  scheduler.onRelease(maybeStart);
  if (messages.length === 0) return;
  // The MCP endpoints seed imports named for these sites, in one read for the batch. Without them
  // a crawl would record the site as advertising nothing, so a failed read retries the batch.
  let mcpLeads: ReadonlyMap<string, string[]>;
  try {
    mcpLeads = await loadMcpLeads(ctx.db, domainsOf(messages));
  } catch (error) {
    console.error("crawl leads could not be read", String(error));
    for (const message of messages) message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    return;
  }
  startNext();
  await started;
  await Promise.all(crawls);
}
