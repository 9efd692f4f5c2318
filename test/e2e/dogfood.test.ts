/**
 * Dogfood: the service, started with `npm start` as a user runs it, crawled by our own crawler
 * (the guarded fetcher with private addresses allowed, as for the local fixture web, and the
 * Worker's connection limit) must score 100 with every one of the seven signals present, be read
 * as an API site (not a store), and pass every check of the checklist that applies to an API site.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { crawlerUserAgent } from "../../src/adapters/outbound/create-outbound.ts";
import { createGuardedFetch } from "../../src/adapters/outbound/guarded-fetch.ts";
import { createConcurrencyLimiter, WORKER_CONNECTION_LIMIT } from "../../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite, type SiteCrawl } from "../../src/domain/crawling/crawl-site.ts";
import { SIGNAL_FIELDS } from "../../src/domain/sites/site-fields.ts";
import { type RunningService, startService } from "../support/npm-start.ts";

let service: RunningService | undefined;
let origin = "";

beforeAll(async () => {
  service = await startService({
    PGLITE_DATA_DIR: "memory",
    PGLITE_START_FROM: inject("migratedPglite"),
    // The crawl reads no search results: a small demo index starts faster.
    DEMO_SITES: "50",
    // Every document must name the origin the crawler reached.
    PUBLIC_ORIGIN: "",
  });
  origin = service.origin;
});

afterAll(() => service?.stop());

describe("dogfood: our crawler on our own service", () => {
  let crawl: SiteCrawl;
  beforeAll(async () => {
    crawl = await crawlSite({
      origin,
      fetcher: createGuardedFetch({
        allowPrivate: true,
        resolver: () => Promise.reject(new Error("no lookups: the target is an IP literal")),
        userAgent: crawlerUserAgent(origin),
      }),
      limiter: createConcurrencyLimiter(WORKER_CONNECTION_LIMIT),
    });
    const report = SIGNAL_FIELDS.map(
      (field) => `${field}: ${crawl.signals[field].status}: ${crawl.signals[field].reason}`,
    );
    console.log(`dogfood ${origin}: score ${crawl.agenticScore}, ${crawl.crawlStatus}\n${report.join("\n")}`);
  });

  it("crawls the home page successfully", () => {
    expect(crawl.crawlStatus, crawl.crawlNote).toBe("success");
  });

  it("finds all seven signals present and scores 100", () => {
    const notPresent = SIGNAL_FIELDS.filter((field) => crawl.signals[field].status !== "present").map(
      (field) => `${field} ${crawl.signals[field].status}: ${crawl.signals[field].reason}`,
    );
    expect(notPresent, notPresent.join("\n")).toEqual([]);
    expect(crawl.agenticScore).toBe(100);
  });

  it("is read as an API site, not a store, and passes every check that applies to an API site", () => {
    const checklist = crawl.checklist;
    expect(checklist).not.toBeNull();
    const checks = checklist?.checks ?? [];
    const report = checks.map((check) => `${check.id} ${check.status}: ${check.reason}`).join("\n");
    console.log(`dogfood checklist (${checklist?.summary.site_kind}):\n${report}`);
    expect(checklist?.summary.site_kind, report).toBe("api");
    const applying = checks.filter((check) => check.applies_to.includes("api") && check.status !== "neutral");
    const notPassing = applying
      .filter((check) => check.status !== "pass")
      .map((check) => `${check.id} ${check.status}: ${check.reason}`);
    expect(notPassing, notPassing.join("\n")).toEqual([]);
    // The checks this issue made pass, named so that a regression is seen here.
    for (const id of [
      "sitemap",
      "content_usage",
      "mcp_server_card",
      "ai_catalog",
      "markdown_negotiation",
      "llms_full_txt",
      "mcp_server",
    ]) {
      expect(checks.find((check) => check.id === id)?.status, `${id}\n${report}`).toBe("pass");
    }
  });
});
