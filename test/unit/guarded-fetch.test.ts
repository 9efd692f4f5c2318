import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createOutbound } from "../../src/adapters/outbound/create-outbound.ts";
import { createCheckResolver, createDohLookup, createDohResolver } from "../../src/adapters/outbound/dns-over-https.ts";
import {
  createGuardedFetch,
  type GuardedFetchOptions,
  vetHostAddresses,
} from "../../src/adapters/outbound/guarded-fetch.ts";
import type { ProbeResponse } from "../../src/domain/signals/types.ts";
import { type FakeDoh, startFakeDoh } from "../support/fake-doh.ts";

const USER_AGENT = "AgentReadinessBot/1.0 (+https://example.org/bot)";
/** Names the fake resolver maps to public addresses; the routed fetch sends them to the site. */
const PUBLIC_HOSTS = new Set([
  "public.test",
  "www.public.test",
  "93.184.216.34",
  "rebinding.test",
  "rebinding-outbound.test",
]);
const MIB = 1_048_576;

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

interface LocalServer {
  port: number;
  requests: string[];
  stop(): Promise<void>;
}

async function startServer(handler: Handler): Promise<LocalServer> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => handler(request, response, Buffer.concat(chunks).toString("utf8")));
  });
  server.keepAliveTimeout = 500;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The fixture "public" site. */
const site: Handler = (request, response, body) => {
  const url = new URL(request.url ?? "/", "http://public.test");
  const path = url.pathname;
  if (path === "/hello") {
    response.writeHead(200, { "content-type": "Text/Plain; Charset=UTF-8" });
    response.end("hello");
  } else if (path === "/no-type") {
    response.end("plain bytes");
  } else if (path === "/echo") {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ method: request.method, headers: request.headers, body }));
  } else if (path === "/redirect") {
    response.writeHead(Number(url.searchParams.get("status") ?? 302), { location: url.searchParams.get("to") ?? "/" });
    response.end();
  } else if (path === "/no-location") {
    response.writeHead(302);
    response.end("nowhere to go");
  } else if (path.startsWith("/chain/")) {
    const left = Number(path.slice("/chain/".length));
    if (left > 0) {
      response.writeHead(302, { location: `/chain/${left - 1}` });
      response.end();
    } else {
      response.end("end of chain");
    }
  } else if (path === "/loop-a" || path === "/loop-b") {
    response.writeHead(301, { location: path === "/loop-a" ? "/loop-b" : "/loop-a" });
    response.end();
  } else if (path === "/bytes") {
    const size = Number(url.searchParams.get("n"));
    const declared = url.searchParams.get("declared") === "1";
    response.writeHead(200, { "content-type": "text/plain", ...(declared ? { "content-length": size } : {}) });
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    while (sent < size) {
      const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
      response.write(part);
      sent += part.length;
    }
    response.end();
  } else if (path === "/split-utf8") {
    const bytes = Buffer.from("café ünïcode", "utf8");
    response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    response.write(bytes.subarray(0, 4));
    setTimeout(() => response.end(bytes.subarray(4)), 20);
  } else if (path === "/hang") {
    // Never answers.
  } else if (path === "/drip") {
    response.writeHead(200, { "content-type": "text/plain" });
    const timer = setInterval(() => response.write("."), 50);
    response.on("close", () => clearInterval(timer));
  } else if (path === "/sse") {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
    response.write("event: endpoint\ndata: /messages?session=1\n\n");
    // The stream stays open, as an MCP SSE endpoint's does.
  } else {
    response.writeHead(404, { "content-type": "text/plain" });
    response.end("not found");
  }
};

let doh: FakeDoh;
let publicSite: LocalServer;
let canary: LocalServer;
/** Every URL the guarded fetcher handed to the network layer, in order. */
const outbound: string[] = [];

