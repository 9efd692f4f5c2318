import { describe, expect, it } from "vitest";
import { z } from "zod";
import { clientIdentity, hashedIdentity, ipv6Prefix64 } from "../../src/http/client-identity.ts";
import { HttpProblem, problemBody } from "../../src/http/problem.ts";
import { fieldErrors } from "../../src/http/validation.ts";

describe("clientIdentity", () => {
  const identify = (ip?: string) => clientIdentity(new Headers(ip ? { "cf-connecting-ip": ip } : {}));

  it("counts IPv4 clients by address and IPv6 clients by their /64", () => {
    expect(identify("203.0.113.9")).toBe("ip4:203.0.113.9");
    expect(identify("2001:db8:a:b:1:2:3:4")).toBe("ip6:2001:db8:a:b");
    expect(identify("2001:DB8:a:b::ffff")).toBe("ip6:2001:db8:a:b");
    expect(identify()).toBe("unknown");
  });

  it("expands compressed IPv6 forms", () => {
    expect(ipv6Prefix64("2001:db8::1")).toBe("2001:db8:0:0");
    expect(ipv6Prefix64("::1")).toBe("0:0:0:0");
    expect(ipv6Prefix64("fe80:0001:0000::")).toBe("fe80:1:0:0");
  });
});

describe("hashedIdentity", () => {
  const secret = "a-secret-of-at-least-thirty-two-characters";

  it("is HMAC-SHA256 under the secret, its first 128 bits in unpadded base64url", async () => {
    const { createHmac } = await import("node:crypto");
    const expected = createHmac("sha256", secret).update("ip4:203.0.113.9").digest().subarray(0, 16);
    expect(await hashedIdentity(secret, "ip4:203.0.113.9")).toBe(expected.toString("base64url"));
    expect(await hashedIdentity(secret, "ip4:203.0.113.9")).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("depends on the secret, and holds nothing of the address", async () => {
    const hashed = await hashedIdentity(secret, "ip4:203.0.113.9");
    expect(await hashedIdentity(`${secret}!`, "ip4:203.0.113.9")).not.toBe(hashed);
    expect(await hashedIdentity(secret, "ip4:203.0.113.10")).not.toBe(hashed);
    expect(hashed).not.toContain("203");
  });
});

describe("problem documents", () => {
  it("carry type, title, status, detail, code, request id and extensions", () => {
    const problem = new HttpProblem(409, "TICKET_CONFLICT", "Already prepared.", { hint: 1 });
    expect(problemBody(problem, { requestId: "r-1", origin: "https://svc.example" })).toEqual({
      type: "https://svc.example/problems/ticket-conflict",
      title: "Ticket conflict",
      status: 409,
      detail: "Already prepared.",
      code: "TICKET_CONFLICT",
      request_id: "r-1",
      hint: 1,
    });
  });

  it("name each offending field of a failed validation, unknown fields included", () => {
    const schema = z.strictObject({ page: z.number().int(), nested: z.object({ a: z.string() }) });
    const result = schema.safeParse({ page: 1.5, nested: { a: 1 }, extra: true });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrors(result.error, "json")).toEqual([
      { location: "body", field: "page", message: expect.any(String) },
      { location: "body", field: "nested.a", message: expect.any(String) },
      { location: "body", field: "extra", message: "unknown field, not accepted" },
    ]);
  });
});
