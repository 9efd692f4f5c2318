import type { MiddlewareHandler } from "hono";
import { createRedisCache } from "../../adapters/cache.ts";
import { type CrawlJob, createCrawlQueue } from "../../adapters/crawl-queue.ts";
import { createDatabase } from "../../adapters/db.ts";
import { createOutbound } from "../../adapters/outbound/create-outbound.ts";
import { createRedis } from "../../adapters/redis.ts";
import { type Config, parseConfig } from "../../config.ts";
import type { AppEnv, Dependencies } from "../context.ts";

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
export function createDependencies(bindings: Record<string, unknown>, fallbackOrigin: string): Dependencies {
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
  };
}

/**
 * Puts the request's dependencies on `c.var.deps`: validated config, database, Redis, origin,
 * the crawl queue and the outbound fetcher. Clients are cheap (no connections: both speak HTTP),
 * so each request gets its own.
 *
 * @example app.use("*", dependencies()); // then c.var.deps.db in a handler
 */
export function dependencies(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("deps", createDependencies(c.env ?? {}, new URL(c.req.url).origin));
    await next();
  };
}
