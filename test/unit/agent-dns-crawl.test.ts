/**
 * DNS discovery end to end: the DoH record lookup (adapters/dns-records.ts) against a local
 * JSON DoH resolver over HTTP, and whole crawls (crawlSite) of local sites that publish auth.md,
 * an MCP Registry proof and an NLWeb endpoint, with their DNS records served by that resolver.
 * A resolver that fails, times out or answers SERVFAIL leaves the check undecided (error), never
 * absent; a crawl never POSTs to a registration endpoint and stays within its request budget.
 */
import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDohRecordLookup } from "../../src/adapters/dns-records.ts";
import { DnsLookupError } from "../../src/adapters/outbound/dns-over-https.ts";
import { CRAWL_REQUEST_BUDGET, createConcurrencyLimiter } from "../../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite } from "../../src/domain/crawling/crawl-site.ts";
import type { SiteFetcher } from "../../src/domain/signals/types.ts";
import { createPlainFetcher } from "../support/plain-fetcher.ts";

const TYPES: Record<string, number> = { TXT: 16, SVCB: 64, HTTPS: 65 };

/** What the resolver answers for `<type> <name>`: records, an RCODE, an HTTP status, or silence. */
type Zone = Record<string, string[] | { status: number } | { http: number } | "hang">;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let zone: Zone = {};
let resolver: Server;
let dohUrl: string;
let site: Server;
let siteOrigin: string;
const posts: string[] = [];
const key = Buffer.from(generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }).x!, "base64url").toString(
  "base64",
);

beforeAll(async () => {
  resolver = createServer((request, response) => {
    const params = new URL(request.url ?? "/", "http://doh").searchParams;
    const name = params.get("name") ?? "";
    const type = params.get("type") ?? "";
    const entry = zone[`${type} ${name}`];
    if (entry === "hang") return;
    if (entry && !Array.isArray(entry) && "http" in entry) {
      response.writeHead(entry.http);
      response.end("trouble");
      return;
    }
    const status = entry && !Array.isArray(entry) ? entry.status : 0;
    const records = Array.isArray(entry) ? entry : [];
    response.writeHead(200, { "content-type": "application/dns-json" });
    response.end(
      JSON.stringify({
        Status: status,
        TC: false,
        Question: [{ name, type: TYPES[type] }],
        // TXT data in the wire form Cloudflare gives (quoted strings).
        Answer: records.map((data) => ({
          name,
          type: TYPES[type],
          TTL: 300,
          data: type === "TXT" ? `"${data}"` : data,
        })),
      }),
    );
  });
  dohUrl = `${await listen(resolver)}/dns-query`;
  site = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://site");
    if (request.method !== "GET" && request.method !== "HEAD") {
      posts.push(`${request.method} ${url.pathname}`);
      response.writeHead(405);
      response.end();
      return;
    }
    const origin = `http://${request.headers.host}`;
    const routes: Record<string, [string, string]> = {
      "/": [
        "text/html",
        '<!doctype html><html><head><title>Larder</title><link rel="nlweb" href="/ask"></head><body>Recipes</body></html>',
      ],
      "/auth.md": ["text/markdown", "# auth.md\n\nThis service supports agentic registration.\n"],
      "/.well-known/oauth-protected-resource": [
        "application/json",
        JSON.stringify({ resource: origin, authorization_servers: [origin] }),
      ],
      "/.well-known/oauth-authorization-server": [
        "application/json",
        JSON.stringify({
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          response_types_supported: ["code"],
          agent_auth: { register_uri: `${origin}/agent/auth`, identity_types_supported: ["user_claimed"] },
        }),
      ],
      "/.well-known/mcp-registry-auth": ["text/plain", `v=MCPv1; k=ed25519; p=${key}\n`],
      "/ask": [
        "application/json",
        JSON.stringify({ query_id: "1", results: [{ url: `${origin}/r/1`, name: "Soup", site: "larder", score: 1 }] }),
      ],
    };
    const route = routes[url.pathname];
    response.writeHead(route ? 200 : 404, { "content-type": route ? route[0] : "text/plain" });
    response.end(route ? route[1] : "Not found");
  });
  siteOrigin = (await listen(site)).replace("127.0.0.1", "localhost");
});

