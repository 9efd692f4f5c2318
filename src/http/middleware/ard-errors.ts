/**
 * ARD's error members on every problem the registry routes answer (ARD v0.91 Appendix B and its
 * OpenAPI `Error` schema: `errorCode` and `message`), beside the service's own RFC 9457 members:
 * an ARD client reads `errorCode`, every other client of this service reads `code`. The problem
 * itself (status, `code`, `detail`) is unchanged.
 *
 * @example ardRoutes.use("*", ardErrorMembers());
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.ts";
import { PROBLEM_CONTENT_TYPE } from "../problem.ts";

/** ARD's code for an HTTP status: its five, the malformed-request statuses as INVALID_ARGUMENT. */
export function ardErrorCode(status: number): string {
  if (status === 401) return "UNAUTHENTICATED";
  if (status === 404) return "NOT_FOUND";
  if (status === 429) return "RATE_LIMIT_EXCEEDED";
  if (status >= 500) return "INTERNAL_ERROR";
  return "INVALID_ARGUMENT";
}

export function ardErrorMembers(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const response = c.res;
    if (!(response.headers.get("content-type") ?? "").startsWith(PROBLEM_CONTENT_TYPE)) return;
    const text = await response.clone().text();
    if (!text) return;
    let problem: Record<string, unknown>;
    try {
      problem = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    const body = { ...problem, errorCode: ardErrorCode(response.status), message: String(problem.detail ?? "") };
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    c.res = new Response(JSON.stringify(body), { status: response.status, headers });
  };
}
