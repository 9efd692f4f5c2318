import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resolveVerifyTarget } from "../../src/domain/checks/verify-target.ts";
import { createConcurrencyLimiter, createCrawlFetcher } from "../../src/domain/crawling/crawl-fetcher.ts";
import { detectMcpServer, findDiscoveredEndpoint } from "../../src/domain/signals/detect-mcp-server.ts";
import {
  MCP_ENDPOINT_HEALTH,
  mcpEndpointHealthCode,
  mcpEndpointHealthOf,
} from "../../src/domain/signals/mcp-health.ts";
import { parseSseEvents, probeMcpEndpoint } from "../../src/domain/signals/mcp-probe.ts";
import type { ProbeRequest, ProbeResponse, SiteFetcher } from "../../src/domain/signals/types.ts";
import { fixtureWebBasePort } from "../fixtures/web/expectations.ts";
import { MCP_EXPECTATIONS } from "../fixtures/web/mcp-expectations.ts";
import {
  countMcpSseSessions,
  MCP_SERVER_CARD_PATH,
  MCP_SSE_LOG,
  MCP_SSE_PATH,
  resetMcpSseLog,
} from "../fixtures/web/mcp-sites.ts";
import { type FixtureWeb, startFixtureWeb } from "../fixtures/web/server.ts";
import { createPlainFetcher } from "../support/plain-fetcher.ts";

let web: FixtureWeb;

beforeAll(async () => {
  // Its own 100 ports (see fixture-detectors.test.ts).
  web = await startFixtureWeb(fixtureWebBasePort(3));
});

afterAll(async () => {
  await web.stop();
});

function originOf(name: string): string {
  const origin = web.origins[name];
  if (!origin) throw new Error(`fixture ${name} is not running`);
  return origin;
}

/** The crawl's own memoising wrapper, around the unguarded fetcher. */
function createMemoisedFetcher(): SiteFetcher {
  return createCrawlFetcher(createPlainFetcher(), createConcurrencyLimiter(6));
}

function expectPlainNote(note: string): void {
  expect(note.length).toBeLessThanOrEqual(300);
  expect(note).not.toMatch(/[<>]/);
}

