/**
 * Errors a domain operation throws on purpose. Each transport maps the kind to its own shape from
 * one table (src/http/domain-error-table.ts: REST problem+json with its status; MCP a tool error
 * with the same code and message); the message is public.
 */
import type { ProblemCode } from "./problem-types.ts";

export const DOMAIN_ERROR_KINDS = [
  /** The input breaks a rule the schema could not express. */
  "invalid",
  /** No credential, or one that is unknown, expired or revoked. */
  "unauthenticated",
  /** The caller may not do this at all (a cross-site browser mutation). */
  "forbidden",
  /** Absent, or not the caller's: other owners' things do not exist for them. */
  "not_found",
  /** The state does not allow it now: a replay with another body, a stale claim, a used-up cap. */
  "conflict",
  /** It existed and expired for good (an attribution or authorization past its end). */
  "gone",
  /** The input is over a documented size. */
  "too_large",
  /** A documented limit is used up for now. */
  "rate_limited",
  /** A mode the interface names but the service does not offer (direct card entry). */
  "not_implemented",
  /** A capability or store is unavailable: retry later; nothing was written. */
  "unavailable",
] as const;

export type DomainErrorKind = (typeof DOMAIN_ERROR_KINDS)[number];

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    /** Stable SCREAMING_SNAKE code clients can branch on, documented in src/domain/problem-types.ts. */
    readonly code: ProblemCode,
    message: string,
    /** Public extension members of the answer (REST problem members, MCP error members). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "DomainError";
  }
}
