/** The types every route and middleware share: bindings in, per-request dependencies out. */
import type { JsonCache } from "../adapters/cache.ts";
import type { CrawlQueue } from "../adapters/crawl-queue.ts";
import type { Database } from "../adapters/db.ts";
import type { Redis } from "../adapters/redis.ts";
import type { Config } from "../config.ts";
import type { OpenFetcher, VetHost } from "../domain/signals/types.ts";
import type { RouteGroup } from "./routes.ts";

/** What a request's handlers may use; built once per request from the bindings. It is also the
 * DomainContext that domain operations take. */
export interface Dependencies {
  config: Config;
  db: Database;
  redis: Redis;
  cache: JsonCache;
  /** The public origin: PUBLIC_ORIGIN, or the request's own. */
  origin: string;
  crawlQueue: CrawlQueue;
  /** A guarded fetcher for user-supplied URLs, within a time budget. */
  openFetcher: OpenFetcher;
  /** Vets a host name by its resolved addresses without fetching (for requests that only queue). */
  vetHost: VetHost;
}

export interface AppEnv {
  Bindings: Record<string, unknown>;
  Variables: {
    requestId: string;
    deps: Dependencies;
    /** Every endpoint of the service: operationId → description (for the descriptor). */
    endpoints: Record<string, string>;
    /** Every endpoint group of the service, served here or not (for the OpenAPI document). */
    catalog: RouteGroup[];
    /** The RateLimit headers of the limit this request spent, for its reply (`spendRateLimit`). */
    rateLimitHeaders?: Record<string, string>;
  };
}
