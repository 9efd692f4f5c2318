/**
 * Whole crawls (crawlSite, all seven detectors over one memoised fetcher of 6 connections) of the
 * discovery fixture sites over real HTTP on 127.0.0.1: every signal status must match the site's
 * expectations, and the crawl's discovery findings (the AI Catalog, the server cards with their
 * route, the control requests) must say what the site holds. Also: how many requests a crawl
 * spends, against the limit of 4 more than before on a site with none of the new documents.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_IDS } from "../../src/domain/checklist/checklist-definition.ts";
import { CRAWL_REQUEST_BUDGET, createConcurrencyLimiter } from "../../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite, type SiteCrawl } from "../../src/domain/crawling/crawl-site.ts";
import type { SiteFetcher } from "../../src/domain/signals/types.ts";
import { SIGNAL_FIELDS } from "../../src/domain/sites/site-fields.ts";
import { BASIC_EXPECTATIONS } from "../fixtures/web/basic-expectations.ts";
import { DISCOVERY_EXPECTATIONS } from "../fixtures/web/discovery-expectations.ts";
import { fixtureWebBasePort } from "../fixtures/web/expectations.ts";
import { type FixtureWeb, startFixtureWeb } from "../fixtures/web/server.ts";
import { createPlainFetcher } from "../support/plain-fetcher.ts";

/** Each fixture web of the unit project has its own 100 ports (see fixture-detectors.test.ts). */
const BASE_PORT = fixtureWebBasePort(1);

let web: FixtureWeb;
const crawls = new Map<string, { crawl: SiteCrawl; requests: string[] }>();
const signalCrawls = new Map<string, { crawl: SiteCrawl; requests: string[] }>();

async function crawl(name: string, withChecklist = true): Promise<{ crawl: SiteCrawl; requests: string[] }> {
  const plain = createPlainFetcher(8000);
  const requests: string[] = [];
  const fetcher: SiteFetcher = (url, request) => {
    requests.push(`${request?.method ?? "GET"} ${url}`);
    return plain(url, request);
  };
  const origin = web.origins[name]!;
  const result = await crawlSite({ origin, fetcher, limiter: createConcurrencyLimiter(6), withChecklist });
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
    const results = await Promise.all(batch.map((name) => crawl(name)));
    for (const [j, name] of batch.entries()) crawls.set(name, results[j]!);
  }
  // The signal detectors' own requests, counted with the checklist off (docs/crawling.md,
  // "Request budget"); the crawls above, checklist included, are held to the whole budget.
  for (const name of Object.keys(BEFORE)) signalCrawls.set(name, await crawl(name, false));
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

