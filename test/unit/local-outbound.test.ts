/**
 * The command-line checker's outbound side: the host the person named may be private or on any
 * port; every other host a crawl reaches is held to the service's rules (no redirect from a
 * public start, or from the named local host, into a private range it did not name).
 */
import { describe, expect, it } from "vitest";
import type { DnsLookup } from "../../src/adapters/outbound/dns-over-https.ts";
import { DnsLookupError } from "../../src/adapters/outbound/dns-over-https.ts";
import {
  createLocalOutbound,
  createSystemLookup,
  LOCAL_CHECK_USER_AGENT,
} from "../../src/adapters/outbound/local-outbound.ts";
import { crawlCheckTarget } from "../../src/domain/checks/check-site.ts";
import { parseCrawlTarget } from "../../src/domain/crawling/crawl-target.ts";
import { DomainError } from "../../src/domain/errors.ts";

/** A zone of names and their addresses; any other name does not exist. */
function zone(records: Record<string, string[]>): DnsLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    return { addresses: records[host] ?? [], ttlSeconds: 60 };
  };
  return Object.assign(lookup, { asked });
}

/** A web of canned answers by URL, recording every request that reached "the network". */
function web(routes: Record<string, () => Response>) {
  const requested: { url: string; userAgent: string | null }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    requested.push({ url, userAgent: new Headers(init?.headers).get("user-agent") });
    const route = routes[url];
    return route ? route() : new Response("not here", { status: 404 });
  }) as typeof fetch;
  return { fetchImpl, requested };
}

const redirectTo = (location: string) => () => new Response(null, { status: 302, headers: { location } });
const page = (text: string) => () => new Response(text, { status: 200, headers: { "content-type": "text/plain" } });

const DNS = zone({
  "shop.example.com": ["93.184.216.34"],
  "www.example.net": ["2606:2800:220:1:248:1893:25c8:1946"],
  "intranet.example.com": ["10.1.2.3"],
  "preview.example.com": ["10.0.0.7"],
  "mixed.example.com": ["93.184.216.35", "192.168.1.20"],
});

function fetcherFor(named: string, routes: Record<string, () => Response>) {
  const network = web(routes);
  const outbound = createLocalOutbound({ url: named, lookup: DNS, fetchImpl: network.fetchImpl });
  return { fetch: outbound.openFetcher({ deadline: Date.now() + 10_000 }), outbound, ...network };
}

describe("the named host", () => {
  it.each([
    ["http://localhost:3000/", "localhost on a development port"],
    ["http://127.0.0.1:8080/", "a loopback address"],
    ["http://[::1]:5173/", "IPv6 loopback"],
    ["http://192.168.1.50/", "a machine on the office network"],
    ["http://preview.example.com/", "a public name that resolves to a private address (a preview on a VPN)"],
    ["https://shop.example.com:8443/", "a public host on a port the service refuses"],
  ])("%s is fetched: %s", async (url) => {
    const { fetch, requested } = fetcherFor(url, { [url]: page("home") });
    const answer = await fetch(url);
    expect(answer.ok && answer.body).toBe("home");
    expect(requested.map((request) => request.url)).toEqual([url]);
    expect(requested[0]?.userAgent).toBe(LOCAL_CHECK_USER_AGENT);
  });

  it("is the host with its port: a redirect to the same name on another port is held to the rules", async () => {
    const { fetch, requested } = fetcherFor("http://localhost:3000/", {
      "http://localhost:3000/": redirectTo("http://localhost:3001/admin"),
    });
    const answer = await fetch("http://localhost:3000/");
    expect(answer).toMatchObject({ ok: false, failure: "refused" });
    expect(requested.map((request) => request.url)).toEqual(["http://localhost:3000/"]);
  });

  it("follows redirects within the named host, and to the same host over https", async () => {
    const { fetch } = fetcherFor("http://shop.example.com/", {
      "http://shop.example.com/": redirectTo("https://shop.example.com/"),
      "https://shop.example.com/": redirectTo("/en/"),
      "https://shop.example.com/en/": page("welcome"),
    });
    const answer = await fetch("http://shop.example.com/");
    expect(answer.ok && answer.body).toBe("welcome");
  });
});