const routedFetch: typeof fetch = (input, init) => {
  const target = new URL(input instanceof Request ? input.url : String(input));
  outbound.push(target.href);
  // Anything not on the public fixture lands on the canary, so a guard leak is always counted.
  const port = PUBLIC_HOSTS.has(target.hostname) ? publicSite.port : canary.port;
  return fetch(`http://127.0.0.1:${port}${target.pathname}${target.search}`, init);
};

function guarded(overrides: Partial<GuardedFetchOptions> = {}) {
  return createGuardedFetch({
    resolver: createDohResolver({ url: doh.url }),
    allowPrivate: false,
    userAgent: USER_AGENT,
    fetchImpl: routedFetch,
    ...overrides,
  });
}

function expectFailure(response: ProbeResponse, failure: string) {
  expect(response.ok, JSON.stringify(response)).toBe(false);
  if (!response.ok) expect(response.failure, `${response.url}: ${response.message}`).toBe(failure);
}

function expectAnswer(response: ProbeResponse) {
  expect(response.ok, JSON.stringify(response)).toBe(true);
  if (!response.ok) throw new Error(response.message);
  return response;
}

/** A URL on the public fixture that redirects to target. */
const via = (target: string, status = 302) =>
  `http://public.test/redirect?status=${status}&to=${encodeURIComponent(target)}`;

beforeAll(async () => {
  publicSite = await startServer(site);
  canary = await startServer((_request, response) => response.end("canary"));
  doh = await startFakeDoh({
    "public.test": { A: ["93.184.216.34"] },
    "www.public.test": { A: ["93.184.216.35"], AAAA: ["2606:2800:220:1:248:1893:25c8:1946"] },
    "private-a.test": { A: ["10.0.0.8"] },
    "loopback-aaaa.test": { AAAA: ["::1"] },
    "mixed.test": { A: ["93.184.216.34", "192.168.0.10"] },
    "mixed-v6.test": { A: ["93.184.216.34"], AAAA: ["fd00::1"] },
    "rebind.test": { cname: "internal-target.test" },
    "internal-target.test": { A: ["127.0.0.1"] },
    "metadata-alias.test": { A: ["169.254.169.254"] },
    "mapped.test": { AAAA: ["::ffff:127.0.0.1"] },
    "127.0.0.1.nip.test": { A: ["127.0.0.1"] },
    "cgnat.test": { A: ["100.64.1.1"] },
    "nat64.test": { AAAA: ["64:ff9b::a9fe:a9fe"] },
    "sixtofour.test": { AAAA: ["2002:c0a8:101::1"] },
    "linklocal6.test": { AAAA: ["fe80::1"] },
    "zero.test": { A: ["0.0.0.0"] },
    "garbage.test": { A: ["not-an-address"] },
    "servfail.test": { status: 2 },
    // The same private address beside a public one, its record's type spelt another way.
    "spelled-string.test": { A: ["93.184.216.34", "10.0.0.8"], typeSpellings: ["number", "numeric-string"] },
    "spelled-mnemonic.test": {
      AAAA: ["2606:2800:220:1:248:1893:25c8:1946", "fd00::1"],
      typeSpellings: ["number", "mnemonic"],
      dataTrailingDot: true,
    },
    // Public, then another public address, with a TTL of 0: the shape of a rebinding name.
    "rebinding.test": { ttl: 0, sequence: [{ A: ["93.184.216.34"] }, { A: ["93.184.216.36"] }] },
    "rebinding-outbound.test": { ttl: 0, sequence: [{ A: ["93.184.216.34"] }, { A: ["93.184.216.36"] }] },
  });
});

afterAll(async () => {
  await Promise.all([doh?.stop(), publicSite?.stop(), canary?.stop()]);
});

