import { describe, expect, it } from "vitest";
import { DOMAIN_ERROR_KINDS, DomainError, type DomainErrorKind } from "../../src/domain/errors.ts";
import type { ProblemCode } from "../../src/domain/problem-types.ts";
import { DOMAIN_ERROR_TABLE, domainErrorProblem } from "../../src/http/domain-error-table.ts";
import { problemBody } from "../../src/http/problem.ts";
import { buildToolError } from "../../src/routes/mcp/tool-result.ts";

describe("the domain error table", () => {
  it("gives every kind its own status", () => {
    expect(Object.keys(DOMAIN_ERROR_TABLE).sort()).toEqual([...DOMAIN_ERROR_KINDS].sort());
    expect(Object.fromEntries(DOMAIN_ERROR_KINDS.map((kind) => [kind, DOMAIN_ERROR_TABLE[kind].status]))).toEqual({
      invalid: 400,
      unauthenticated: 401,
      forbidden: 403,
      not_found: 404,
      conflict: 409,
      gone: 410,
      too_large: 413,
      rate_limited: 429,
      not_implemented: 501,
      unavailable: 503,
    });
  });

  it("answers REST and MCP with the same code, message and members for every kind", () => {
    // A real code of each kind (src/domain/problem-types.ts), as the operations throw them.
    const codeOfKind: Record<DomainErrorKind, ProblemCode> = {
      invalid: "INVALID_URL",
      unauthenticated: "SIGN_IN_TOKEN_INVALID",
      forbidden: "CROSS_ORIGIN_MUTATION",
      not_found: "SITE_NOT_FOUND",
      conflict: "CLAIM_REVOKED",
      gone: "ATTRIBUTION_EXPIRED",
      too_large: "CONTENT_TOO_LARGE",
      rate_limited: "MONITOR_LIMIT_REACHED",
      not_implemented: "PAYMENT_MODE_UNSUPPORTED",
      unavailable: "MAIL_UNAVAILABLE",
    };
    for (const kind of DOMAIN_ERROR_KINDS) {
      const error = new DomainError(kind, codeOfKind[kind], `plain words about ${kind}`, { hint: kind });
      const rest = problemBody(domainErrorProblem(error), { requestId: "r", origin: "https://svc.example" });
      const mcp = buildToolError(error);
      expect(mcp.isError).toBe(true);
      const tool = JSON.parse((mcp.content[0] as { text: string }).text) as Record<string, unknown>;
      expect(tool).toEqual({ code: rest.code, message: rest.detail, hint: kind });
      expect(rest.status).toBe(DOMAIN_ERROR_TABLE[kind].status);
    }
  });

  it("asks clients to retry an unavailable capability later", () => {
    const problem = domainErrorProblem(new DomainError("unavailable", "MAIL_UNAVAILABLE", "No mail."));
    expect(problem.headers["Retry-After"]).toBe("5");
  });
});
