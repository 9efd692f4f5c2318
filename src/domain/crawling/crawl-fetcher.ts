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
 * Runs tasks with at most `limit` of them at a time. Waiting tasks start in the order they were
 * offered, except that urgent ones go before every waiting task that is not.
 */
export type ConcurrencyLimiter = <T>(task: () => Promise<T>, urgent?: boolean) => Promise<T>;

export function createConcurrencyLimiter(limit: number): ConcurrencyLimiter {
  let running = 0;
  const urgentWaiting: (() => void)[] = [];
  const waiting: (() => void)[] = [];
  const release = () => {
    running--;
    (urgentWaiting.shift() ?? waiting.shift())?.();
  };
  return async <T>(task: () => Promise<T>, urgent = false): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => (urgent ? urgentWaiting : waiting).push(resolve));
    running++;
    try {
      return await task();
    } finally {
      release();
    }
  };
}

function requestKey(url: string, request: ProbeRequest): string {
  return JSON.stringify([request.method ?? "GET", url, request.headers ?? {}, request.body ?? null]);
}

/**
 * One crawl's fetcher: memoised by method, URL, headers and body, and run through `limiter`.
 * Streamed reads (readUntil) are never shared: each caller stops its stream on its own terms.
 */
export function createCrawlFetcher(fetcher: SiteFetcher, limiter: ConcurrencyLimiter): SiteFetcher {
  const answers = new Map<string, Promise<ProbeResponse>>();
  // Requests made after the detectors' first burst depend on an earlier answer (a document a
  // catalog named, the next step of a handshake): they lie on the crawl's longest chains, so they
  // go before the burst's waiting requests, which shortens the whole crawl.
  let firstBurst = true;
  setTimeout(() => {
    firstBurst = false;
  }, 0);
  const run = (url: string, request: ProbeRequest) => limiter(() => fetcher(url, request), !firstBurst);
  return (url, request = {}) => {
    if (request.readUntil) return run(url, request);
    const key = requestKey(url, request);
    let answer = answers.get(key);
    if (!answer) {
      answer = run(url, request);
      answers.set(key, answer);
    }
    return answer;
  };
}
