/**
 * What one crawl (or one queue invocation of crawls) fetches through: the guarded fetcher, with
 * at most `concurrency` requests in flight — a Worker invocation may hold only 6 outbound
 * connections open — and each distinct request made once per crawl, however many detectors
 * need the same document.
 */
import type { ProbeRequest, ProbeResponse, SiteFetcher } from "../signals/types.ts";

/** Cloudflare Workers allow 6 simultaneous outbound connections per invocation. */
export const WORKER_CONNECTION_LIMIT = 6;

/**
 * Runs tasks with at most `limit` of them at a time. Waiting tasks start by priority (lower
 * first), and in the order they were offered within one priority.
 */
export type ConcurrencyLimiter = <T>(task: () => Promise<T>, priority?: number) => Promise<T>;

/** A limiter that also says how much work waits, for whoever decides when to add more. */
export interface ConnectionScheduler {
  run: ConcurrencyLimiter;
  /** Tasks offered and not yet started. */
  waiting(): number;
  /** Tasks running now. */
  running(): number;
  /** Called each time a task ends (its connection is free again). */
  onRelease(listener: () => void): void;
}

interface Waiter {
  priority: number;
  order: number;
  start: () => void;
}

/** A connection scheduler of `limit` slots (see ConnectionScheduler). */
export function createConnectionScheduler(limit: number): ConnectionScheduler {
  let running = 0;
  let offered = 0;
  // Kept sorted by (priority, order): a few hundred waiting tasks at most, so insertion is cheap.
  const waiting: Waiter[] = [];
  const listeners: (() => void)[] = [];
  const enqueue = (waiter: Waiter) => {
    let low = 0;
    let high = waiting.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      const other = waiting[mid]!;
      if (other.priority < waiter.priority || (other.priority === waiter.priority && other.order < waiter.order)) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    waiting.splice(low, 0, waiter);
  };
  // A task that ends hands its slot straight to the next waiting one, so a task offered in
  // between cannot take it too.
  const release = () => {
    const next = waiting.shift();
    if (next) next.start();
    else running--;
    for (const listener of listeners) listener();
  };
  const run: ConcurrencyLimiter = async <T>(task: () => Promise<T>, priority = 0): Promise<T> => {
    const order = offered++;
    if (running >= limit) await new Promise<void>((start) => enqueue({ priority, order, start }));
    else running++;
    try {
      return await task();
    } finally {
      release();
    }
  };
  return {
    run,
    waiting: () => waiting.length,
    running: () => running,
    onRelease: (listener) => void listeners.push(listener),
  };
}

/** A plain limiter of `limit` slots, by priority (see ConcurrencyLimiter). */
export function createConcurrencyLimiter(limit: number): ConcurrencyLimiter {
  return createConnectionScheduler(limit).run;
}

/**
 * How a request sits on the crawl's chains of dependent fetches, which decides its place in the
 * queue for a connection:
 * - `follow-up`: made after the crawl's first burst, so it waited on an earlier answer (a
 *   document a catalog named, the next step of a handshake, the framework default paths) and
 *   lies on one of the crawl's longest chains;
 * - `long-chain-head`: an answer up to four more requests wait on, one after the other (the MCP
 *   discovery documents and the `/mcp` handshake);
 * - `chain-head`: an answer one more round of requests waits on (the home page, the API catalog,
 *   the plugin manifest, the OpenAPI common paths);
 * - `leaf`: nothing waits on its answer.
 */
export type RequestRole = "follow-up" | "long-chain-head" | "chain-head" | "leaf";

const ROLE_RANK: Record<RequestRole, number> = { "follow-up": 0, "long-chain-head": 1, "chain-head": 2, leaf: 3 };

/**
 * Priorities are `role × ROLE_STRIDE + crawl rank`: every crawl's follow-ups before any crawl's
 * chain heads (the longer chains first) before any leaf, and among equals the crawl that started
 * first. Far more crawls
 * than a queue batch holds fit under the stride.
 */
const ROLE_STRIDE = 1_000;

/** The priority of work that must not wait behind the crawls' fetches (the database write). */
export const FIRST_PRIORITY = -1;

