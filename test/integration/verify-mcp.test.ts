/**
 * GET /api/v1/verify-mcp: live handshakes with the fixture web's MCP servers (real servers built
 * with the official SDK, answering in SSE or JSON), the gated, legacy and non-MCP endpoints, the
 * target rules, no caching (Cache-Control: no-store on every answer), and the live-probe limit.
 */
import { describe, expect, it } from "vitest";
import { fixture } from "../support/fixture-web.ts";
import { asClient, awayFromWindowEdge, expectInvalid, expectProblem, newClientIp } from "../support/worker.ts";

interface Verification {
  verified: boolean;
  endpoint: string;
  note: string;
}

function verify(url: string | undefined, client = asClient()) {
  return client(`/api/v1/verify-mcp${url === undefined ? "" : `?url=${encodeURIComponent(url)}`}`);
}

async function verifyOk(url: string): Promise<Verification> {
  const response = await verify(url);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const body = (await response.json()) as Verification;
  expect(Object.keys(body).sort()).toEqual(["endpoint", "note", "verified"]);
  expect(body.note.length).toBeLessThanOrEqual(300);
  return body;
}

describe("GET /verify-mcp against real MCP servers", () => {
  it("verifies an SDK server answering in SSE, with sessions, at its own path", async () => {
    // The path mcp-sse serves (test/fixtures/web/mcp-sites.ts, MCP_SSE_PATH).
    const result = await verifyOk(`${fixture("mcp-sse")}/agents/mcp`);
    expect(result).toMatchObject({ verified: true, endpoint: `${fixture("mcp-sse")}/agents/mcp` });
    expect(result.note).toMatch(/Streamable HTTP/);
    expect(result.note).toMatch(/SSE/);
    expect(result.note).toMatch(/\d+ tools?/);
  });

  it("verifies a stateless SDK server answering in JSON at <origin>/mcp when given the bare origin", async () => {
    const result = await verifyOk(fixture("mcp-json"));
    expect(result).toMatchObject({ verified: true, endpoint: `${fixture("mcp-json")}/mcp` });
    expect(result.note).toMatch(/JSON/);
  });

  it.each([
    ["mcp-gated", /401/],
    ["mcp-forbidden", /403/],
    ["mcp-legacy-sse", /legacy|SSE transport/i],
    ["mcp-not-mcp", /HTML|not .*MCP|JSON-RPC/i],
    ["nothing", /404|not/i],
  ])("reports %s as not verified, saying what was found", async (name, note) => {
    const result = await verifyOk(`${fixture(name)}/mcp`);
    expect(result.verified).toBe(false);
    expect(result.note).toMatch(note);
  });

  it("reports an unreachable endpoint", async () => {
    const result = await verifyOk(`${fixture("slow-site")}/mcp`);
    expect(result).toMatchObject({ verified: false });
    expect(result.note).toMatch(/could not be reached|timeout/i);
  });
});

describe("GET /verify-mcp input", () => {
  it("answers 400 without url, with an empty url, or with an unknown parameter", async () => {
    await expectInvalid(await verify(undefined), "query", ["url"]);
    await expectInvalid(await verify(""), "query", ["url"]);
    const extra = await asClient()(`/api/v1/verify-mcp?url=example.com&deep=1`);
    await expectInvalid(extra, "query", ["deep"]);
  });

  it.each(["ftp://example.com/mcp", "javascript:alert(1)", "https://user:pw@example.com/mcp"])(
    "answers 400 for %s",
    async (url) => {
      const response = await verify(url);
      expect(response.status).toBe(400);
    },
  );
});

describe("GET /verify-mcp limit", () => {
  it("answers the 21st live verification in an hour from one client with 429", async () => {
    const client = asClient(newClientIp());
    await awayFromWindowEdge(3600, 30);
    for (let i = 0; i < 20; i++) {
      expect((await verify(`${fixture("mcp-not-mcp")}/mcp`, client)).status).toBe(200);
    }
    const limited = await verify(`${fixture("mcp-not-mcp")}/mcp`, client);
    await expectProblem(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