describe("every other host keeps the service's rules", () => {
  it.each([
    ["a private address literal", "http://10.0.0.5/admin", /10\.0\.0\.5 is private/],
    ["loopback", "http://127.0.0.1:8080/", /port 8080 is not allowed|loopback/],
    ["the cloud metadata address", "http://169.254.169.254/latest/meta-data/", /metadata/],
    ["a name that resolves to a private address", "http://intranet.example.com/", /resolves to 10\.1\.2\.3/],
    ["a name with one private address among public ones", "http://mixed.example.com/", /192\.168\.1\.20/],
    ["a local-network name", "http://router.local/", /multicast DNS on a local network|private network/],
    ["a single-label name", "http://fileserver/", /single-label/],
  ])("a public start redirected to %s is refused", async (_case, target, reason) => {
    const { fetch, requested } = fetcherFor("https://shop.example.com/", {
      "https://shop.example.com/": redirectTo(target),
    });
    const answer = await fetch("https://shop.example.com/");
    expect(answer).toMatchObject({ ok: false, failure: "refused" });
    expect(answer.ok ? "" : answer.message).toMatch(reason);
    // The refused hop was never requested.
    expect(requested.map((request) => request.url)).toEqual(["https://shop.example.com/"]);
  });

  it("a local start redirected to another private host is refused too: only the named one was asked for", async () => {
    const { fetch, requested } = fetcherFor("http://localhost:3000/", {
      "http://localhost:3000/": redirectTo("http://192.168.1.1/"),
    });
    const answer = await fetch("http://localhost:3000/");
    expect(answer).toMatchObject({ ok: false, failure: "refused" });
    expect(requested).toHaveLength(1);
  });

  it("a redirect to another public host is followed once its addresses are vetted", async () => {
    const { fetch } = fetcherFor("https://shop.example.com/", {
      "https://shop.example.com/": redirectTo("https://www.example.net/"),
      "https://www.example.net/": page("moved here"),
    });
    const answer = await fetch("https://shop.example.com/");
    expect(answer.ok && answer.body).toBe("moved here");
    expect(DNS.asked).toContain("www.example.net");
  });

  it("vets another host by its addresses, but never the named one", async () => {
    const { outbound } = fetcherFor("http://preview.example.com/", {});
    expect(await outbound.vetHost("preview.example.com")).toBeNull();
    expect(await outbound.vetHost("intranet.example.com")).toMatch(/10\.1\.2\.3/);
    expect(await outbound.vetHost("shop.example.com")).toBeNull();
  });
});

describe("the named URL in the check", () => {
  it("passes the static rules the service applies, which refuse it there", async () => {
    expect(() => parseCrawlTarget("http://localhost:3000/", false)).toThrow(DomainError);
    const { outbound } = fetcherFor("http://localhost:3000/", {});
    const { target, crawl } = await crawlCheckTarget({ ctx: outbound, input: { url: "http://localhost:3000/" } });
    expect(target).toEqual({ origin: "http://localhost:3000", domain: "localhost:3000" });
    // Every path answered 404 from the canned web: a crawl that reached the site and found nothing.
    expect(crawl.crawlStatus).toBe("error");
  });

  it("still refuses a URL no one could mean: credentials, another scheme", async () => {
    for (const url of ["http://user:secret@localhost:3000/", "ftp://localhost/"]) {
      const { outbound } = fetcherFor(url.replace(/^ftp/, "http"), {});
      await expect(crawlCheckTarget({ ctx: outbound, input: { url } })).rejects.toThrow(DomainError);
    }
  });
});

describe("the system resolver", () => {
  it("gives every distinct address, kept for the length of a check", async () => {
    const lookup = createSystemLookup(async () => [
      { address: "93.184.216.34" },
      { address: "93.184.216.34" },
      { address: "2606:2800:220:1:248:1893:25c8:1946" },
    ]);
    expect(await lookup("shop.example.com")).toEqual({
      addresses: ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
      ttlSeconds: 60,
    });
  });

  it("reads a name that does not exist as no address (which the guard refuses), and other failures as errors", async () => {
    const failing = (code: string) =>
      createSystemLookup(async () => {
        throw Object.assign(new Error(code), { code });
      });
    expect(await failing("ENOTFOUND")("gone.example.com")).toEqual({ addresses: [], ttlSeconds: 0 });
    await expect(failing("ESERVFAIL")("broken.example.com")).rejects.toThrow(DnsLookupError);
  });
});
