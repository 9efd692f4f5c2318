import { describe, expect, it } from "vitest";
import {
  createConcurrencyLimiter,
  createConnectionScheduler,
  createCrawlFetcher,
} from "../../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite } from "../../src/domain/crawling/crawl-site.ts";
import type { ProbeResponse, SiteFetcher } from "../../src/domain/signals/types.ts";

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

function answer(url: string): ProbeResponse {
  return {
    ok: true,
    url,
    finalUrl: url,
    redirects: [],
    status: 200,
    headers: new Headers(),
    contentType: "text/plain",
    body: url,
  };
}

describe("createConcurrencyLimiter", () => {
  it("starts a task only when one of the limit's running tasks has ended", async () => {
    const limiter = createConcurrencyLimiter(3);
    const events: string[] = [];
    const gates = new Map<number, () => void>();
    const done = Promise.all(
      Array.from({ length: 5 }, (_, n) =>
        limiter(async () => {
          events.push(`start ${n}`);
          await new Promise<void>((release) => gates.set(n, release));
          events.push(`end ${n}`);
        }),
      ),
    );
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    await settle();
    expect(events).toEqual(["start 0", "start 1", "start 2"]);
    gates.get(1)?.();
    await settle();
    expect(events).toEqual(["start 0", "start 1", "start 2", "end 1", "start 3"]);
    gates.get(0)?.();
    await settle();
    expect(events.slice(5)).toEqual(["end 0", "start 4"]);
    for (const n of [2, 3, 4]) gates.get(n)?.();
    await done;
    expect(events.slice(7).sort()).toEqual(["end 2", "end 3", "end 4"]);
  });

  it("starts waiting tasks by priority, each priority in the order offered", async () => {
    const limiter = createConcurrencyLimiter(1);
    const started: string[] = [];
    const task = (name: string) => async () => {
      started.push(name);
      await tick();
    };
    await Promise.all([
      limiter(task("first")),
      limiter(task("a")),
      limiter(task("b")),
      limiter(task("urgent-1"), -1),
      limiter(task("late"), 5),
      limiter(task("urgent-2"), -1),
    ]);
    expect(started).toEqual(["first", "urgent-1", "urgent-2", "a", "b", "late"]);
  });
});

describe("createCrawlFetcher", () => {
  it("fetches each distinct request once, and streamed reads every time", async () => {
    const calls: string[] = [];
    const base: SiteFetcher = async (url, request = {}) => {
      calls.push(`${request.method ?? "GET"} ${url}`);
      return answer(url);
    };
    const fetch = createCrawlFetcher(base, createConcurrencyLimiter(6));
    await Promise.all([fetch("https://a.example/"), fetch("https://a.example/"), fetch("https://a.example/x")]);
    await fetch("https://a.example/", { method: "POST", body: "{}" });
    await fetch("https://a.example/s", { readUntil: () => true });
    await fetch("https://a.example/s", { readUntil: () => true });
    expect(calls).toEqual([
      "GET https://a.example/",
      "GET https://a.example/x",
      "POST https://a.example/",
      "GET https://a.example/s",
      "GET https://a.example/s",
    ]);
  });

  it("puts requests made after the first burst ahead of the burst's waiting ones", async () => {
    const order: string[] = [];
    const base: SiteFetcher = async (url) => {
      order.push(new URL(url).pathname);
      await tick(10);
      return answer(url);
    };
    const fetch = createCrawlFetcher(base, createConcurrencyLimiter(1));
    const burst = ["/1", "/2", "/3", "/4"].map((path) => fetch(`https://a.example${path}`));
    const followUp = burst[0]!.then(() => fetch("https://a.example/follow-up"));
    await Promise.all([...burst, followUp]);
    expect(order.indexOf("/follow-up")).toBeLessThan(order.indexOf("/4"));
  });

  it("queues a request made through budgetedLeaves after the burst's waiting ones, however late it is made", async () => {
    const order: string[] = [];
    const base: SiteFetcher = async (url) => {
      order.push(new URL(url).pathname);
      await tick(5);
      return answer(url);
    };
    const fetch = createCrawlFetcher(base, createConcurrencyLimiter(1));
    const burst = ["/busy", "/1", "/2", "/3"].map((path) => fetch(`https://a.example${path}`));
    const late = burst[0]!.then(() =>
      Promise.all([fetch.budgetedLeaves("https://a.example/leaf"), fetch("https://a.example/follow-up")]),
    );
    await Promise.all([...burst, late]);
    // /busy hands its connection to /1, the first waiting; the follow-up then goes first, the
    // late leaf last.
    expect(order).toEqual(["/busy", "/1", "/follow-up", "/2", "/3", "/leaf"]);
    expect(fetch.requestsMade()).toBe(6);
  });
});

