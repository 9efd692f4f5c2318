/**
 * What a tool call answers: the REST endpoint's JSON as structured content (and as text, for
 * clients that read only text), or a tool error carrying the REST problem's code and message.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { DomainError } from "../../domain/errors.ts";
import { domainErrorProblem } from "../../http/domain-error-table.ts";
import { HttpProblem, internalProblem } from "../../http/problem.ts";
import { storeUnavailableProblem } from "../../http/store-unavailable.ts";

/** The body of a tool error: the REST problem's `code`, its `detail` as `message`, and its extensions. */
export interface ToolErrorBody {
  code: string;
  message: string;
  [extension: string]: unknown;
}

/** A successful call: `body` is exactly what the REST endpoint returns (always a JSON object). */
export function buildToolResult(body: object): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(body) }],
    structuredContent: body as Record<string, unknown>,
  };
}

/**
 * A failed call as a tool error (`isError: true`), so the model sees why and can correct itself.
 * Domain errors (through the one table REST uses) and HTTP problems keep their public code and
 * message, as REST gives them, every status but 500 included; an unavailable store is REST's 503
 * `DEPENDENCY_UNAVAILABLE` with `retry_after_seconds`; anything else is logged and answered with
 * the generic internal error, never its message or stack.
 */
export function buildToolError(error: unknown): CallToolResult {
  let body: ToolErrorBody;
  const problem =
    error instanceof DomainError
      ? domainErrorProblem(error)
      : error instanceof HttpProblem
        ? error
        : storeUnavailableProblem(error);
  if (problem && problem.status !== 500) {
    body = { code: problem.code, message: problem.message, ...problem.extensions };
  } else {
    console.error("mcp tool failed", error);
    const internal = internalProblem();
    body = { code: internal.code, message: internal.message };
  }
  return { content: [{ type: "text", text: JSON.stringify(body) }], isError: true };
}