describe("probeMcpEndpoint against the fixture web", () => {
  it("completes the handshake with the SSE server, stopping each stream once it has its response", async () => {
    resetMcpSseLog();
    const sessionsBefore = countMcpSseSessions();
    const started = Date.now();
    const result = await probeMcpEndpoint(createPlainFetcher(), `${originOf("mcp-sse")}${MCP_SSE_PATH}`);
    const elapsed = Date.now() - started;

    expect(result).toMatchObject({
      verified: true,
      outcome: "compliant",
      era: "2025",
      protocolVersion: "2025-11-25",
      serverName: "relay-agents",
      toolCount: 3,
    });
    expect(result.note).toContain("in the 2025 era");
    expect(result.note).toContain("replies as SSE");
    expect(result.note).toContain("3 tools");
    expectPlainNote(result.note);
    // The server holds each SSE reply open for 20 s: only readUntil can make this quick.
    expect(elapsed).toBeLessThan(3000);
    // server/discover first (a 2025 server refuses it without a session), then the 2025 handshake.
    expect(result.fetched.map((record) => record.status)).toEqual([400, 200, 202, 200, 200]);
    expect(result.fetched[1]!.content_type).toBe("text/event-stream");

    const [discover, initialize, initialized, list, deletion] = MCP_SSE_LOG.requests;
    expect(MCP_SSE_LOG.requests).toHaveLength(5);
    expect(discover).toEqual({
      httpMethod: "POST",
      rpcMethod: "server/discover",
      sessionId: null,
      protocolVersion: "2026-07-28",
    });
    expect(initialize).toEqual({ httpMethod: "POST", rpcMethod: "initialize", sessionId: null, protocolVersion: null });
    const sessionId = initialized!.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    for (const [record, httpMethod, rpcMethod] of [
      [initialized, "POST", "notifications/initialized"],
      [list, "POST", "tools/list"],
      [deletion, "DELETE", null],
    ] as const) {
      expect(record).toEqual({ httpMethod, rpcMethod, sessionId, protocolVersion: "2025-11-25" });
    }
    // The DELETE closed the session the probe opened.
    expect(countMcpSseSessions()).toBe(sessionsBefore);
    await vi.waitFor(() => {
      expect(MCP_SSE_LOG.streams).toEqual(
        expect.arrayContaining([
          { rpcMethod: "initialize", closedBy: "client" },
          { rpcMethod: "tools/list", closedBy: "client" },
        ]),
      );
    });
  });

  it("completes the handshake with the stateless JSON server, without a DELETE", async () => {
    const result = await probeMcpEndpoint(createPlainFetcher(), `${originOf("mcp-json")}/mcp`);
    expect(result).toMatchObject({ verified: true, outcome: "compliant", serverName: "ledgerly", toolCount: 3 });
    expect(result.note).toContain("replies in JSON");
    expect(result.fetched.map((record) => [record.status, record.content_type])).toEqual([
      [400, "application/json"],
      [200, "application/json"],
      [202, null],
      [200, "application/json"],
    ]);
  });

  it("completes the handshake with the stateful JSON server and frees its session", async () => {
    const result = await probeMcpEndpoint(
      createPlainFetcher(),
      `${originOf("mcp-server-card")}${MCP_SERVER_CARD_PATH}`,
    );
    expect(result).toMatchObject({ verified: true, outcome: "compliant", serverName: "parcel-point", toolCount: 3 });
    expect(result.fetched).toHaveLength(5);
  });

  it("reports an OAuth-protected endpoint as gated, with its Bearer challenge", async () => {
    const origin = originOf("mcp-gated");
    const result = await probeMcpEndpoint(createPlainFetcher(), `${origin}/mcp`);
    expect(result).toMatchObject({
      verified: false,
      outcome: "gated",
      gate: { status: 401, bearer: true, resourceMetadata: `${origin}/.well-known/oauth-protected-resource` },
    });
    expect(result.note).toContain("401 Unauthorized");
    expect(result.note).toContain("resource_metadata");
    expectPlainNote(result.note);
  });

  it("reports a 403 as gated without a challenge", async () => {
    const result = await probeMcpEndpoint(createPlainFetcher(), `${originOf("mcp-forbidden")}/mcp`);
    expect(result).toMatchObject({
      verified: false,
      outcome: "gated",
      gate: { status: 403, bearer: false, resourceMetadata: null },
    });
    expect(result.note).toBe("The endpoint refused server/discover with 403 Forbidden.");
  });

  it("recognises the legacy HTTP+SSE transport as the wrong transport, promptly", async () => {
    const started = Date.now();
    const result = await probeMcpEndpoint(createPlainFetcher(), `${originOf("mcp-legacy-sse")}/mcp`);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result).toMatchObject({ verified: false, outcome: "wrong_transport" });
    expect(result.note).toContain("answered 405");
    expect(result.note).toContain("GET /sse opens an SSE stream with an endpoint event");
    expect(result.note).toContain("legacy HTTP+SSE");
    expect(result.fetched.map((record) => record.status)).toEqual([405, 404, 200]);
  });

  it("reports an HTML page as not MCP", async () => {
    const result = await probeMcpEndpoint(createPlainFetcher(), `${originOf("mcp-not-mcp")}/mcp`);
    expect(result).toMatchObject({ verified: false, outcome: "not_mcp" });
    expect(result.note).toBe(
      "The endpoint answered 200 with an HTML page, not a reply to initialize. (First, server/discover was answered 200 with an HTML page.)",
    );
  });

  it("reports a closed port as unreachable", async () => {
    const result = await probeMcpEndpoint(createPlainFetcher(), "http://127.0.0.1:1/mcp");
    expect(result).toMatchObject({ verified: false, outcome: "unreachable" });
    expect(result.note).toMatch(/^The endpoint could not be reached: /);
  });
});

interface Canned {
  status?: number;
  body?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
}

/** A fetcher answering from a script: `reply` picks the answer for each request. */
function createScriptedFetcher(reply: (url: string, request: ProbeRequest) => Canned | ProbeResponse): {
  fetch: SiteFetcher;
  requests: { url: string; request: ProbeRequest }[];
} {
  const requests: { url: string; request: ProbeRequest }[] = [];
  const fetch: SiteFetcher = async (url, request = {}) => {
    requests.push({ url, request });
    const canned = reply(url, request);
    if ("ok" in canned) return canned;
    const contentType = canned.contentType === undefined ? "application/json" : canned.contentType;
    const headers = new Headers(canned.headers);
    if (contentType) headers.set("content-type", contentType);
    return {
      ok: true,
      url,
      finalUrl: url,
      redirects: [],
      status: canned.status ?? 200,
      headers,
      contentType,
      body: canned.body ?? "",
    };
  };
  return { fetch, requests };
}

