/**
 * Errors a domain operation throws on purpose. Each transport maps the kind to its own shape
 * (REST: problem+json with the status below; MCP: a tool error); the message is public.
 */
export type DomainErrorKind = "invalid" | "forbidden" | "not_found" | "conflict" | "unavailable";

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    /** Stable SCREAMING_SNAKE code clients can branch on. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}
