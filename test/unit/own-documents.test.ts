/**
 * Our own crawler's detectors, run on the service's own web-root documents without the network:
 * the guarded fetcher's transport is the app's `fetch`. The app here is the discovery group (for
 * the /api/v1 descriptor) and the web root's pages and agent documents; the OpenAPI document and
 * the MCP server are other groups, so for those two only where the detectors look is checked
 * here; test/e2e/dogfood.test.ts crawls the whole running service.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createGuardedFetch } from "../../src/adapters/outbound/guarded-fetch.ts";
import { createApp } from "../../src/app.ts";
import { createConcurrencyLimiter } from "../../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite, type SiteCrawl } from "../../src/domain/crawling/crawl-site.ts";
import {
  buildApiCatalog,
  buildMcpDiscovery,
  buildSiteLinks,
  listCatalogEndpoints,
  ROBOTS_AI_AGENTS,
} from "../../src/domain/descriptor/site-documents.ts";
import { findDiscoveredEndpoint } from "../../src/domain/signals/detect-mcp-server.ts";
import { matchAiUserAgent } from "../../src/domain/signals/detect-robots-ai.ts";
import { listDeclaredApis, readApiCatalog } from "../../src/domain/signals/detect-structured-api.ts";
import type { SiteFetcher } from "../../src/domain/signals/types.ts";
import { createRoutes } from "../../src/http/routes.ts";
import { createDiscoveryGroup } from "../../src/routes/discovery/index.ts";
import { registerAgentDocuments } from "../../src/routes/web/agent-documents.ts";
import { registerHomePage } from "../../src/routes/web/home-page.ts";
import { registerPrivacyPage } from "../../src/routes/web/privacy-page.ts";

const ORIGIN = "https://ars.test";

// Settings the dependencies middleware validates; nothing here talks to a store.
const BINDINGS = {
  DATABASE_URL: "postgres://unused:unused@127.0.0.1:9/unused",
  UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9",
  UPSTASH_REDIS_REST_TOKEN: "unused",
};

function createWebRootApp() {
  const siteRoutes = createRoutes();
  registerHomePage(siteRoutes);
  registerPrivacyPage(siteRoutes);
  registerAgentDocuments(siteRoutes);
  return createApp([createDiscoveryGroup(), { name: "web", routes: createRoutes(), siteRoutes }]);
}

/** The crawler's guarded fetcher, whose transport is the app itself. */
function createAppFetcher(): SiteFetcher {
  const app = createWebRootApp();
  return createGuardedFetch({
    allowPrivate: true,
    resolver: () => Promise.reject(new Error("no lookups: the app answers every request")),
    userAgent: "AgentReadinessBot/1.0 (test)",
    fetchImpl: async (input, init) => app.fetch(new Request(input, init), BINDINGS),
  });
}

describe("our detectors on our own web-root documents", () => {
  let crawl: SiteCrawl;
  beforeAll(async () => {
    crawl = await crawlSite({ origin: ORIGIN, fetcher: createAppFetcher(), limiter: createConcurrencyLimiter(6) });
  });

  it("crawls the home page successfully", () => {
    expect(crawl.crawlStatus, crawl.crawlNote).toBe("success");
    expect(crawl.name).toBe("Agent Readiness Search");
    expect(crawl.faviconUrl).toBe(`${ORIGIN}/favicon.svg`);
  });

  it.each(["has_llms_txt", "has_ai_plugin", "has_structured_api", "has_robots_ai", "has_schema_org"] as const)(
    "finds %s present",
    (field) => {
      const signal = crawl.signals[field];
      expect(signal.status, signal.reason).toBe("present");
    },
  );

  it("finds both the API catalog and the JSON API root as the structured API", () => {
    expect(crawl.signals.has_structured_api.details?.kinds).toEqual(["api-catalog", "json-api"]);
    expect(crawl.signals.has_structured_api.details?.catalog_apis).toEqual([`${ORIGIN}/api/v1/`]);
  });

  it("finds JSON-LD WebSite and WebAPI, and robots.txt names AI crawlers and sets Content Signals", () => {
    expect(crawl.signals.has_schema_org.details?.types).toEqual(
      expect.arrayContaining(["WebSite", "SearchAction", "WebAPI"]),
    );
    expect(crawl.signals.has_robots_ai.details?.content_signals).toEqual({
      search: "yes",
      "ai-input": "yes",
      "ai-train": "no",
    });
    expect(crawl.signals.has_robots_ai.details?.agents).toEqual([...ROBOTS_AI_AGENTS]);
  });

  it("leads the OpenAPI detector to /openapi.json from the Link header, the catalog and the manifest", () => {
    const fetched = crawl.signals.has_openapi.fetched.map((record) => record.url);
    expect(fetched).toContain(`${ORIGIN}/openapi.json`);
    expect(fetched).toContain(`${ORIGIN}/.well-known/api-catalog`);
    expect(fetched).toContain(`${ORIGIN}/.well-known/ai-plugin.json`);
  });

  it("leads the MCP detector to /mcp through /.well-known/mcp.json", () => {
    expect(crawl.signals.has_mcp_server.details?.discovery_url).toBe(`${ORIGIN}/.well-known/mcp.json`);
    expect(crawl.signals.has_mcp_server.details?.endpoint).toBe(`${ORIGIN}/mcp`);
  });
});

describe("web-root document shapes against the detectors' readers", () => {
  it("reads endpoint catalog lines whose summary holds a colon, listed by path", () => {
    expect(
      listCatalogEndpoints({
        searchSites: "GET /search: Search the index",
        getIndexDescriptor: "GET /: Index descriptor: what the service is",
        getSite: "GET /site/{domain}",
      }),
    ).toEqual([
      { operationId: "getIndexDescriptor", method: "GET", path: "/", summary: "Index descriptor: what the service is" },
      { operationId: "searchSites", method: "GET", path: "/search", summary: "Search the index" },
      { operationId: "getSite", method: "GET", path: "/site/{domain}", summary: "" },
    ]);
  });

  it("names only AI crawlers the robots detector knows", () => {
    for (const agent of ROBOTS_AI_AGENTS) expect(matchAiUserAgent(agent)).toBe(agent);
  });

  it("the MCP discovery document names the MCP endpoint", () => {
    const url = buildSiteLinks(ORIGIN).mcpDiscovery;
    expect(findDiscoveredEndpoint(buildMcpDiscovery(ORIGIN), url)).toBe(`${ORIGIN}/mcp`);
  });

  it("the API catalog declares the API root, not only its description", () => {
    const catalog = readApiCatalog({
      ok: true,
      url: `${ORIGIN}/.well-known/api-catalog`,
      finalUrl: `${ORIGIN}/.well-known/api-catalog`,
      redirects: [],
      status: 200,
      headers: new Headers(),
      contentType: "application/linkset+json",
      body: JSON.stringify(buildApiCatalog(ORIGIN)),
    });
    expect(catalog).not.toBeNull();
    expect(listDeclaredApis(catalog!)).toEqual([`${ORIGIN}/api/v1/`]);
  });
});