function rpcMethodOf(request: ProbeRequest): string | undefined {
  return request.body ? (JSON.parse(request.body) as { method?: string }).method : undefined;
}

const INITIALIZE_RESULT = {
  jsonrpc: "2.0",
  id: 1,
  result: {
    protocolVersion: "2025-06-18",
    capabilities: { tools: {} },
    serverInfo: { name: "scripted", version: "1" },
  },
};

const ENDPOINT = "https://mcp.example/mcp";

describe("probeMcpEndpoint against scripted answers", () => {
  it("sends server/discover as the 2026-07-28 spec describes, then the 2025 initialize on a 400", async () => {
    const { fetch, requests } = createScriptedFetcher(() => ({ status: 400, contentType: "text/plain", body: "no" }));
    await probeMcpEndpoint(fetch, ENDPOINT);
    const discover = requests[0]!;
    expect(discover.url).toBe(ENDPOINT);
    expect(discover.request.method).toBe("POST");
    expect(discover.request.headers).toEqual({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "server/discover",
    });
    expect(JSON.parse(discover.request.body!)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "agent-readiness-verifier", version: "1.0.0" },
        },
      },
    });
    const first = requests[1]!;
    expect(first.url).toBe(ENDPOINT);
    expect(first.request.method).toBe("POST");
    // The 2025 leg carries no 2026 header, as a 2025 client's would not.
    expect(first.request.headers).toEqual({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    });
    expect(JSON.parse(first.request.body!)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "agent-readiness-verifier", version: "1.0.0" },
      },
    });
  });

  it("stops an SSE reply at the response of the awaited id, not at other messages", async () => {
    const { fetch, requests } = createScriptedFetcher(() => ({ status: 404, contentType: "text/plain" }));
    await probeMcpEndpoint(fetch, ENDPOINT);
    const readUntil = requests[0]!.request.readUntil!;
    const serverRequest = 'event: message\ndata: {"jsonrpc":"2.0","id":1,"method":"ping"}\n\n';
    const response = `event: message\ndata: ${JSON.stringify(INITIALIZE_RESULT)}\n\n`;
    expect(readUntil(serverRequest)).toBe(false);
    expect(readUntil(`${serverRequest}${response.slice(0, -1)}`)).toBe(false);
    expect(readUntil(`${serverRequest}${response}`)).toBe(true);
  });

  it("uses the negotiated version, and notes an unexpected answer to the initialized notification", async () => {
    const { fetch, requests } = createScriptedFetcher((_url, request) => {
      const method = rpcMethodOf(request);
      if (method === "initialize") return { body: JSON.stringify(INITIALIZE_RESULT) };
      if (method === "notifications/initialized") return { status: 400, contentType: null };
      return { body: JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools: [{ name: "a" }] } }) };
    });
    const result = await probeMcpEndpoint(fetch, ENDPOINT);
    expect(result).toMatchObject({ outcome: "compliant", protocolVersion: "2025-06-18", toolCount: 1 });
    expect(result.note).toContain("1 tool, replies in JSON. The initialized notification got 400, not 202.");
    expect(requests[3]!.request.headers).toMatchObject({ "mcp-protocol-version": "2025-06-18" });
    expect(requests[3]!.request.headers).not.toHaveProperty("mcp-session-id");
    expect(requests).toHaveLength(4);
  });

  it("reports a JSON-RPC error to initialize as not MCP, quoting at most 80 characters", async () => {
    const message = `<b>nope</b> ${"x".repeat(200)}`;
    const { fetch } = createScriptedFetcher(() => ({
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32602, message } }),
    }));
    const result = await probeMcpEndpoint(fetch, ENDPOINT);
    expect(result.outcome).toBe("not_mcp");
    expect(result.note).toMatch(
      /^The endpoint answered initialize \(200\) with JSON-RPC error -32602 \(nope x+…\)\. \(First, server\/discover got 200 with JSON-RPC error -32602 \(nope x+…\)\.\)$/,
    );
    expectPlainNote(result.note);
    const quoted = /\((nope x+…)\)/.exec(result.note)![1]!;
    expect(quoted.length).toBe(80);
  });

  it("reports JSON that is not a JSON-RPC response, and a result without serverInfo, as not MCP", async () => {
    const plain = createScriptedFetcher(() => ({ body: '{"status":"ok"}' }));
    expect((await probeMcpEndpoint(plain.fetch, ENDPOINT)).note).toBe(
      "The endpoint answered 200 with JSON that is not a JSON-RPC 2.0 response of id 1, not a reply to initialize. (First, server/discover was answered 200 with JSON that is not a JSON-RPC 2.0 response of id 1.)",
    );
    const partial = createScriptedFetcher(() => ({
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-06-18" } }),
    }));
    const result = await probeMcpEndpoint(partial.fetch, ENDPOINT);
    expect(result).toMatchObject({
      outcome: "not_mcp",
      note: "The endpoint's initialize result lacks serverInfo.name. (First, the server/discover result has no supportedVersions.)",
    });
  });

  it("reports a 406 and an SSE reply without JSON-RPC as the wrong transport", async () => {
    const refused = createScriptedFetcher(() => ({ status: 406 }));
    expect((await probeMcpEndpoint(refused.fetch, ENDPOINT)).outcome).toBe("wrong_transport");
    const stream = createScriptedFetcher(() => ({
      contentType: "text/event-stream",
      body: "event: endpoint\ndata: /messages?sessionId=1\n\n",
    }));
    const result = await probeMcpEndpoint(stream.fetch, ENDPOINT);
    expect(result.outcome).toBe("wrong_transport");
    expect(result.note).toContain("no JSON-RPC response but an endpoint event");
  });

  it("reports a 401 without a Bearer challenge, and a CSRF 403 is not a refusal of MCP", async () => {
    const basic = createScriptedFetcher(() => ({ status: 401, headers: { "www-authenticate": 'Basic realm="x"' } }));
    const result = await probeMcpEndpoint(basic.fetch, ENDPOINT);
    expect(result).toMatchObject({ outcome: "gated", gate: { status: 401, bearer: false } });
    expect(result.note).toBe(
      "The endpoint refused server/discover with 401 Unauthorized and offered no Bearer challenge.",
    );
    const csrf = createScriptedFetcher(() => ({
      status: 403,
      contentType: "text/html",
      body: "<html><title>403</title>CSRF verification failed.</html>",
    }));
    expect((await probeMcpEndpoint(csrf.fetch, ENDPOINT)).outcome).toBe("not_mcp");
  });

  it("refuses an endpoint that is not a URL without fetching", async () => {
    const { fetch, requests } = createScriptedFetcher(() => ({ status: 200 }));
    const result = await probeMcpEndpoint(fetch, "not a url");
    expect(result).toMatchObject({ outcome: "not_mcp", note: "The endpoint is not a valid URL.", fetched: [] });
    expect(requests).toHaveLength(0);
  });

  it("carries the refusal of the endpoint's own address", async () => {
    const { fetch } = createScriptedFetcher((url) => ({
      ok: false,
      url,
      finalUrl: url,
      redirects: [],
      failure: "refused",
      message: "resolves to a private address (10.0.0.8)",
    }));
    const result = await probeMcpEndpoint(fetch, ENDPOINT);
    expect(result).toMatchObject({
      outcome: "unreachable",
      note: "The endpoint could not be reached: resolves to a private address (10.0.0.8).",
    });
  });

  it("reports a tools/list without tools as not MCP, still closing the session", async () => {
    const { fetch, requests } = createScriptedFetcher((_url, request) => {
      if (request.method === "DELETE") return { status: 405, contentType: null };
      const method = rpcMethodOf(request);
      if (method === "initialize")
        return { body: JSON.stringify(INITIALIZE_RESULT), headers: { "mcp-session-id": "s1" } };
      if (method === "notifications/initialized") return { status: 202, contentType: null };
      return { body: JSON.stringify({ jsonrpc: "2.0", id: 2, error: { code: -32601, message: "Method not found" } }) };
    });
    const result = await probeMcpEndpoint(fetch, ENDPOINT);
    expect(result).toMatchObject({ outcome: "not_mcp", verified: false, serverName: "scripted" });
    expect(result.note).toBe(
      'Initialize succeeded in the 2025 era (server "scripted"), but tools/list returned JSON-RPC error -32601 (Method not found).',
    );
    expect(requests.at(-1)!.request).toMatchObject({
      method: "DELETE",
      headers: { "mcp-session-id": "s1", "mcp-protocol-version": "2025-06-18" },
    });
  });
});

