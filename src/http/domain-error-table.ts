/**
 * The one table from a domain error's kind to its HTTP status (the title is the code's own, from
 * src/domain/problem-types.ts). REST answers with it as
 * problem+json; MCP tool errors are built from that same problem (its code, message and
 * members), so the two transports never disagree about what an error means.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { DomainError, DomainErrorKind } from "../domain/errors.ts";
import { HttpProblem } from "./problem.ts";

export const DOMAIN_ERROR_TABLE: Record<DomainErrorKind, { status: ContentfulStatusCode }> = {
  invalid: { status: 400 },
  unauthenticated: { status: 401 },
  forbidden: { status: 403 },
  not_found: { status: 404 },
  conflict: { status: 409 },
  gone: { status: 410 },
  too_large: { status: 413 },
  rate_limited: { status: 429 },
  not_implemented: { status: 501 },
  unavailable: { status: 503 },
};

/** Seconds a client should wait before retrying a kind that is worth retrying. */
const RETRY_AFTER_SECONDS: Partial<Record<DomainErrorKind, string>> = { unavailable: "5" };

/** The REST problem of a domain error. */
export function domainErrorProblem(error: DomainError): HttpProblem {
  const { status } = DOMAIN_ERROR_TABLE[error.kind];
  const retryAfter = RETRY_AFTER_SECONDS[error.kind];
  return new HttpProblem(
    status,
    error.code,
    error.message,
    error.details,
    retryAfter ? { "Retry-After": retryAfter } : {},
  );
}
