/**
 * The one place where the service's dependencies are built from a Worker's bindings: the HTTP
 * middleware builds one set per request, and each job run or queue batch builds its own. Settings
 * that belong together travel together here (the outbound fetcher carries its address policy),
 * so no call site re-reads them from the configuration.
 */
import { createRedisCache, type JsonCache } from "./adapters/cache.ts";
import { type CrawlJob, type CrawlQueue, createCrawlQueue } from "./adapters/crawl-queue.ts";
import { createDatabase, type Database } from "./adapters/db.ts";
import type { DnsRecordLookup } from "./adapters/dns-records.ts";
import { createAgreeingTxtLookup, createDohTxtLookup, type TxtLookup } from "./adapters/dns-txt.ts";
import { createResendMailer, type Mailer } from "./adapters/mail.ts";
import { createOutbound } from "./adapters/outbound/create-outbound.ts";
import type { OpenFetcher, VetHost } from "./adapters/outbound/fetch-types.ts";
import { createRedis, type Redis } from "./adapters/redis.ts";
import type { Signing } from "./adapters/signing.ts";
import type { Payments } from "./adapters/stripe.ts";
import { type Config, parseConfig } from "./config.ts";

/**
 * What handlers and jobs work with; built once per request (or job run) from the bindings. It is
 * also the DomainContext that domain operations take.
 */
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
  /** FETCH_ALLOW_PRIVATE, the fetcher's address policy: development and tests only. */
  allowPrivate: boolean;
  /** `npm start`'s local demo sites (LOCAL_DEMO_HOSTS), the only loopback hosts fetched otherwise. */
  trustedHosts: readonly string[];
  /** Outgoing mail; undefined when the mail capability is unavailable (its endpoints answer 503). */
  mailer: Mailer | undefined;
  /** TXT lookups for ownership proofs, through every configured resolver, which must agree. */
  txtLookup: TxtLookup;
  /** TXT, SVCB and HTTPS lookups through DOH_URL for the checklist's DNS discovery (dns_agent_discovery). */
  dnsRecords: DnsRecordLookup;
  /**
   * Stripe; undefined when the payments capability is unavailable (its endpoints answer 503), and
   * outside the commerce group's routes, which alone pay: its middleware sets it
   * (src/http/middleware/payments.ts), so that only the Workers running that group bundle Stripe.
   */
  payments: Payments | undefined;
  /**
   * Bearer and receipt signatures; undefined when signing is unavailable (its endpoints answer
   * 503), and outside the exchange and provider groups' routes, which alone sign: their middleware
   * sets it (src/http/middleware/signing.ts), so that only the Workers running them bundle `jose`.
   */
  signing: Signing | undefined;
  /**
   * The time of this request (or job run), read once from the clock when the dependencies are
   * built, so that every rule of one request judges by one instant.
   */
  now: Date;
}

/** Where the time comes from: the system clock, unless a test hands in its own. */
export type Clock = () => Date;
const systemClock: Clock = () => new Date();

// Bindings are one object per isolate and deployment; validating them once per object is safe.
const configByBindings = new WeakMap<object, Config>();

function configFor(bindings: Record<string, unknown>): Config {
  let config = configByBindings.get(bindings);
  if (!config) {
    config = parseConfig(bindings);
    configByBindings.set(bindings, config);
  }
  return config;
}

/**
 * Everything a request, a queue batch or a cron run works with, from the Worker's bindings.
 * `fallbackOrigin` is the public origin when PUBLIC_ORIGIN is not set (a request's own origin).
 */
export function createDependencies(
  bindings: Record<string, unknown>,
  fallbackOrigin: string,
  clock: Clock = systemClock,
): Dependencies {
  const config = configFor(bindings);
  const redis = createRedis(config);
  const origin = config.PUBLIC_ORIGIN?.replace(/\/$/, "") ?? fallbackOrigin;
  return {
    config,
    db: createDatabase(config),
    redis,
    cache: createRedisCache(redis, config.REDIS_KEY_PREFIX),
    origin,
    crawlQueue: createCrawlQueue(bindings.CRAWL_QUEUE as Queue<CrawlJob> | undefined),
    ...createOutbound(config, origin),
    mailer: config.capabilities.mail
      ? createResendMailer({
          apiKey: config.capabilities.mail.MAIL_API_KEY,
          from: config.capabilities.mail.MAIL_FROM,
          baseUrl: config.capabilities.mail.MAIL_API_URL,
        })
      : undefined,
    txtLookup: createAgreeingTxtLookup(config.OWNERSHIP_DOH_URLS.map((url) => createDohTxtLookup({ url }))),
    payments: undefined,
    signing: undefined,
    now: clock(),
  };
}