describe("detectMcpServer against the fixture web", () => {
  for (const [name, expectation] of Object.entries(MCP_EXPECTATIONS)) {
    it(`${name}: ${expectation.signals.has_mcp_server}`, async () => {
      const finding = await detectMcpServer({ origin: originOf(name), fetch: createMemoisedFetcher() });
      expect(finding.status, finding.reason).toBe(expectation.signals.has_mcp_server);
      expect(finding.reason).not.toMatch(/[<>]/);
      expect(finding.fetched.length).toBeGreaterThanOrEqual(4);
    });
  }

  it("finds mcp-sse through /.well-known/mcp.json", async () => {
    const origin = originOf("mcp-sse");
    const finding = await detectMcpServer({ origin, fetch: createMemoisedFetcher() });
    expect(finding.details).toEqual({
      endpoint: `${origin}${MCP_SSE_PATH}`,
      advertised: true,
      outcome: "compliant",
      era: "2025",
      protocol_version: "2025-11-25",
      server_name: "relay-agents",
      tool_count: 3,
      tools: [
        { name: "add", description: "Adds two numbers." },
        { name: "echo", description: "Returns the text given." },
        { name: "count_words", description: "Counts the words of a text." },
      ],
      discovery_url: `${origin}/.well-known/mcp.json`,
      route: "/.well-known/mcp.json names the MCP endpoint /agents/mcp",
      resource_metadata: null,
    });
    expect(finding.reason).toMatch(/^\/\.well-known\/mcp\.json names the MCP endpoint \/agents\/mcp\. MCP handshake/);
  });

  it("finds mcp-server-card through its card, preferring the Streamable HTTP remote", async () => {
    const origin = originOf("mcp-server-card");
    const finding = await detectMcpServer({ origin, fetch: createMemoisedFetcher() });
    expect(finding.details).toMatchObject({
      endpoint: `${origin}${MCP_SERVER_CARD_PATH}`,
      discovery_url: `${origin}/.well-known/mcp/server-card.json`,
    });
  });

  it("tries /mcp on mcp-json, with no discovery document", async () => {
    const origin = originOf("mcp-json");
    const finding = await detectMcpServer({ origin, fetch: createMemoisedFetcher() });
    expect(finding.details).toMatchObject({ endpoint: `${origin}/mcp`, discovery_url: null, outcome: "compliant" });
    // The conventional /mcp answered, but nothing advertised it: no MCP endpoint health for the site.
    expect(finding.details).toMatchObject({ advertised: false });
    expect(mcpEndpointHealthCode(finding.details)).toBeNull();
  });

  it("tries an MCP Registry lead after the site's own documents, and counts the site as advertising it", async () => {
    const origin = originOf("mcp-not-mcp");
    const broken = await detectMcpServer({
      origin,
      fetch: createMemoisedFetcher(),
      mcpLeads: [`${origin}/registry/mcp`],
    });
    expect(broken.status).toBe("absent");
    expect(broken.details).toMatchObject({
      endpoint: `${origin}/registry/mcp`,
      advertised: true,
      outcome: "not_mcp",
      route: "the MCP Registry lists the endpoint /registry/mcp",
    });
    expect(broken.fetched.map((record) => record.url)).toContain(`${origin}/registry/mcp`);
    expect(mcpEndpointHealthCode(broken.details)).toBe(MCP_ENDPOINT_HEALTH.indexOf("not_mcp"));

    const working = `${originOf("mcp-sse")}${MCP_SSE_PATH}`;
    const found = await detectMcpServer({ origin, fetch: createMemoisedFetcher(), mcpLeads: [working] });
    expect(found.status).toBe("present");
    expect(found.details).toMatchObject({ endpoint: working, advertised: true, outcome: "compliant" });
    expect(mcpEndpointHealthCode(found.details)).toBe(MCP_ENDPOINT_HEALTH.indexOf("handshake"));
  });

  it("explains that a legacy-SSE-only server does not count", async () => {
    const finding = await detectMcpServer({ origin: originOf("mcp-legacy-sse"), fetch: createMemoisedFetcher() });
    expect(finding.details).toMatchObject({ outcome: "wrong_transport" });
    expect(finding.reason).toContain("A server without the Streamable HTTP transport does not count.");
  });

  it("counts the OAuth-protected server as present", async () => {
    const finding = await detectMcpServer({ origin: originOf("mcp-gated"), fetch: createMemoisedFetcher() });
    expect(finding).toMatchObject({ status: "present", details: { outcome: "gated" } });
  });

  it("gives each probe outcome its class of MCP endpoint health", () => {
    expect(
      (["compliant", "gated", "wrong_transport", "not_mcp", "unreachable"] as const).map(mcpEndpointHealthOf),
    ).toEqual(["handshake", "auth_gated", "not_mcp", "not_mcp", "unreachable"]);
    expect(mcpEndpointHealthCode({ advertised: true, outcome: "gated" })).toBe(1);
    expect(mcpEndpointHealthCode({ advertised: true, outcome: "unreachable" })).toBe(3);
    expect(mcpEndpointHealthCode({ advertised: false, outcome: "compliant" })).toBeNull();
    expect(mcpEndpointHealthCode(undefined)).toBeNull();
  });
});

