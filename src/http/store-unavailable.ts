/**
 * A store that cannot be reached is the service's temporary state, not a fault of the request:
 * it is answered with 503 and Retry-After, on REST and in MCP tool errors alike.
 */
import { isDatabaseUnavailable } from "../adapters/db.ts";
import { HttpProblem } from "./problem.ts";

/** How long a client is asked to wait; a returning store serves again within about 2 s. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * Every message down an error's causes, for the operator's log; drizzle's own message, which
 * carries the statement's parameters (a search's words among them), is left out.
 */
function causeChain(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    const message = current instanceof Error ? `${current.name}: ${current.message}` : String(current);
    if (!message.includes("Failed query")) messages.push(message);
    if (typeof current !== "object") break;
    const { sourceError, cause } = current as { sourceError?: unknown; cause?: unknown };
    current = sourceError ?? cause;
  }
  return messages.join(" <- ");
}

/**
 * The 503 `DEPENDENCY_UNAVAILABLE` problem (Retry-After, `retry_after_seconds`) when `error` means
 * the database is unavailable; undefined for any other error. The cause is logged, never sent.
 */
export function storeUnavailableProblem(error: unknown): HttpProblem | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  console.error("database unavailable:", causeChain(error));
  return new HttpProblem(
    503,
    "DEPENDENCY_UNAVAILABLE",
    `The index database cannot be reached right now; try again in ${STORE_RETRY_AFTER_SECONDS} s.`,
    { retry_after_seconds: STORE_RETRY_AFTER_SECONDS },
    { "Retry-After": String(STORE_RETRY_AFTER_SECONDS) },
  );
}