describe("the attack corpus", () => {
  const corpus: string[] = [
    // Loopback in every spelling.
    "http://127.0.0.1/",
    "https://127.0.0.1/",
    "http://127.1/",
    "http://127.0.1/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://0x7f.1/",
    "http://0177.0.0.1/",
    "http://0177.1/",
    "http://017700000001/",
    "http://0x7F.0x00.0x00.0x01/",
    "http://127.0.0.1./",
    "http://127.255.255.254/",
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[0:0:0:0:0:ffff:127.0.0.1]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::127.0.0.1]/",
    "http://[2002:7f00:1::]/",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
    // Private ranges.
    "http://10.0.0.1/",
    "http://10.255.255.255/",
    "http://172.16.0.1/",
    "http://172.31.255.254/",
    "http://192.168.1.1/",
    "http://0xc0a80101/",
    "http://3232235777/",
    "http://[::ffff:10.0.0.1]/",
    "http://[fec0::1]/",
    // Cloud metadata.
    "http://169.254.169.254/latest/meta-data/",
    "http://2852039166/",
    "http://0xa9fea9fe/",
    "http://0251.0376.0251.0376/",
    "http://169.254.43518/",
    "http://[::ffff:169.254.169.254]/",
    "http://[fd00:ec2::254]/",
    "http://100.100.100.200/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://metadata/",
    // Link-local, CGNAT, ULA, unspecified, multicast, broadcast, reserved.
    "http://169.254.1.1/",
    "http://[fe80::1]/",
    "http://[fe80::1%25eth0]/",
    "http://100.64.0.1/",
    "http://100.127.255.254/",
    "http://[fc00::1]/",
    "http://[fd12:3456:789a::1]/",
    "http://0.0.0.0/",
    "http://0/",
    "http://[::]/",
    "http://224.0.0.1/",
    "http://[ff02::1]/",
    "http://255.255.255.255/",
    "http://192.0.2.1/",
    "http://198.18.0.1/",
    "http://240.0.0.1/",
    "http://[2001:db8::1]/",
    // Schemes.
    "file:///etc/passwd",
    "ftp://public.test/",
    "gopher://public.test:70/_GET%20/",
    "data:text/plain,hello",
    "javascript:alert(1)",
    "ws://public.test/",
    "wss://public.test/",
    "not a url",
    // Credentials.
    "http://user:pass@public.test/",
    "http://user@public.test/",
    "http://public.test@127.0.0.1/",
    // Ports.
    "http://public.test:8080/",
    "https://public.test:8443/",
    "http://public.test:22/",
    "http://public.test:6379/",
    "http://127.0.0.1:8080/",
    // Private-network names.
    "http://localhost/",
    "http://LOCALHOST./",
    "http://api.localhost/",
    "http://printer.local/",
    "http://db.internal/",
    "http://router.home.arpa/",
    "http://intranet/",
    // Names the resolver maps to non-public addresses (or to nothing).
    "http://private-a.test/",
    "http://loopback-aaaa.test/",
    "http://mixed.test/",
    "http://mixed-v6.test/",
    "http://rebind.test/",
    "http://metadata-alias.test/latest/meta-data/",
    "http://mapped.test/",
    "http://127.0.0.1.nip.test/",
    "http://cgnat.test/",
    "http://nat64.test/",
    "http://sixtofour.test/",
    "http://linklocal6.test/",
    "http://zero.test/",
    "http://garbage.test/",
    "http://nowhere.test/",
    "http://spelled-string.test/",
    "http://spelled-mnemonic.test/",
    // Redirects from the public fixture to private targets: each hop is re-checked.
    via("http://127.0.0.1/"),
    via("http://169.254.169.254/latest/meta-data/", 301),
    via("http://[::1]/", 307),
    via("http://private-a.test/", 308),
    via("http://rebind.test/", 303),
    via("http://localhost:8080/"),
    via("file:///etc/passwd"),
    via("http://0x7f.1/admin"),
    via(via("http://10.0.0.1/")),
    via("http://user:pass@public.test/"),
  ];

  it("holds at least 50 distinct URLs", () => {
    expect(new Set(corpus).size).toBe(corpus.length);
    expect(corpus.length).toBeGreaterThanOrEqual(50);
  });

  it("refuses every one, and none of them reaches the network", async () => {
    const fetchSite = guarded();
    const start = outbound.length;
    const notRefused: string[] = [];
    for (const url of corpus) {
      for (const method of ["GET", "POST"] as const) {
        const response = await fetchSite(url, { method, body: method === "POST" ? "{}" : undefined });
        if (response.ok || response.failure !== "refused" || response.message === "")
          notRefused.push(`${method} ${url}`);
      }
    }
    expect(notRefused).toEqual([]);
    expect(canary.requests).toEqual([]);
    // Only the public fixture's redirect hops were requested.
    for (const href of outbound.slice(start)) expect(PUBLIC_HOSTS.has(new URL(href).hostname), href).toBe(true);
  });

  it("records a refused redirect target as the last hop", async () => {
    const response = await guarded()(via("http://private-a.test/secret"));
    expectFailure(response, "refused");
    expect(response.redirects).toEqual(["http://private-a.test/secret"]);
    expect(response.finalUrl).toBe("http://private-a.test/secret");
    if (!response.ok) expect(response.message).toBe("private-a.test resolves to 10.0.0.8, which is private");
  });

  it("names the address class in its refusals", async () => {
    const fetchSite = guarded();
    const message = async (url: string) => {
      const response = await fetchSite(url);
      return response.ok ? "" : response.message;
    };
    expect(await message("http://0x7f.1/")).toBe("the address 127.0.0.1 is a loopback address");
    expect(await message("http://mixed.test/")).toBe("mixed.test resolves to 192.168.0.10, which is private");
    expect(await message("http://nowhere.test/")).toBe("the host name nowhere.test does not resolve");
    expect(canary.requests).toEqual([]);
  });

  it("names the host DNS says does not exist, and only that host", async () => {
    const fetchSite = guarded();
    const gone = await fetchSite("http://nowhere.test/");
    expect(gone.ok ? null : gone.unresolvedHost).toBe("nowhere.test");
    // A name that exists but is refused for its address, and a failed lookup, are not "gone".
    const refused = await fetchSite("http://mixed.test/");
    expect(refused.ok ? "answered" : refused.unresolvedHost).toBeUndefined();
  });
});

