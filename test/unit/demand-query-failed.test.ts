/**
 * GET /provider/demand's 500: a demand query that fails answers DEMAND_QUERY_FAILED without
 * internals, while a lost database stays 503 and the claim's 404 stays itself. (From outside, the
 * 500 needs a database that answers but fails the statement, which the integration stack cannot
 * be made to do for one query only; the integration tests cover the 503.)
 */
import { describe, expect, it, vi } from "vitest";
import { StoreUnavailableError } from "../../src/adapters/store-availability.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { HttpProblem } from "../../src/http/problem.ts";
import { demandQueryFailed } from "../../src/routes/provider/demand.ts";

describe("demandQueryFailed", () => {
  it("answers 500 DEMAND_QUERY_FAILED for a failed statement, logging the driver's cause only", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const error = new Error("Failed query: select … params: secret.example", {
      cause: Object.assign(new Error('relation "x" does not exist'), { name: "NeonDbError" }),
    });
    const problem = demandQueryFailed(error);
    expect(problem).toBeInstanceOf(HttpProblem);
    expect(problem).toMatchObject({ status: 500, code: "DEMAND_QUERY_FAILED" });
    expect(JSON.stringify(problem)).not.toContain("relation");
    expect(log.mock.calls.flat().join(" ")).toContain("NeonDbError");
    expect(log.mock.calls.flat().join(" ")).not.toContain("secret.example");
    log.mockRestore();
  });

  it("keeps a lost database a 503 and a domain answer itself", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const lost = new Error("Failed query", { cause: new StoreUnavailableError("database", "refused") });
    expect(demandQueryFailed(lost)).toMatchObject({ status: 503 });
    const notFound = new DomainError("not_found", "CLAIM_NOT_FRESH", "gone");
    expect(demandQueryFailed(notFound)).toBe(notFound);
    log.mockRestore();
  });
});
