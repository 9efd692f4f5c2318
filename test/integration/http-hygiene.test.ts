/**
 * HTTP hygiene, as a client meets it: a wrong method on a known path is 405 with `Allow`; a body
 * over the limit is 413 before it is read; an oversized request target or header section is
 * 414 / 431; validation messages are plain words naming the field; and a request refused as
 * invalid spends none of the caller's quota. Every refusal is the usual problem+json.
 */
import { describe, expect, it } from "vitest";
import { fixture } from "../support/fixture-web.ts";
import { asClient, awayFromWindowEdge, call, expectInvalid, expectProblem } from "../support/worker.ts";

type Client = ReturnType<typeof asClient>;

const MAX_BODY_BYTES = 64 * 1024;

function postJson(client: Client, path: string, body: unknown, headers: Record<string, string> = {}) {
  return client(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A JSON body of about `bytes` bytes: `{"url":"https://a.example/aaaa…"}`. */
function bodyOfSize(bytes: number): string {
  return JSON.stringify({ url: `https://a.example/${"a".repeat(bytes)}` });
}

describe("405 Method Not Allowed", () => {
  it.each([
    ["POST", "/api/v1/search", "GET, HEAD, OPTIONS"],
    ["DELETE", "/api/v1/site/weather.example", "GET, HEAD, OPTIONS"],
    ["PUT", "/api/v1/", "GET, HEAD, OPTIONS"],
    ["PATCH", "/api/v1/top", "GET, HEAD, OPTIONS"],
    ["GET", "/api/v1/check", "POST, OPTIONS"],
    ["DELETE", "/api/v1/submit", "POST, OPTIONS"],
    ["GET", "/api/v1/action-interests", "POST, OPTIONS"],
    ["POST", "/healthz", "GET, HEAD, OPTIONS"],
    ["POST", "/llms.txt", "GET, HEAD, OPTIONS"],
    ["DELETE", "/", "GET, HEAD, OPTIONS"],
  ])("answers %s %s with 405 and Allow: %s", async (method, path, allow) => {
    const response = await call(path, { method });
    const body = await expectProblem(response, 405, "METHOD_NOT_ALLOWED");
    expect(response.headers.get("allow")).toBe(allow);
    expect(body.detail).toContain(method);
    expect(body.detail).toContain(allow);
  });

  it("answers HEAD on a POST-only path with 405 and Allow, without a body", async () => {
    const response = await call("/api/v1/check", { method: "HEAD" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
    expect(await response.text()).toBe("");
  });

  it("keeps 404 for a path the service does not have, whatever the method", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const response = await call("/api/v1/no-such-endpoint", { method });
      await expectProblem(response, 404, "NOT_FOUND");
      expect(response.headers.get("allow")).toBeNull();
    }
  });
});

describe("413 Content Too Large", () => {
  it("refuses a 2 MB JSON body before reading it", async () => {
    const response = await postJson(asClient(), "/api/v1/check", bodyOfSize(2 * 1024 * 1024));
    const body = await expectProblem(response, 413, "CONTENT_TOO_LARGE");
    expect(body.detail).toContain(String(MAX_BODY_BYTES));
  });

  it("refuses a streamed body without Content-Length once it passes the limit, and stops reading it", async () => {
    // 64 MiB on offer: the service drops at most 8 MiB of a refused upload, then cancels the rest.
    const offered = 64 * 1024 * 1024;
    const chunk = new TextEncoder().encode("a".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= offered) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await asClient()("/api/v1/action-interests", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: stream,
      // @ts-expect-error: a streamed request body must say so (not in every RequestInit type yet).
      duplex: "half",
    });
    await expectProblem(response, 413, "CONTENT_TOO_LARGE");
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  it("refuses an oversized body on /mcp too, and reads one under the limit", async () => {
    const client = asClient();
    await expectProblem(await postJson(client, "/mcp", bodyOfSize(MAX_BODY_BYTES + 1)), 413, "CONTENT_TOO_LARGE");
    // Just under the limit, the body is read and validated: the url is too long, not the body.
    const underLimit = await postJson(client, "/api/v1/check", bodyOfSize(MAX_BODY_BYTES - 100));
    await expectInvalid(underLimit, "body", ["url"]);
  });
});

describe("414 and 431: oversized request targets and header sections", () => {
  it("answers a request target over 8 KiB with 414 problem+json", async () => {
    const response = await call(`/api/v1/search?q=${"a".repeat(9000)}`);
    const body = await expectProblem(response, 414, "URI_TOO_LONG");
    expect(body.detail).toContain("8192");
  });

  it("answers header fields over 16 KiB in total with 431 problem+json naming the largest", async () => {
    const response = await call("/api/v1/", { headers: { "X-Padding": "a".repeat(17 * 1024) } });
    const body = await expectProblem(response, 431, "HEADERS_TOO_LARGE");
    expect(body.detail).toContain("16384");
    expect(body.detail).toContain("x-padding");
  });

  it("serves requests under both limits", async () => {
    const response = await call(`/api/v1/search?q=${"a".repeat(150)}`, {
      headers: { "X-Padding": "a".repeat(8 * 1024) },
    });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });
});

describe("validation messages in plain words", () => {
  const rawSchemaText = /expected|received|Invalid input|Invalid option|Too (big|small)|Unrecognized/;

  it("names the whole body `body` when it is not a JSON object", async () => {
    for (const payload of ["[]", '["https://a.example"]', "null", "5"]) {
      const body = await expectInvalid(await postJson(asClient(), "/api/v1/check", payload), "body", ["body"]);
      expect(body.errors?.[0]?.message).toMatch(/^must be a JSON object, not /);
      expect(body.detail).not.toMatch(rawSchemaText);
    }
  });

  it("says what is wrong with a body field", async () => {
    const cases: [unknown, string][] = [
      [{}, "is required"],
      [{ url: ["https://a.example", "https://b.example"] }, "must be a string, not an array"],
      [{ url: 5 }, "must be a string, not the number 5"],
      [{ url: null }, "must be a string, not null"],
      [{ url: "" }, "must not be empty"],
      [{ url: `https://a.example/${"a".repeat(3000)}` }, "must be at most 2048 characters"],
    ];
    for (const [payload, message] of cases) {
      const body = await expectInvalid(await postJson(asClient(), "/api/v1/submit", payload), "body", ["url"]);
      expect(body.errors).toEqual([{ location: "body", field: "url", message }]);
      expect(body.detail).toBe(`url: ${message}`);
    }
  });

  it("says a query parameter given twice must be given once", async () => {
    const verify = await expectInvalid(
      await call("/api/v1/verify-mcp?url=https://a.example/mcp&url=https://b.example/mcp"),
      "query",
      ["url"],
    );
    expect(verify.errors?.[0]?.message).toBe("must be given once, not 2 times");
    const search = await expectInvalid(await call("/api/v1/search?q=a&q=b&q=c&page=2"), "query", ["q"]);
    expect(search.errors?.[0]?.message).toBe("must be given once, not 3 times");
    const missing = await expectInvalid(await call("/api/v1/verify-mcp"), "query", ["url"]);
    expect(missing.errors?.[0]?.message).toBe("is required");
  });

  it("lists each unknown field apart and explains a bad choice", async () => {
    const body = await expectInvalid(
      await postJson(asClient(), "/api/v1/action-interests", {
        search_id: "AAAAAAAAAAAAAAAAAAAAAA",
        domain: "a.example",
        action_type: "hug",
        caller_attests_principal_interest: true,
        confirmation_version: "svc-action-interest-v1",
        email: "a@b.example",
        name: "A",
      }),
      "body",
      ["action_type", "email", "name"],
    );
    expect(body.errors).toContainEqual({ location: "body", field: "email", message: "unknown field, not accepted" });
    expect(body.errors).toContainEqual({
      location: "body",
      field: "action_type",
      message: "must be one of quote, trial, demo, booking, application, signup, purchase",
    });
    expect(body.detail).not.toMatch(rawSchemaText);
  });
});

describe("a request refused as invalid spends no quota", () => {
  it("leaves the hourly /check quota whole after more refused requests than the limit", async () => {
    await awayFromWindowEdge(3600, 60);
    const client = asClient();
    const refused: [unknown, number][] = [
      ["[]", 400],
      [{ url: 5 }, 400],
      [{ url: ["https://a.example", "https://b.example"] }, 400],
      [{}, 400],
      [{ url: "https://a.example", extra: 1 }, 400],
      ["{url:", 400],
      [{ url: "ftp://example.com/" }, 400],
      [{ url: "example.com" }, 400],
      [{ url: "https://user:secret@example.com/" }, 400],
      [bodyOfSize(2 * 1024 * 1024), 413],
      [{ url: "" }, 400],
      ["[1]", 400],
    ];
    for (const [payload, status] of refused) {
      const response = await postJson(client, "/api/v1/check", payload);
      expect(response.status, JSON.stringify(payload).slice(0, 80)).toBe(status);
      expect(response.headers.get("ratelimit-limit")).toBeNull();
      await response.body?.cancel();
    }
    const wrongType = await client("/api/v1/check", { method: "POST", headers: { "Content-Type": "text/plain" } });
    expect(wrongType.status).toBe(400);

    const counted = await postJson(client, "/api/v1/check", { url: fixture("nothing") });
    expect(counted.status).toBe(200);
    expect(counted.headers.get("ratelimit-remaining")).toBe("9");
    await counted.body?.cancel();
  });

  it("leaves the search quota whole after invalid searches", async () => {
    await awayFromWindowEdge(3600, 30);
    const client = asClient();
    for (const query of ["page=0", "has_mcp=yes", "bogus=1", "q=a&q=b"]) {
      expect((await client(`/api/v1/search?${query}`)).status).toBe(400);
    }
    const counted = await client("/api/v1/search?q=anything");
    expect(counted.headers.get("ratelimit-remaining")).toBe("239");
    await counted.body?.cancel();
  });
});