afterAll(async () => {
  for (const server of [resolver, site]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("createDohRecordLookup", () => {
  it("reads TXT (joined strings), SVCB and HTTPS answers; [] for NXDOMAIN and NODATA", async () => {
    zone = {
      "TXT _agent.a.test": ["v=aid1;u=https://a.test/mcp;p=mcp"],
      "HTTPS _mcp._agents.a.test": ['1 mcp.a.test. alpn="h2" port=443'],
      "SVCB _index._agents.a.test": { status: 3 },
    };
    const lookup = createDohRecordLookup({ url: dohUrl });
    expect(await lookup("_agent.a.test", "TXT")).toEqual(["v=aid1;u=https://a.test/mcp;p=mcp"]);
    expect(await lookup("_mcp._agents.a.test", "HTTPS")).toEqual(['1 mcp.a.test. alpn="h2" port=443']);
    expect(await lookup("_index._agents.a.test", "SVCB")).toEqual([]);
    expect(await lookup("_a2a._agents.a.test", "SVCB")).toEqual([]);
  });

  it("throws (undecided) for SERVFAIL, an HTTP error, a timeout and an unreachable resolver", async () => {
    zone = { "TXT s.test": { status: 2 }, "TXT h.test": { http: 502 }, "TXT t.test": "hang" };
    const lookup = createDohRecordLookup({ url: dohUrl, timeoutMs: 300 });
    await expect(lookup("s.test", "TXT")).rejects.toThrow(/SERVFAIL/);
    await expect(lookup("h.test", "TXT")).rejects.toThrow(/HTTP 502/);
    await expect(lookup("t.test", "TXT")).rejects.toThrow(/timed out/);
    await expect(
      createDohRecordLookup({ url: "http://127.0.0.1:1/dns-query" })("x.test", "TXT"),
    ).rejects.toBeInstanceOf(DnsLookupError);
  });
});

async function crawl() {
  const plain = createPlainFetcher(5000);
  const requests: string[] = [];
  const fetcher: SiteFetcher = (url, request) => {
    requests.push(`${request?.method ?? "GET"} ${url}`);
    return plain(url, request);
  };
  const result = await crawlSite({
    origin: siteOrigin,
    fetcher,
    limiter: createConcurrencyLimiter(6),
    dnsRecords: createDohRecordLookup({ url: dohUrl, timeoutMs: 500 }),
  });
  const status = (id: string) => result.checklist!.checks.find((check) => check.id === id)!;
  return { result, requests, status };
}

describe("crawls with DNS discovery", () => {
  it("judges auth.md, the registry proof and NLWeb from the site, and never POSTs or registers", async () => {
    zone = {};
    const { result, requests, status } = await crawl();
    expect(status("auth_md").status, status("auth_md").reason).toBe("pass");
    expect(status("mcp_registry_auth").status).toBe("pass");
    expect(status("nlweb").status, status("nlweb").reason).toBe("pass");
    expect(status("dns_agent_discovery").status).toBe("neutral");
    expect(requests.some((each) => each.includes("/agent/auth"))).toBe(false);
    expect(requests.filter((each) => each.startsWith("GET") && each.includes("/ask?"))).toHaveLength(1);
    expect(posts.filter((each) => each.includes("agent"))).toEqual([]);
    expect(result.requestCount).toBeLessThanOrEqual(CRAWL_REQUEST_BUDGET);
  });

  it("a broken AID record fails; a resolver that fails or does not answer is error, never absent", async () => {
    zone = { "TXT _agent.localhost": ["v=aid1;u=http://localhost/mcp;p=mcp"] };
    expect((await crawl()).status("dns_agent_discovery").status).toBe("fail");
    for (const trouble of [{ status: 2 }, { http: 503 }, "hang"] as const) {
      zone = { "TXT _agent.localhost": trouble };
      const { status } = await crawl();
      expect(status("dns_agent_discovery").status, JSON.stringify(trouble)).toBe("error");
    }
  });
});
