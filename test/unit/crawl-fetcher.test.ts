import { describe, expect, it } from "vitest";
import { createConcurrencyLimiter, createCrawlFetcher } from "../../src/domain/crawling/crawl-fetcher.ts";
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
  it("never runs more than its limit at once", async () => {
    const limiter = createConcurrencyLimiter(3);
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        limiter(async () => {
          running++;
          peak = Math.max(peak, running);
          await tick();
          running--;
        }),
      ),
    );
    expect(peak).toBe(3);
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
});