describe("one connection scheduler shared by the crawls of a batch", () => {
  it("serves every crawl's follow-ups, then chain heads, then leaves, the earlier crawl first among equals", async () => {
    const scheduler = createConnectionScheduler(1);
    const order: string[] = [];
    const base: SiteFetcher = async (url) => {
      order.push(url.replace("https://", ""));
      await tick(5);
      return answer(url);
    };
    const roleOf = (url: string) => (url.endsWith("/head") ? "chain-head" : "leaf") as "chain-head" | "leaf";
    const first = createCrawlFetcher(base, scheduler.run, { rank: 0, roleOf });
    const second = createCrawlFetcher(base, scheduler.run, { rank: 1, roleOf });
    const burst = [
      first("https://a.example/busy"),
      first("https://a.example/leaf"),
      second("https://b.example/leaf"),
      second("https://b.example/head"),
      first("https://a.example/head"),
    ];
    // Made once the burst is over, so it waited on an answer: it goes before every waiting
    // request (the connection /busy frees has already gone to the first one waiting).
    const followUp = burst[0]!.then(() => second("https://b.example/follow-up"));
    await Promise.all([...burst, followUp]);
    expect(order).toEqual([
      "a.example/busy",
      "a.example/head",
      "b.example/follow-up",
      "b.example/head",
      "a.example/leaf",
      "b.example/leaf",
    ]);
  });

  it("says how many tasks wait and run, and calls back as each ends", async () => {
    const scheduler = createConnectionScheduler(2);
    const seen: [number, number][] = [];
    scheduler.onRelease(() => seen.push([scheduler.running(), scheduler.waiting()]));
    await Promise.all([1, 2, 3, 4].map(() => scheduler.run(() => tick(2))));
    expect(seen).toEqual([
      [2, 1],
      [2, 0],
      [1, 0],
      [0, 0],
    ]);
  });
});

describe("crawlSite for the queue consumer (signals only on success)", () => {
  const origin = "https://site.example";
  function siteFetcher(home: ProbeResponse | null) {
    const requests: string[] = [];
    const fetcher: SiteFetcher = async (url, request = {}) => {
      requests.push(`${request.method ?? "GET"} ${url.slice(origin.length)}`);
      if (url === `${origin}/` && home) return home;
      return { ...answer(url), status: 404, contentType: "text/html", body: "<h1>Not found</h1>" };
    };
    return { fetcher, requests };
  }

  it("stops at a home page that did not answer: its signals are never kept", async () => {
    const failed: ProbeResponse = {
      ok: false,
      url: `${origin}/`,
      finalUrl: `${origin}/`,
      redirects: [],
      failure: "network",
      message: "the connection was refused",
    };
    const { fetcher, requests } = siteFetcher(failed);
    const crawl = await crawlSite({
      origin,
      fetcher,
      limiter: createConcurrencyLimiter(6),
      signalsOnlyOnSuccess: true,
    });
    expect(crawl.crawlStatus).toBe("unreachable");
    expect(requests).toEqual(["GET /"]);
    const blocked = { ...answer(`${origin}/`), status: 403 };
    const second = siteFetcher(blocked);
    const blockedCrawl = await crawlSite({
      origin,
      fetcher: second.fetcher,
      limiter: createConcurrencyLimiter(6),
      signalsOnlyOnSuccess: true,
    });
    expect(blockedCrawl.crawlStatus).toBe("blocked");
    expect(second.requests).toEqual(["GET /"]);
  });

  it("probes the same requests and finds the same signals as a check once the home page answered", async () => {
    const home = {
      ...answer(`${origin}/`),
      contentType: "text/html",
      body: '<html><head><title>Site</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization"}</script></head></html>',
    };
    const consumer = siteFetcher(home);
    const check = siteFetcher(home);
    const [queued, checked] = await Promise.all([
      crawlSite({
        origin,
        fetcher: consumer.fetcher,
        limiter: createConcurrencyLimiter(6),
        signalsOnlyOnSuccess: true,
      }),
      crawlSite({ origin, fetcher: check.fetcher, limiter: createConcurrencyLimiter(6) }),
    ]);
    expect(queued.crawlStatus).toBe("success");
    expect(queued.signals).toEqual(checked.signals);
    expect(queued.signals.has_schema_org.status).toBe("present");
    expect([...consumer.requests].sort()).toEqual([...check.requests].sort());
  });
});