describe("detectMcpServer against scripted answers", () => {
  it("is blocked when a discovery document is refused and the handshake proves nothing", async () => {
    const { fetch } = createScriptedFetcher((url) =>
      url.endsWith("/.well-known/mcp.json")
        ? { status: 403, contentType: "text/plain" }
        : { status: 404, contentType: "text/plain" },
    );
    const finding = await detectMcpServer({ origin: "https://site.example", fetch });
    expect(finding.status).toBe("blocked");
    expect(finding.reason).toMatch(/^\/\.well-known\/mcp\.json refused the crawler \(403 Forbidden\)\./);
  });

  it("is an error when the endpoint is unreachable and nothing else decided", async () => {
    const { fetch } = createScriptedFetcher((url, request) =>
      request.method === "POST"
        ? { ok: false, url, finalUrl: url, redirects: [], failure: "timeout", message: "no answer within 5000 ms" }
        : { status: 404, contentType: "text/plain" },
    );
    const finding = await detectMcpServer({ origin: "https://site.example", fetch });
    expect(finding).toMatchObject({ status: "error", details: { outcome: "unreachable", discovery_url: null } });
  });

  it("is absent when the POST is refused (405, 501) or not found, and an error only on another 5xx", async () => {
    for (const [status, expected] of [
      [404, "absent"],
      [405, "absent"],
      [501, "absent"],
      [500, "error"],
      [503, "error"],
    ] as const) {
      const { fetch } = createScriptedFetcher((_url, request) =>
        request.method === "POST"
          ? { status, contentType: "text/html", body: `<html><title>Error ${status}</title></html>` }
          : { status: 404, contentType: "text/plain" },
      );
      const finding = await detectMcpServer({ origin: "https://site.example", fetch });
      expect(finding.status, String(status)).toBe(expected);
    }
  });

  it("is present behind a discovery document on another host, probing the endpoint it names", async () => {
    const { fetch, requests } = createScriptedFetcher((url, request) => {
      if (url === "https://site.example/.well-known/mcp.json") {
        return { body: JSON.stringify({ mcp_url: "https://mcp.site.example/v1" }) };
      }
      if (url.startsWith("https://site.example/")) return { status: 404, contentType: "text/plain" };
      const method = rpcMethodOf(request);
      if (method === "initialize") return { body: JSON.stringify(INITIALIZE_RESULT) };
      if (method === "notifications/initialized") return { status: 202, contentType: null };
      return { body: JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools: [] } }) };
    });
    const finding = await detectMcpServer({ origin: "https://site.example", fetch });
    expect(finding).toMatchObject({
      status: "present",
      details: { endpoint: "https://mcp.site.example/v1", tool_count: 0 },
    });
    // The conventional endpoint is tried while the documents are read: one server/discover (its
    // 404 settles both eras), no more.
    const posts = requests.filter((entry) => entry.request.method === "POST").map((entry) => entry.url);
    expect(posts.filter((url) => url === "https://mcp.site.example/v1")).toHaveLength(4);
    expect(posts.filter((url) => url !== "https://mcp.site.example/v1")).toEqual(["https://site.example/mcp"]);
  });
});

