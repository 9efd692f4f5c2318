/**
 * HEAD is a safe method: it must never write. Hono answers HEAD with the GET route and drops the
 * body, so a GET handler that writes (a search receipt, a result selection) or spends quota
 * asks `isHeadRequest` first and skips that part.
 */
import type { Context } from "hono";

/** True when the request is a HEAD being served by a GET route. */
export function isHeadRequest(c: Context): boolean {
  return c.req.method === "HEAD";
}

/**
 * What a HEAD of a route that writes on GET answers once its input is valid: GET's status and
 * headers (JSON, `headers`), no body, and nothing done: no work, no write, no quota.
 *
 * Typed `never` so that a typed route handler can return it: the schema of GET's body does not
 * apply to a reply that has none.
 */
export function headOnlyReply(c: Context, headers: Record<string, string>): never {
  return c.body(null, 200, { "Content-Type": "application/json", ...headers }) as never;
}
