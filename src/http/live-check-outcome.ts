/**
 * A live check's answer as it crosses the service binding between the mcp and the checks Workers.
 * Workers RPC rethrows a callee's exception in the caller with its message and its standard Error
 * type only: own properties do not cross (a DomainError's kind, code and details would be lost,
 * and the caller could not tell a refused URL from a crash). So the checks Worker returns an error
 * the client is meant to see as a tagged value, and the mcp Worker throws it again as the same
 * class: the tool answers exactly what the in-process call would. Any other failure still throws
 * across, and the caller answers it as an internal error, as it would in-process.
 */
import { DomainError, type DomainErrorKind } from "../domain/errors.ts";
import type { ProblemCode } from "../domain/problem-types.ts";
import { HttpProblem } from "./problem.ts";
import { storeUnavailableProblem } from "./store-unavailable.ts";

/** A DomainError or an HttpProblem as plain data, which RPC copies whole. */
export type CarriedError =
  | { type: "domain"; kind: DomainErrorKind; code: ProblemCode; message: string; details: Record<string, unknown> }
  | {
      type: "problem";
      status: HttpProblem["status"];
      code: ProblemCode;
      message: string;
      extensions: Record<string, unknown>;
      headers: Record<string, string>;
    };

export type LiveCheckOutcome<T> = { ok: true; result: T } | { ok: false; error: CarriedError };

/**
 * Runs `operation` and returns its result or the client-facing error it threw; an unreachable
 * database is the 503 DEPENDENCY_UNAVAILABLE problem (logged here, where its cause is known).
 * Anything else is rethrown.
 */
export async function carryOutcome<T>(operation: () => Promise<T>): Promise<LiveCheckOutcome<T>> {
  try {
    return { ok: true, result: await operation() };
  } catch (error) {
    if (error instanceof DomainError) {
      const { kind, code, message, details } = error;
      return { ok: false, error: { type: "domain", kind, code, message, details } };
    }
    const problem = error instanceof HttpProblem ? error : storeUnavailableProblem(error);
    if (!problem) throw error;
    const { status, code, message, extensions, headers } = problem;
    return { ok: false, error: { type: "problem", status, code, message, extensions, headers } };
  }
}

/** The result of `outcome`, or its error thrown again as the class it was thrown as. */
export function unwrapOutcome<T>(outcome: LiveCheckOutcome<T>): T {
  if (outcome.ok) return outcome.result;
  const { error } = outcome;
  if (error.type === "domain") throw new DomainError(error.kind, error.code, error.message, error.details);
  throw new HttpProblem(error.status, error.code, error.message, error.extensions, error.headers);
}