describe("findDiscoveredEndpoint", () => {
  const base = "https://site.example/.well-known/mcp.json";
  it.each([
    [{ url: "https://site.example/mcp" }, "https://site.example/mcp"],
    [{ endpoint: "/mcp" }, "https://site.example/mcp"],
    [{ mcp_url: "https://mcp.site.example/" }, "https://mcp.site.example/"],
    [{ mcpUrl: "https://site.example/x" }, "https://site.example/x"],
    [{ endpoint: { url: "/e" } }, "https://site.example/e"],
    [{ transport: { type: "streamable-http", url: "/t" } }, "https://site.example/t"],
    [{ remotes: [{ type: "streamable-http", url: "https://site.example/r" }] }, "https://site.example/r"],
    [
      {
        remotes: [
          { type: "sse", url: "/sse" },
          { type: "streamable-http", url: "/mcp" },
        ],
      },
      "https://site.example/mcp",
    ],
    [{ endpoints: [{ transport: { type: "http", url: "/ep" } }] }, "https://site.example/ep"],
    [{ servers: [{ name: "a", url: "/s" }] }, "https://site.example/s"],
    [
      { servers: [{ name: "a", remotes: [{ type: "streamable-http", url: "/nested" }] }] },
      "https://site.example/nested",
    ],
    [{ remotes: [{ type: "streamable-http", url: "https://{tenant}.site.example/mcp" }] }, null],
    [{ servers: [{ transport: "stdio", command: "npx x" }] }, null],
    [{ url: "javascript:alert(1)" }, null],
    [{ name: "nothing here" }, null],
    [["/mcp"], null],
    ["https://site.example/mcp", null],
  ])("%j → %s", (document, expected) => {
    expect(findDiscoveredEndpoint(document, base)).toBe(expected);
  });
});

