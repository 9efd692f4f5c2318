import type { MiddlewareHandler } from "hono";
import { createDependencies } from "../../deps.ts";
import { ANONYMOUS } from "../../domain/actor.ts";
import type { AppEnv } from "../context.ts";

/**
 * Puts the request's dependencies (src/deps.ts) on `c.var.deps`. Clients are cheap (no
 * connections: both stores speak HTTP), so each request gets its own.
 *
 * @example app.use("*", dependencies()); // then c.var.deps.db in a handler
 */
export function dependencies(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("deps", createDependencies(c.env ?? {}, new URL(c.req.url).origin));
    c.set("actor", ANONYMOUS);
    await next();
  };
}
