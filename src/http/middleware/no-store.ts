import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context.ts";

/**
 * Marks every answer of a route `Cache-Control: private, no-store`, its errors included (the
 * error handler's response passes back through here): bearers, handoff URLs and intent must never
 * sit in a shared or browser cache.
 *
 * @example app.use("/action-tickets", noStore());
 */
export function noStore() {
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    c.res.headers.set("Cache-Control", "private, no-store");
  });
}
