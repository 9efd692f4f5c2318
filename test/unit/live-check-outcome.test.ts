/**
 * The live check's answer across the service binding (src/http/live-check-outcome.ts): what the
 * checks Worker returns is plain data that survives the structured clone RPC makes, and the mcp
 * Worker throws back the very error class, code, message and members that were thrown.
 */
import { describe, expect, it, vi } from "vitest";
import { StoreUnavailableError } from "../../src/adapters/store-availability.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { carryOutcome, unwrapOutcome } from "../../src/http/live-check-outcome.ts";
import { HttpProblem } from "../../src/http/problem.ts";

/** What the caller gets: the outcome copied as Workers RPC copies it. */
async function acrossRpc<T>(operation: () => Promise<T>) {
  return structuredClone(await carryOutcome(operation));
}

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("a live check's outcome across RPC", () => {
  it("carries the result", async () => {
    const outcome = await acrossRpc(async () => ({ url: "https://a.example/", agentic_score: 40 }));
    expect(unwrapOutcome(outcome)).toEqual({ url: "https://a.example/", agentic_score: 40 });
  });

  it("throws a DomainError again with its kind, code, message and details", async () => {
    const outcome = await acrossRpc(async () => {
      throw new DomainError("invalid", "URL_NOT_ALLOWED", "url is not allowed: it is private.", { hint: "x" });
    });
    const error = thrownBy(() => unwrapOutcome(outcome));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      kind: "invalid",
      code: "URL_NOT_ALLOWED",
      message: "url is not allowed: it is private.",
      details: { hint: "x" },
    });
  });

  it("throws an HttpProblem again with its status, code, title, members and headers", async () => {
    const outcome = await acrossRpc(async () => {
      throw new HttpProblem(429, "RATE_LIMITED", "Slow down.", { limit: 10 }, { "Retry-After": "9" });
    });
    const error = thrownBy(() => unwrapOutcome(outcome));
    expect(error).toBeInstanceOf(HttpProblem);
    expect(error).toMatchObject({
      status: 429,
      code: "RATE_LIMITED",
      title: "Too many requests",
      message: "Slow down.",
      extensions: { limit: 10 },
      headers: { "Retry-After": "9" },
    });
  });

  it("answers an unreachable database with 503 DEPENDENCY_UNAVAILABLE, logged where it happened", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const outcome = await acrossRpc(async () => {
      throw new Error("Error connecting to database", {
        cause: new StoreUnavailableError("database", "the SQL endpoint could not be reached"),
      });
    });
    log.mockRestore();
    const error = thrownBy(() => unwrapOutcome(outcome));
    expect(error).toBeInstanceOf(HttpProblem);
    expect(error).toMatchObject({ status: 503, code: "DEPENDENCY_UNAVAILABLE" });
  });

  it("rethrows any other failure, for the caller to answer as an internal error", async () => {
    const bug = new TypeError("x is undefined");
    await expect(carryOutcome(async () => Promise.reject(bug))).rejects.toBe(bug);
  });
});
