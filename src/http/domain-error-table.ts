/**
 * The one table from a domain error's kind to its HTTP status and title. REST answers with it as
 * problem+json; MCP tool errors are built from that same problem (its code, message and
 * members), so the two transports never disagree about what an error means.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { DomainError, DomainErrorKind } from "../domain/errors.ts";
import { HttpProblem } from "./problem.ts";

export const DOMAIN_ERROR_TABLE: Record<DomainErrorKind, { status: ContentfulStatusCode; title: string }> = {
  invalid: { status: 400, title: "Invalid request" },
  unauthenticated: { status: 401, title: "Authentication required" },
  forbidden: { status: 403, title: "Forbidden" },
  not_found: { status: 404, title: "Not found" },
  conflict: { status: 409, title: "Conflict" },
  gone: { status: 410, title: "Gone" },
  too_large: { status: 413, title: "Payload too large" },
  rate_limited: { status: 429, title: "Too many requests" },
  not_implemented: { status: 501, title: "Not implemented" },
  unavailable: { status: 503, title: "Service unavailable" },
};

/** Seconds a client should wait before retrying a kind that is worth retrying. */
const RETRY_AFTER_SECONDS: Partial<Record<DomainErrorKind, string>> = { unavailable: "5" };

/** The REST problem of a domain error. */
export function domainErrorProblem(error: DomainError): HttpProblem {
  const { status, title } = DOMAIN_ERROR_TABLE[error.kind];
  const retryAfter = RETRY_AFTER_SECONDS[error.kind];
  return new HttpProblem(
    status,
    error.code,
    title,
    error.message,
    error.details,
    retryAfter ? { "Retry-After": retryAfter } : {},
  );
}
