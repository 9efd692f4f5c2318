/**
 * Reads from the edge: a GET that writes nothing is answered from the Workers Cache API
 * (`caches.default`, the data center's cache) while its own `Cache-Control: public, max-age=N`
 * says it is fresh, so a repeated read makes no SQL or Redis request at all. What is cached is
 * exactly what HTTP caches may already keep for as long (docs/operations.md, "Reads from the
 * edge"); nothing private, nothing with a cookie, nothing asked with credentials.
 *
 * - Only answers with status 200 and a `public` max-age > 0, without Set-Cookie, are stored; the
 *   Cache API itself drops them once that max-age has passed.
 * - The key is the request's URL with the deployment's REDIS_KEY_PREFIX before the path: Workers
 *   sharing one zone and one Redis keep their data apart by that prefix, and so do their edges. A
 *   route that picks its representation from a header names it (`variant`), and that is kept in
 *   the key too.
 * - A hit carries this request's own X-Request-Id, and `X-Cache: HIT` where the route says
 *   whether its own cache answered.
 * - Where there is no Cache API (Node), and on workers.dev (where caches.default stores
 *   nothing), every request reaches its route as before.
 *
 * @example routes.use("/top", edgeCache());
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.ts";

export interface EdgeCacheOptions {
  /** Whether this request may be answered from, and stored into, the edge (default: always). */
  when?: (c: Context<AppEnv>) => boolean;
  /**
   * The representation this request gets when the route negotiates one from headers (say CSV for
   * `Accept: text/csv`): part of the key, so each representation is kept apart (default: one).
   */
  variant?: (c: Context<AppEnv>) => string;
}

const STORED_MAX_AGE = /(?:^|,)\s*max-age=(\d+)/i;

/** Whether an answer may be kept at the edge: a 200 for anyone, fresh for some seconds. */
function storable(response: Response): boolean {
  if (response.status !== 200 || response.headers.has("Set-Cookie")) return false;
  const cacheControl = response.headers.get("Cache-Control") ?? "";
  if (!/(?:^|,)\s*public\s*(?:,|$)/i.test(cacheControl) || /no-store|private/i.test(cacheControl)) return false;
  return Number(STORED_MAX_AGE.exec(cacheControl)?.[1] ?? 0) > 0;
}

function edgeCacheOf(): Cache | undefined {
  return typeof caches === "undefined" ? undefined : (caches as CacheStorage & { default: Cache }).default;
}

function keyOf(c: Context<AppEnv>, variant: string): Request {
  const url = new URL(c.req.url);
  const prefix = encodeURIComponent(c.var.deps.config.REDIS_KEY_PREFIX || "-");
  const kept = variant ? `/.variant/${encodeURIComponent(variant)}` : "";
  return new Request(`${url.origin}/.edge/${prefix}${kept}${url.pathname}${url.search}`);
}

/** Runs `work` past the answer when the platform allows it, else before answering. */
async function afterAnswer(c: Context<AppEnv>, work: Promise<unknown>): Promise<void> {
  const quiet = work.catch((error) => console.error("edge cache: storing an answer failed", error));
  try {
    c.executionCtx.waitUntil(quiet);
  } catch {
    // No execution context (an app called directly): finish before answering.
    await quiet;
  }
}

export function edgeCache(options: EdgeCacheOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const cache = edgeCacheOf();
    const method = c.req.method;
    const credentials = c.req.header("Authorization") !== undefined || c.req.header("Cookie") !== undefined;
    if (!cache || (method !== "GET" && method !== "HEAD") || credentials || options.when?.(c) === false) {
      await next();
      return;
    }
    const key = keyOf(c, options.variant?.(c) ?? "");
    const hit = await cache.match(key);
    if (hit) {
      const response = new Response(hit.body, hit);
      response.headers.set("X-Request-Id", c.get("requestId") ?? "");
      if (response.headers.has("X-Cache")) response.headers.set("X-Cache", "HIT");
      return response;
    }
    await next();
    // HEAD answers carry no body to keep; the next GET stores it.
    if (method !== "GET" || !storable(c.res)) return;
    const stored = c.res.clone();
    const headers = new Headers(stored.headers);
    headers.delete("X-Request-Id");
    await afterAnswer(c, cache.put(key, new Response(stored.body, { status: 200, headers })));
  };
}
