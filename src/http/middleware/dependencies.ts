import type { MiddlewareHandler } from "hono";
import { createRedisCache } from "../../adapters/cache.ts";
import { createDatabase } from "../../adapters/db.ts";
import { createRedis } from "../../adapters/redis.ts";
import { type Config, parseConfig } from "../../config.ts";
import type { AppEnv } from "../context.ts";

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
 * Puts the request's dependencies on `c.var.deps`: validated config, database, Redis, origin.
 * Clients are cheap (no connections: both speak HTTP), so each request gets its own.
 *
 * @example app.use("*", dependencies()); // then c.var.deps.db in a handler
 */
export function dependencies(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const config = configFor(c.env ?? {});
    const redis = createRedis(config);
    c.set("deps", {
      config,
      db: createDatabase(config),
      redis,
      cache: createRedisCache(redis, config.REDIS_KEY_PREFIX),
      origin: config.PUBLIC_ORIGIN?.replace(/\/$/, "") ?? new URL(c.req.url).origin,
    });
    await next();
  };
}