describe("DNS rebinding within a check", () => {
  it("refuses a name whose answer moved to a new address after the check vetted it", async () => {
    const resolver = createCheckResolver(createDohLookup({ url: doh.url }));
    expect(await vetHostAddresses("rebinding.test", { resolver, allowPrivate: false })).toBeNull();
    const before = outbound.length;
    const response = await guarded({ resolver })("http://rebinding.test/hello");
    expectFailure(response, "refused");
    if (!response.ok) {
      expect(response.message).toBe(
        "the DNS answer for rebinding.test changed during the check (first 93.184.216.34, then 93.184.216.36); a name that moves to new addresses between lookups is refused, as DNS rebinding would",
      );
    }
    expect(outbound.length).toBe(before);
  });

  it("compares a request's vetting with its fetches: createOutbound shares one resolver", async () => {
    const resolverOrigin = new URL(doh.url).origin;
    const realFetch = globalThis.fetch;
    // The outbound fetches through the global fetch: the resolver is reached, anything else is routed.
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
      const target = new URL(input instanceof Request ? input.url : String(input));
      return target.origin === resolverOrigin ? realFetch(input, init) : routedFetch(input, init);
    });
    try {
      const outboundOfRequest = createOutbound({ DOH_URL: doh.url, FETCH_ALLOW_PRIVATE: false }, "https://svc.test");
      expect(await outboundOfRequest.vetHost("rebinding-outbound.test")).toBeNull();
      const before = outbound.length;
      const fetchSite = outboundOfRequest.openFetcher({ deadline: Date.now() + 5000 });
      const response = await fetchSite("http://rebinding-outbound.test/hello");
      expectFailure(response, "refused");
      if (!response.ok) expect(response.message).toMatch(/changed during the check/);
      expect(outbound.length).toBe(before);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("answers", () => {
  it("returns status, headers, body and the bare media type", async () => {
    const response = expectAnswer(await guarded()("http://public.test/hello"));
    expect(response).toMatchObject({
      url: "http://public.test/hello",
      finalUrl: "http://public.test/hello",
      redirects: [],
      status: 200,
      contentType: "text/plain",
      body: "hello",
    });
    expect(response.headers.get("content-type")).toBe("Text/Plain; Charset=UTF-8");
  });

  it("reports a missing content type as null and keeps error statuses as answers", async () => {
    expect(expectAnswer(await guarded()("http://public.test/no-type")).contentType).toBeNull();
    expect(expectAnswer(await guarded()("http://public.test/missing")).status).toBe(404);
  });

  it("reaches a public IP literal and a name with public A and AAAA records", async () => {
    expect(expectAnswer(await guarded()("http://93.184.216.34/hello")).body).toBe("hello");
    expect(expectAnswer(await guarded()("https://www.public.test/hello")).body).toBe("hello");
  });

  it("sends its own user-agent and keeps the caller's other headers, method and body", async () => {
    const response = expectAnswer(
      await guarded()("http://public.test/echo", {
        method: "POST",
        headers: { "user-agent": "spoofed", "x-probe": "1", "content-type": "application/json" },
        body: '{"jsonrpc":"2.0"}',
      }),
    );
    const echoed = JSON.parse(response.body);
    expect(echoed.method).toBe("POST");
    expect(echoed.body).toBe('{"jsonrpc":"2.0"}');
    expect(echoed.headers["user-agent"]).toBe(USER_AGENT);
    expect(echoed.headers["x-probe"]).toBe("1");
  });

  it("decodes UTF-8 split across chunks", async () => {
    expect(expectAnswer(await guarded()("http://public.test/split-utf8")).body).toBe("café ünïcode");
  });

  it("answers HEAD without a body", async () => {
    const response = expectAnswer(await guarded()("http://public.test/hello", { method: "HEAD" }));
    expect(response.status).toBe(200);
    expect(response.body).toBe("");
  });
});

describe("redirects", () => {
  it("follows a redirect and records the hop", async () => {
    const response = expectAnswer(await guarded()(via("/hello")));
    expect(response.finalUrl).toBe("http://public.test/hello");
    expect(response.redirects).toEqual(["http://public.test/hello"]);
    expect(response.body).toBe("hello");
  });

  it("checks every hop against DNS again", async () => {
    const before = doh.queries.length;
    expectAnswer(await guarded()(via("https://www.public.test/hello")));
    const names = doh.queries.slice(before).map((query) => query.name);
    expect(names).toContain("public.test");
    expect(names).toContain("www.public.test");
  });

  it("follows five redirects and refuses the sixth", async () => {
    const five = expectAnswer(await guarded()("http://public.test/chain/5"));
    expect(five.redirects).toHaveLength(5);
    expect(five.body).toBe("end of chain");
    const six = await guarded()("http://public.test/chain/6");
    expectFailure(six, "too_many_redirects");
    expect(six.redirects).toHaveLength(5);
  });

  it("honours a lower maxRedirects", async () => {
    expectFailure(await guarded({ maxRedirects: 1 })("http://public.test/chain/2"), "too_many_redirects");
  });

  it("stops a loop", async () => {
    const response = await guarded()("http://public.test/loop-a");
    expectFailure(response, "too_many_redirects");
    expect(response.redirects).toEqual(["http://public.test/loop-b", "http://public.test/loop-a"]);
  });

  it("turns POST into a bodiless GET on 303, 302 and 301, and keeps it on 307 and 308", async () => {
    const fetchSite = guarded();
    const echoAfter = async (status: number) => {
      const response = expectAnswer(
        await fetchSite(via("/echo", status), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        }),
      );
      const echoed = JSON.parse(response.body);
      return { method: echoed.method, body: echoed.body, contentType: echoed.headers["content-type"] };
    };
    for (const status of [301, 302, 303]) {
      expect(await echoAfter(status)).toEqual({ method: "GET", body: "", contentType: undefined });
    }
    for (const status of [307, 308]) {
      expect(await echoAfter(status)).toEqual({ method: "POST", body: "{}", contentType: "application/json" });
    }
  });

  it("drops credentials when a redirect changes origin, and keeps them otherwise", async () => {
    const fetchSite = guarded();
    const authorizationAfter = async (target: string) => {
      const response = expectAnswer(await fetchSite(via(target), { headers: { authorization: "Bearer t" } }));
      return JSON.parse(response.body).headers.authorization;
    };
    expect(await authorizationAfter("/echo")).toBe("Bearer t");
    expect(await authorizationAfter("http://www.public.test/echo")).toBeUndefined();
  });

  it("returns a 3xx without a Location as the answer", async () => {
    const response = expectAnswer(await guarded()("http://public.test/no-location"));
    expect(response.status).toBe(302);
    expect(response.redirects).toEqual([]);
  });
});

describe("caps", () => {
  it("accepts a body of exactly 1 MiB", async () => {
    const response = expectAnswer(await guarded()(`http://public.test/bytes?n=${MIB}`));
    expect(response.body).toHaveLength(MIB);
  });

  it("refuses a 2 MiB body, streamed or declared, without returning part of it", async () => {
    for (const declared of ["0", "1"]) {
      const response = await guarded()(`http://public.test/bytes?n=${2 * MIB}&declared=${declared}`);
      expectFailure(response, "too_large");
      expect(response).not.toHaveProperty("body");
    }
  });

  it("honours a smaller maxBytes", async () => {
    expectFailure(await guarded({ maxBytes: 10 })("http://public.test/bytes?n=11"), "too_large");
    expect(expectAnswer(await guarded({ maxBytes: 10 })("http://public.test/bytes?n=10")).body).toBe("aaaaaaaaaa");
  });

  it("times out on a server that never answers", async () => {
    const started = Date.now();
    const response = await guarded({ timeoutMs: 300 })("http://public.test/hang");
    expectFailure(response, "timeout");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("times out on a body that never ends", async () => {
    expectFailure(await guarded({ timeoutMs: 300 })("http://public.test/drip"), "timeout");
  });

  it("fails at once, without a request, once the deadline has passed", async () => {
    const before = outbound.length;
    const response = await guarded({ deadline: Date.now() - 1 })("http://public.test/hello");
    expectFailure(response, "deadline");
    expect(outbound.length).toBe(before);
  });

  it("reports the deadline when it comes before the per-fetch timeout", async () => {
    const started = Date.now();
    const response = await guarded({ deadline: Date.now() + 300, timeoutMs: 5000 })("http://public.test/hang");
    expectFailure(response, "deadline");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("stops reading an open event stream as soon as readUntil is satisfied", async () => {
    const started = Date.now();
    const response = expectAnswer(
      await guarded({ timeoutMs: 3000 })("http://public.test/sse", {
        headers: { accept: "text/event-stream" },
        readUntil: (text) => text.includes("\n\n"),
      }),
    );
    expect(response.contentType).toBe("text/event-stream");
    expect(response.body).toBe("event: endpoint\ndata: /messages?session=1\n\n");
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("failures", () => {
  it("reports a DNS failure as a network failure", async () => {
    const response = await guarded()("http://servfail.test/");
    expectFailure(response, "network");
    if (!response.ok) expect(response.message).toMatch(/SERVFAIL/);
  });

  it("reports a resolver that throws synchronously as a network failure", async () => {
    const resolver = () => {
      throw new Error("resolver exploded");
    };
    expectFailure(await guarded({ resolver })("http://public.test/hello"), "network");
  });

  it("reports a refused connection in plain words", async () => {
    const closed = await startServer(() => undefined);
    await closed.stop();
    const response = await createGuardedFetch({
      resolver: createDohResolver({ url: doh.url }),
      allowPrivate: true,
      userAgent: USER_AGENT,
    })(`http://127.0.0.1:${closed.port}/`);
    expectFailure(response, "network");
    if (!response.ok) expect(response.message).toBe(`127.0.0.1:${closed.port} refused the connection`);
  });

  it.each([
    // workerd's words for a DNS or TLS failure, and for a refused connection.
    [new Error("internal error; reference = 9ab8c7d6e5f4"), "no connection could be made to public.test"],
    [new Error("Network connection lost."), "the connection to public.test was refused or cut before any answer"],
    // Node's: the reason is only in the cause's code.
    [
      new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code: "CERT_HAS_EXPIRED" }) }),
      "the secure connection to public.test failed: its TLS certificate or handshake could not be used",
    ],
    [
      new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code: "ECONNRESET" }) }),
      "public.test closed the connection before answering",
    ],
    [new TypeError("fetch failed"), "no connection could be made to public.test"],
  ])("never passes the runtime's own words on: %s", async (error, message) => {
    const failing: typeof fetch = () => Promise.reject(error);
    const response = await guarded({ fetchImpl: failing })("http://public.test/hello");
    expectFailure(response, "network");
    if (!response.ok) expect(response.message).toBe(message);
  });

  it("never passes on the runtime's words for a DNS resolver it could not reach", async () => {
    const unreachableResolver: typeof fetch = () => Promise.reject(new Error("internal error; reference = 1f2e3d"));
    const response = await guarded({ resolver: createDohResolver({ url: doh.url, fetchImpl: unreachableResolver }) })(
      "http://public.test/hello",
    );
    expectFailure(response, "network");
    if (!response.ok) {
      expect(response.message).toBe(
        "could not resolve public.test: DNS lookup of public.test failed: the resolver could not be reached",
      );
    }
  });
});

describe("allowPrivate", () => {
  const local = () =>
    createGuardedFetch({
      resolver: () => Promise.reject(new Error("allowPrivate must not resolve")),
      allowPrivate: true,
      userAgent: USER_AGENT,
    });

  it("reaches 127.0.0.1 and localhost on any port, without resolving", async () => {
    expect(expectAnswer(await local()(`http://127.0.0.1:${publicSite.port}/hello`)).body).toBe("hello");
    expect(expectAnswer(await local()(`http://localhost:${publicSite.port}/hello`)).body).toBe("hello");
  });

  it("follows a redirect to another local port", async () => {
    const target = `http://127.0.0.1:${publicSite.port}/hello`;
    const response = expectAnswer(
      await local()(`http://127.0.0.1:${publicSite.port}/redirect?to=${encodeURIComponent(target)}`),
    );
    expect(response.redirects).toEqual([target]);
  });

  it("still refuses other schemes and credentials", async () => {
    expectFailure(await local()("file:///etc/passwd"), "refused");
    expectFailure(await local()(`http://a:b@127.0.0.1:${publicSite.port}/`), "refused");
  });
});

describe("a body's bytes", () => {
  it("are kept as received when asked (an icon), which UTF-8 decoding would corrupt, and only then", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00, 0xfe, 0x80]);
    const fetchImpl: typeof fetch = async () =>
      new Response(png, { status: 200, headers: { "content-type": "image/png" } });
    const kept = expectAnswer(await guarded({ fetchImpl })("http://public.test/icon.png", { keepBytes: true }));
    expect([...(kept.bytes ?? [])]).toEqual([...png]);
    expect(new TextEncoder().encode(kept.body)).not.toEqual(png);
    const plain = expectAnswer(await guarded({ fetchImpl })("http://public.test/icon.png"));
    expect(plain.bytes).toBeUndefined();
  });
});