describe("nested catalogs, the MCP Catalog, references and templates name their route", () => {
  const reason = (name: string, field: (typeof SIGNAL_FIELDS)[number] = "has_mcp_server") =>
    crawls.get(name)!.crawl.signals[field].reason;
  const requestsTo = (name: string, path: string) =>
    crawls.get(name)!.requests.filter((line) => line.endsWith(`${web.origins[name]}${path}`)).length;

  it("AI Catalog → nested catalog → card → endpoint", () => {
    expect(reason("aic-nested-url")).toMatch(
      /^The AI Catalog \/\.well-known\/ai-catalog\.json names the nested catalog \/catalogs\/freight\.json, which names the server card \/svc\/rpc\/server-card, which names the MCP endpoint \/svc\/rpc\. MCP handshake/,
    );
    expect(reason("aic-nested-inline")).toMatch(
      /names a nested catalog inline, which names the server card \/pkg\/card\.json/,
    );
    expect(reason("mcp-catalog-nested")).toMatch(
      /names the nested catalog \/\.well-known\/mcp\/catalog\.json, which names the server card \/weather\/mcp\/server-card/,
    );
    expect(reason("aic-nested-openapi", "has_openapi")).toContain(
      "through the nested catalog /catalogs/apis.json, then the nested catalog /catalogs/v2/index.json",
    );
  });

  it("a catalog the home page links to (rel=ai-catalog) comes first in the route", () => {
    expect(reason("aic-link-header")).toMatch(
      /^The home page's Link header names the AI Catalog \/agents\/catalog\.json, which names the server card \/lh\/mcp\/server-card, which names the MCP endpoint \/lh\/mcp\. MCP handshake/,
    );
    expect(reason("aic-link-html")).toMatch(
      /^The home page's HTML link names the AI Catalog \/\.well-known\/mcp\/catalog\.json, which names the server card/,
    );
    expect(reason("aic-link-openapi", "has_openapi")).toContain(
      "named by the AI Catalog /ai/catalog.json, which the home page's Link header names",
    );
  });

  it("a cycle of catalogs ends: each catalog is fetched once", () => {
    expect(requestsTo("aic-nested-cycle", "/catalogs/a.json")).toBe(1);
    expect(requestsTo("aic-nested-cycle", "/catalogs/b.json")).toBe(1);
    const nested = crawls.get("aic-nested-cycle")!.crawl.discovery.aiCatalog!.nested;
    expect(nested.filter((each) => each.status === "skipped").map((each) => each.reason)).toEqual([
      "already read in this traversal (a cycle), so not read again",
      "already read in this traversal (a cycle), so not read again",
    ]);
  });

  it("a nested catalog's redirects, catch-all answers and refusals are read like any document", () => {
    // The route names where the nested catalog was read, after its redirect (as evidence does).
    expect(reason("aic-nested-redirect")).toMatch(
      /names the nested catalog \/catalogs\/new\.json, which names the server card/,
    );
    expect(crawls.get("aic-nested-redirect-loop")!.crawl.discovery.aiCatalog!.nested).toMatchObject([
      {
        status: "skipped",
        reason: "/catalogs/loop.json redirects to /.well-known/ai-catalog.json, already read (a cycle)",
      },
    ]);
    expect(crawls.get("aic-nested-catchall")!.crawl.discovery.aiCatalog!.nested[0]).toMatchObject({
      status: "absent",
      reason: "/catalogs/gone.json is an HTML page",
    });
    expect(crawls.get("aic-nested-json-catchall")!.crawl.discovery.aiCatalog!.nested[0]!.reason).toMatch(
      /the same as the site's answer to \/[0-9a-f]{20}\.txt/,
    );
    expect(reason("aic-nested-blocked")).toMatch(
      /^The nested catalog \/catalogs\/private\.json refused the crawler \(403/,
    );
  });

  it("the depth and the request budget bound the traversal", () => {
    const deep = crawls.get("aic-nested-too-deep")!.crawl.discovery.aiCatalog!.nested;
    expect(deep.at(-1)).toMatchObject({ depth: 5, status: "skipped" });
    expect(crawls.get("aic-nested-at-limit")!.crawl.discovery.aiCatalog!.nested.map((each) => each.depth)).toEqual([
      1, 2, 3, 4,
    ]);
    for (const n of [1, 2, 3, 4]) expect(requestsTo("aic-nested-budget", `/catalogs/d${n}.json`)).toBe(1);
    for (const n of [5, 6]) expect(requestsTo("aic-nested-budget", `/catalogs/d${n}.json`)).toBe(0);
  });

  it("a JSON Reference is followed once, on the site's origin only", () => {
    expect(reason("wk-mcp-json-ref")).toMatch(
      /^\/\.well-known\/mcp\.json refers by \$ref to \/cards\/server\.json, which names the MCP endpoint \/ref\/mcp\. MCP handshake/,
    );
    expect(reason("aic-card-ref")).toMatch(
      /names the server card \/cards\/a\.json, which refers by \$ref to \/cards\/b\.json, which names the MCP endpoint \/b\/mcp/,
    );
    expect(crawls.get("wk-ref-cross-origin")!.requests.some((line) => line.includes("cards.example.net"))).toBe(false);
  });

  it("a card's URL template is filled from its variables' defaults", () => {
    expect(reason("card-templated-default")).toMatch(/names the MCP endpoint \/acme\/mcp\. MCP handshake/);
    expect(requestsTo("card-templated-required", "/acme/mcp")).toBe(0);
  });

  it("the Content-Usage header counts as AI rules, read as an RFC 9651 dictionary", () => {
    expect(reason("content-usage-header", "has_robots_ai")).toBe(
      "The home page's Content-Usage header states AIPREF Content-Usage preferences (train-ai=n, search=y).",
    );
    expect(reason("content-usage-header-params", "has_robots_ai")).toContain("(train-genai=n)");
    expect(reason("content-usage-header-uppercase", "has_robots_ai")).toContain(
      "Content-Usage header states no y/n preference",
    );
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
    // The detectors alone ask no control where every probe misses (the checklist may ask one).
    expect(signalCrawls.get("nothing")!.crawl.discovery.controls).toEqual([]);
  });
});

describe("requests per crawl", () => {
  it.each(Object.entries(BEFORE))(
    "%s: the signal detectors spend at most 5 more requests than before (%i)",
    (name, before) => {
      const { crawl: result, requests } = signalCrawls.get(name)!;
      expect(result.checklist).toBeNull();
      // Four for the discovery documents, one for ARD's /.well-known/ard.json beside ai-catalog.json.
      expect(requests.length).toBeLessThanOrEqual(before + 5);
      // The discovery documents are asked; the crawl plan spares the framework guesses on a site
      // that shows no application server, so the total may now be below the older count.
      for (const path of ["/.well-known/ard.json", "/.well-known/mcp.json", "/.well-known/mcp-server-card"]) {
        expect(requests).toContain(`GET ${web.origins[name]}${path}`);
      }
      expect(result.requestCount).toBe(requests.length);
    },
  );

  it.each(NAMES)("%s: the whole crawl, checklist included, stays within CRAWL_REQUEST_BUDGET", (name) => {
    const { crawl: result, requests } = crawls.get(name)!;
    expect(result.checklist?.checks).toHaveLength(CHECK_IDS.length);
    expect(requests.length).toBeLessThanOrEqual(CRAWL_REQUEST_BUDGET);
    expect(result.requestCount).toBe(requests.length);
  });

  it("the checklist asks no control request twice and no URL twice", () => {
    for (const name of NAMES) {
      const { requests } = crawls.get(name)!;
      const controls = requests.filter((line) => /\/[0-9a-f]{20}\.(?:txt|json)$/.test(line));
      expect(controls.length, name).toBeLessThanOrEqual(2);
      const gets = requests.filter((line) => line.startsWith("GET "));
      expect(new Set(gets).size, name).toBeGreaterThanOrEqual(gets.length - 1);
    }
  });
});

describe("the basic sites stay as they were", () => {
  it("covers the expectations it compares against", () => {
    expect(Object.keys(BASIC_EXPECTATIONS).length).toBeGreaterThan(16);
  });
});