export interface CrawlFetcherOptions {
  /** The crawl's place in its batch: 0 for the first started (and for a lone check). */
  rank?: number;
  /** The role of a request made in the crawl's first burst; `leaf` when not given. */
  roleOf?: (url: string, request: ProbeRequest) => Exclude<RequestRole, "follow-up">;
  /**
   * The most requests the crawl may make (memoised repeats are free) through `budgeted`: beyond
   * it such a fetch fails at once with `refused`. The signal detectors' own requests are never
   * refused (the score must not depend on what else a crawl asked), so the checklist, which
   * fetches through `budgeted`, takes what the detectors leave.
   */
  maxRequests?: number;
}

/** The request budget of one crawl or check: every signal detector and check together. */
export const CRAWL_REQUEST_BUDGET = 64;

function requestKey(url: string, request: ProbeRequest): string {
  return JSON.stringify([request.method ?? "GET", url, request.headers ?? {}, request.body ?? null]);
}

/** A crawl's fetcher, which can be told that a new burst of independent requests begins. */
export interface CrawlFetcher extends SiteFetcher {
  /** The requests made until the next macrotask are a burst: placed by their role, not as follow-ups. */
  newBurst(): void;
  /** How many requests the crawl has made so far (memoised repeats not counted). */
  requestsMade(): number;
  /** The same fetcher, refusing a new request once the crawl has made `maxRequests` (less any reserve). */
  budgeted: SiteFetcher;
  /**
   * `budgeted`, its new requests queued as leaves whenever they are made: for requests that
   * depend on an earlier answer but head no chain (an older path asked while the first burst
   * still runs), which must not go before the burst's chain heads as follow-ups do.
   */
  budgetedLeaves: SiteFetcher;
  /** Keeps `count` requests of the budget for requests made later outside it (the control requests). */
  reserve(count: number): void;
}

/**
 * One crawl's fetcher: memoised by method, URL, headers and body, and run through `limiter` at
 * the priority its role and the crawl's rank give it. Streamed reads (readUntil) are never
 * shared: each caller stops its stream on its own terms.
 */
export function createCrawlFetcher(
  fetcher: SiteFetcher,
  limiter: ConcurrencyLimiter,
  options: CrawlFetcherOptions = {},
): CrawlFetcher {
  const rank = Math.min(Math.max(0, options.rank ?? 0), ROLE_STRIDE - 1);
  const answers = new Map<string, Promise<ProbeResponse>>();
  // Requests made after the detectors' first burst depend on an earlier answer: they go before
  // the burst's waiting requests, which shortens the whole crawl.
  let firstBurst = false;
  const newBurst = () => {
    firstBurst = true;
    setTimeout(() => {
      firstBurst = false;
    }, 0);
  };
  newBurst();
  let made = 0;
  let reserved = 0;
  const budget = options.maxRequests ?? Number.POSITIVE_INFINITY;
  const run = (url: string, request: ProbeRequest, leaf: boolean): Promise<ProbeResponse> => {
    made++;
    const role: RequestRole = leaf ? "leaf" : firstBurst ? (options.roleOf?.(url, request) ?? "leaf") : "follow-up";
    return limiter(() => fetcher(url, request), ROLE_RANK[role] * ROLE_STRIDE + rank);
  };
  const fetchAs = (url: string, request: ProbeRequest, leaf: boolean): Promise<ProbeResponse> => {
    if (request.readUntil) return run(url, request, leaf);
    const key = requestKey(url, request);
    let answer = answers.get(key);
    if (!answer) {
      answer = run(url, request, leaf);
      answers.set(key, answer);
    }
    return answer;
  };
  const fetch: SiteFetcher = (url, request = {}) => fetchAs(url, request, false);
  const within =
    (leaf: boolean): SiteFetcher =>
    (url, request = {}) => {
      const known = request.readUntil ? undefined : answers.get(requestKey(url, request));
      if (known || made < budget - reserved) return fetchAs(url, request, leaf);
      return Promise.resolve({
        ok: false,
        url,
        finalUrl: url,
        redirects: [],
        failure: "refused",
        message: `not fetched: the crawl's budget of ${budget} requests was spent`,
      });
    };
  const reserve = (count: number) => {
    reserved = Math.max(0, count);
  };
  return Object.assign(fetch, {
    newBurst,
    requestsMade: () => made,
    budgeted: within(false),
    budgetedLeaves: within(true),
    reserve,
  });
}