describe("parseSseEvents", () => {
  it("returns complete events only, with their type, joined data lines and no comments", () => {
    const text =
      ": keepalive\n\nevent: endpoint\ndata: /messages\n\ndata: a\r\ndata: b\r\n\r\nevent: message\ndata: partial";
    expect(parseSseEvents(text)).toEqual([
      { event: "endpoint", data: "/messages" },
      { event: "message", data: "a\nb" },
    ]);
  });

  it("leaves out an event whose blank line has not arrived", () => {
    expect(parseSseEvents("event: message\ndata: {}\n")).toEqual([]);
    expect(parseSseEvents("event: message\ndata: {}\n\n")).toEqual([{ event: "message", data: "{}" }]);
  });
});

describe("resolveVerifyTarget", () => {
  it.each([
    ["example.com/mcp", "https://example.com/mcp"],
    ["example.com", "https://example.com/mcp"],
    ["example.com/", "https://example.com/mcp"],
    ["  https://example.com/agents/mcp  ", "https://example.com/agents/mcp"],
    ["http://example.com", "http://example.com/mcp"],
    ["HTTPS://Example.COM/MCP", "https://example.com/MCP"],
    ["example.com:8443/mcp", "https://example.com:8443/mcp"],
    ["localhost:8787", "https://localhost:8787/mcp"],
    ["//example.com/x", "https://example.com/x"],
    ["https://example.com/?key=1#top", "https://example.com/mcp?key=1"],
  ])("%s → %s", (input, url) => {
    expect(resolveVerifyTarget(input)).toEqual({ ok: true, url });
  });

  it.each([
    ["", "it is empty"],
    ["ftp://example.com/mcp", "only http and https URLs can be probed"],
    ["javascript:alert(1)", "only http and https URLs can be probed"],
    ["mailto:someone@example.com", "only http and https URLs can be probed"],
    ["https://user:secret@example.com/mcp", "URLs with credentials are not probed"],
    ["https://exa mple.com/mcp", "it is not a valid URL"],
  ])("%j is refused", (input, reason) => {
    expect(resolveVerifyTarget(input)).toEqual({ ok: false, reason });
  });
});

describe("the MCP fixtures are genuine", () => {
  for (const [name, path] of [
    ["mcp-sse", MCP_SSE_PATH],
    ["mcp-json", "/mcp"],
  ] as const) {
    it(`an SDK client connects to ${name}, lists its tools and calls one`, async () => {
      const client = new Client({ name: "fixture-check", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${originOf(name)}${path}`)));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual(["add", "count_words", "echo"]);
        const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
        expect(sum.content).toEqual([{ type: "text", text: "5" }]);
      } finally {
        await client.close();
      }
    });
  }
});
