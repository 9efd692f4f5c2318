/**
 * Whole crawls (crawlSite, all seven detectors over one memoised fetcher of 6 connections) of the
 * discovery fixture sites over real HTTP on 127.0.0.1: every signal status must match the site's
 * expectations, and the crawl's discovery findings (the AI Catalog, the server cards with their
 * route, the control requests) must say what the site holds. Also: how many requests a crawl
 * spends, against the limit of 4 more than before on a site with none of the new documents.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConcurrencyLimiter } from "../../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite, type SiteCrawl } from "../../src/domain/crawling/crawl-site.ts";
import type { SiteFetcher } from "../../src/domain/signals/types.ts";
import { SIGNAL_FIELDS } from "../../src/domain/sites/site-fields.ts";
import { BASIC_EXPECTATIONS } from "../fixtures/web/basic-expectations.ts";
import { DISCOVERY_EXPECTATIONS } from "../fixtures/web/discovery-expectations.ts";
import { type FixtureWeb, startFixtureWeb } from "../fixtures/web/server.ts";
import { createPlainFetcher } from "../support/plain-fetcher.ts";

/** Each fixture web of the unit project has its own 100 ports (see fixture-detectors.test.ts). */
const BASE_PORT = process.env.TEST_FIXTURE_PORT ? Number(process.env.TEST_FIXTURE_PORT) + 200 : 15800;

let web: FixtureWeb;
const crawls = new Map<string, { crawl: SiteCrawl; requests: string[] }>();

async function crawl(name: string): Promise<{ crawl: SiteCrawl; requests: string[] }> {
  const plain = createPlainFetcher(8000);
  const requests: string[] = [];
  const fetcher: SiteFetcher = (url, request) => {
    requests.push(`${request?.method ?? "GET"} ${url}`);
    return plain(url, request);
  };
  const origin = web.origins[name]!;
  const result = await crawlSite({ origin, fetcher, limiter: createConcurrencyLimiter(6) });
  return { crawl: result, requests };
}

const NAMES = Object.keys(DISCOVERY_EXPECTATIONS).sort();

/**
 * Requests per crawl of sites with none of the new documents before the new discovery routes
 * (measured the same way on the commit before them, 1b10fb5): the AI Catalog and
 * /.well-known/mcp-server-card are probed everywhere now, a control request is made per shape
 * only when a probe looks like a hit, and <endpoint>/server-card only beside a live server.
 */
const BEFORE: Record<string, number> = {
  nothing: 31,
  "all-six-signals": 25,
  "soft-404-llms": 31,
  "mcp-json": 33,
  "mcp-sse": 35,
};

beforeAll(async () => {
  web = await startFixtureWeb(BASE_PORT);
  // A few at a time: the machine is shared.
  for (let i = 0; i < NAMES.length; i += 6) {
    const batch = NAMES.slice(i, i + 6);
    const results = await Promise.all(batch.map(crawl));
    for (const [j, name] of batch.entries()) crawls.set(name, results[j]!);
  }
  for (const name of Object.keys(BEFORE)) crawls.set(name, await crawl(name));
}, 180_000);

afterAll(async () => {
  await web?.stop();
});

describe("whole crawls of the discovery fixture sites", () => {
  it.each(NAMES)("%s", (name) => {
    const expected = DISCOVERY_EXPECTATIONS[name]!;
    const { crawl: result } = crawls.get(name)!;
    const statuses = Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, result.signals[field].status]));
    const reasons = SIGNAL_FIELDS.map((field) => `${field}: ${result.signals[field].reason}`).join("\n");
    expect(statuses, reasons).toEqual(expected.signals);
    expect(result.agenticScore).toBe(expected.score);
    expect(result.crawlStatus).toBe(expected.crawlStatus);
  });
});

describe("the evidence names the route that decided", () => {
  it("AI Catalog → card → endpoint", () => {
    const { crawl: result } = crawls.get("aic-card-at-endpoint")!;
    expect(result.signals.has_mcp_server.reason).toMatch(
      /^The AI Catalog \/\.well-known\/ai-catalog\.json names the server card \/agents\/tools\/server-card, which names the MCP endpoint \/agents\/tools\. MCP handshake/,
    );
  });

  it("a catalog of A2A agents only names no MCP server", () => {
    const { crawl: result } = crawls.get("aic-a2a-only")!;
    expect(result.signals.has_mcp_server.reason).toContain("lists 1 A2A agent card and names no MCP server");
  });

  it("a catch-all page is ruled out by the control request, which the evidence shows", () => {
    const { crawl: result } = crawls.get("catchall-markdown-echo")!;
    const llms = result.signals.has_llms_txt;
    expect(llms.reason).toMatch(/the same as the site's answer to \/[0-9a-f]{20}\.txt, a path that cannot exist/);
    expect(llms.fetched.some((fetch) => /\/[0-9a-f]{20}\.txt$/.test(fetch.url) && fetch.status === 200)).toBe(true);
  });

  it("a real document on a catch-all site says it differs from the catch-all", () => {
    const { crawl: result } = crawls.get("catchall-markdown-real-docs")!;
    expect(result.signals.has_llms_txt.reason).toMatch(/differs from the site's catch-all answer/);
  });

  it("the plugin manifest is reported as legacy, with what to publish instead", () => {
    const { crawl: result } = crawls.get("catchall-json-real-docs")!;
    expect(result.signals.has_ai_plugin.reason).toContain("ChatGPT plugins were retired in April 2024");
    expect(result.signals.has_ai_plugin.reason).toContain("MCP server");
  });
});

describe("the crawl's discovery findings, for the checklist", () => {
  it("keeps the parsed AI Catalog", () => {
    const { discovery } = crawls.get("aic-card-relative")!.crawl;
    expect(discovery.aiCatalog?.status).toBe("present");
    expect(discovery.aiCatalog?.catalog?.entries.map((entry) => entry.kind)).toEqual([
      "a2a-agent-card",
      "mcp-server-card",
    ]);
  });

  it("keeps every server card with its route", () => {
    const routeOf = (name: string) => crawls.get(name)!.crawl.discovery.serverCards.map((card) => card.route);
    expect(routeOf("aic-card-at-endpoint")).toEqual(["ai-catalog"]);
    expect(routeOf("aic-inline-card")).toEqual(["ai-catalog-inline"]);
    expect(routeOf("wk-mcp-server-card")).toEqual(["well-known"]);
    expect(routeOf("endpoint-server-card")).toEqual(["endpoint"]);
    const card = crawls.get("aic-card-at-endpoint")!.crawl.discovery.serverCards[0]!;
    expect(card.endpoint).toBe(`${web.origins["aic-card-at-endpoint"]}/agents/tools`);
    expect(card.schema).toMatch(/server-card\.schema\.json$/);
  });

  it("keeps the control requests' answers", () => {
    const { discovery } = crawls.get("catchall-json-data")!.crawl;
    expect(discovery.controls.some((control) => control.catchAll && control.status === 200)).toBe(true);
    expect(crawls.get("nothing")!.crawl.discovery.controls).toEqual([]);
  });
});

describe("requests per crawl", () => {
  it.each(Object.entries(BEFORE))("%s spends at most 4 more requests than before (%i)", (name, before) => {
    const { requests } = crawls.get(name)!;
    expect(requests.length).toBeLessThanOrEqual(before + 4);
    expect(requests.length).toBeGreaterThan(before);
  });
});

describe("the basic sites stay as they were", () => {
  it("covers the expectations it compares against", () => {
    expect(Object.keys(BASIC_EXPECTATIONS).length).toBeGreaterThan(16);
  });
});
