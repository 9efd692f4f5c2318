/**
 * GET /api/v1/top, /categories and /stats. These read the whole index, which other test files
 * change meanwhile, and are cached for 5 minutes: assertions are about shape, invariants and the
 * test's own sites; a test of the cache gets caches of its own (asClientWithOwnCaches).
 * Sites that must head a list get score 100 and a domain starting "0-", which sorts first.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { createGroups } from "../../src/routes/groups.ts";
import { SERVICE_ENDPOINTS } from "../../src/routes/service-endpoints.ts";
import { expectOrganicOrder, type SiteBody } from "../support/search.ts";
import { expectedSiteRecord, insertSites, uniqueToken } from "../support/sites.ts";
import { asClient, asClientWithOwnCaches, expectInvalid } from "../support/worker.ts";

/** The top list is cached 5 minutes (the interface's "Top list cache"); HTTP caches hold it as long. */
const TOP_CACHE_CONTROL = "public, max-age=300";

interface TopBody {
  results: SiteBody[];
  total: number;
  limit: number;
}

async function topOk(
  get: ReturnType<typeof asClient>,
  query: string,
): Promise<{ body: TopBody; text: string; cache: string | null }> {
  const response = await get(`/api/v1/top${query}`);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(response.headers.get("cache-control")).toBe(TOP_CACHE_CONTROL);
  const body = JSON.parse(text) as TopBody;
  expect(Object.keys(body).sort()).toEqual(["limit", "results", "total"]);
  expect(body.results.length).toBe(Math.min(body.limit, body.total));
  await expectOrganicOrder(body.results);
  return { body, text, cache: response.headers.get("x-cache") };
}

const ALL_SIGNALS = {
  hasLlmsTxt: true,
  hasAiPlugin: true,
  hasOpenapi: true,
  hasRobotsAi: true,
  hasStructuredApi: true,
  hasMcpServer: true,
  hasSchemaOrg: true,
};

describe("GET /api/v1/top", () => {
  it("lists 50 by default and up to 100, in organic order, without the audit-only buckets", async () => {
    const t = uniqueToken();
    const get = asClient();
    await insertSites([
      { domain: `0-${t}-spam.test`, name: t, category: "spam", agenticScore: 100, ...ALL_SIGNALS },
      { domain: `0-${t}-other.test`, name: t, category: "other", agenticScore: 100, ...ALL_SIGNALS },
    ]);

    const byDefault = await topOk(get, "");
    expect(byDefault.body.limit).toBe(50);
    const hundred = await topOk(get, "?limit=100");
    expect(hundred.body.limit).toBe(100);
    const one = await topOk(get, "?limit=1");
    expect(one.body.limit).toBe(1);
    for (const list of [byDefault, hundred, one]) {
      for (const site of list.body.results) expect(["other", "spam"]).not.toContain(site.category);
    }
  });

  it("applies the category and signal filters, listing a matching top site first", async () => {
    const t = uniqueToken();
    const get = asClientWithOwnCaches();
    const [best] = await insertSites([
      { domain: `0-${t}-best.test`, name: t, category: "security", agenticScore: 100, ...ALL_SIGNALS },
      {
        domain: `a-${t}-nomcp.test`,
        name: t,
        category: "security",
        agenticScore: 85,
        ...ALL_SIGNALS,
        hasMcpServer: false,
      },
      { domain: `0-${t}-spam.test`, name: t, category: "spam", agenticScore: 100, ...ALL_SIGNALS },
    ]);

    const filtered = await topOk(
      get,
      "?category=security&has_mcp=true&has_openapi=true&has_llms_txt=true&has_api=true",
    );
    // First by score (ties among score-100 sites of other tests are broken by their hashes).
    expect(filtered.body.results[0]?.agentic_score).toBe(100);
    expect(filtered.body.results.find((site) => site.domain === best!.domain)).toStrictEqual(expectedSiteRecord(best!));
    for (const site of filtered.body.results) {
      expect(site).toMatchObject({
        category: "security",
        has_mcp_server: true,
        has_openapi: true,
        has_llms_txt: true,
        has_structured_api: true,
      });
    }
    expect(filtered.body.results.map((site) => site.domain)).not.toContain(`a-${t}-nomcp.test`);

    const withoutMcp = await topOk(get, "?category=security&has_mcp=false");
    expect(withoutMcp.body.results.map((site) => site.domain)).toContain(`a-${t}-nomcp.test`);
    for (const site of withoutMcp.body.results)
      expect(site).toMatchObject({ category: "security", has_mcp_server: false });

    for (const [flag, field] of [
      ["has_api", "has_structured_api"],
      ["has_openapi", "has_openapi"],
      ["has_llms_txt", "has_llms_txt"],
    ] as const) {
      for (const value of [true, false]) {
        const list = await topOk(get, `?${flag}=${value}`);
        for (const site of list.body.results) expect(site[field]).toBe(value);
      }
    }

    // The audit-only buckets are listed only when named.
    const spam = await topOk(get, "?category=spam");
    expect(spam.body.results.map((site) => site.domain)).toContain(`0-${t}-spam.test`);
    for (const site of spam.body.results) expect(site.category).toBe("spam");
  });

  it("serves the same filters and limit from the cache for 5 minutes; another limit is a new list", async () => {
    const t = uniqueToken();
    const get = asClientWithOwnCaches();
    await insertSites([
      { domain: `a-${t}-first.test`, name: t, category: "education", agenticScore: 100, ...ALL_SIGNALS },
    ]);

    const query = "?category=education&has_mcp=true";
    const first = await topOk(get, query);
    expect(first.cache).toBe("MISS");
    expect(first.body.results.map((site) => site.domain)).toContain(`a-${t}-first.test`);
    const second = await topOk(get, query);
    expect(second.cache).toBe("HIT");
    expect(second.text).toBe(first.text);

    // A new, higher-ranked site does not show until the entry expires...
    await insertSites([
      { domain: `0-${t}-late.test`, name: t, category: "education", agenticScore: 100, ...ALL_SIGNALS },
    ]);
    const third = await topOk(get, query);
    expect(third.cache).toBe("HIT");
    expect(third.text).toBe(first.text);
    // ...the same filters in another order are the same entry...
    const reordered = await topOk(get, "?has_mcp=true&category=education");
    expect(reordered.cache).toBe("HIT");
    expect(reordered.text).toBe(first.text);
    // ...while another limit is a new entry that shows it.
    const otherLimit = await topOk(get, "?category=education&has_mcp=true&limit=51");
    expect(otherLimit.cache).toBe("MISS");
    expect(otherLimit.body.results.map((site) => site.domain)).toContain(`0-${t}-late.test`);
    expect(otherLimit.body.total).toBeGreaterThan(first.body.total);
  });

  it("tells HTTP caches the same 5 minutes on every surface: GET and HEAD, the all-in-one and the discovery Worker", async () => {
    const discoveryWorker = createApp(createGroups(["discovery"]), { endpoints: SERVICE_ENDPOINTS });
    const query = "?category=news";
    const surfaces: [string, () => Promise<Response>][] = [
      ["GET", () => asClient()(`/api/v1/top${query}`)],
      ["HEAD", () => asClient()(`/api/v1/top${query}`, { method: "HEAD" })],
      [
        "discovery Worker",
        async () =>
          discoveryWorker.fetch(new Request(`http://svc.test/api/v1/top${query}`), env as Record<string, unknown>),
      ],
    ];
    for (const [surface, request] of surfaces) {
      const response = await request();
      expect(response.status, surface).toBe(200);
      expect(response.headers.get("cache-control"), surface).toBe(TOP_CACHE_CONTROL);
      await response.body?.cancel();
    }
  });

  it("refuses a limit outside 1 to 100, bad flags, unknown categories and unknown parameters", async () => {
    const get = asClient();
    const cases: [string, string][] = [
      ["limit=101", "limit"],
      ["limit=0", "limit"],
      ["limit=-5", "limit"],
      ["limit=ten", "limit"],
      ["limit=2.5", "limit"],
      ["has_mcp=yes", "has_mcp"],
      ["category=weather", "category"],
      ["page=2", "page"],
      ["q=weather", "q"],
      ["min_score=50", "min_score"],
    ];
    for (const [query, field] of cases) {
      await expectInvalid(await get(`/api/v1/top?${query}`), "query", [field]);
    }
  });
});

describe("GET /api/v1/categories", () => {
  it("lists the 12 discovery categories in the spec's order, with counts, and no audit-only bucket", async () => {
    const response = await asClient()("/api/v1/categories");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    const body = (await response.json()) as { categories: { name: string; count: number }[] };
    expect(Object.keys(body)).toEqual(["categories"]);
    expect(body.categories.map((category) => category.name)).toEqual([
      "ai-tools",
      "developer",
      "data",
      "finance",
      "ecommerce",
      "jobs",
      "security",
      "health",
      "education",
      "communication",
      "productivity",
      "news",
    ]);
    for (const category of body.categories) {
      expect(Object.keys(category).sort()).toEqual(["count", "name"]);
      expect(Number.isInteger(category.count) && category.count >= 0).toBe(true);
    }
  });
});

describe("GET /api/v1/stats", () => {
  it("answers the statistics with consistent totals, coverage, distribution and freshness", async () => {
    const t = uniqueToken();
    // Only this test reads /stats, so the statistics are computed now and count this site.
    await insertSites([{ domain: `stats-${t}.test`, name: t, agenticScore: 100, ...ALL_SIGNALS }]);
    const response = await asClient()("/api/v1/stats");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    const body = (await response.json()) as {
      sites: { total: number; discovery: number; audit_only: { other: number; spam: number } };
      signals: Record<string, { sites: number; share: number }>;
      scores: {
        average: number | null;
        median: number | null;
        distribution: { min: number; max: number; sites: number }[];
      };
      freshness: {
        newest_crawl_at: string | null;
        oldest_crawl_at: string | null;
        crawled_within: Record<"24h" | "7d" | "30d", number>;
        older_than_30d: number;
        failed_last_crawl: number;
      };
      score_version: number;
      generated_at: string;
    };
    expect(Object.keys(body).sort()).toEqual([
      "freshness",
      "generated_at",
      "score_version",
      "scores",
      "signals",
      "sites",
    ]);

    const { total } = body.sites;
    expect(body.sites.discovery + body.sites.audit_only.other + body.sites.audit_only.spam).toBe(total);

    expect(Object.keys(body.signals)).toEqual([
      "has_llms_txt",
      "has_ai_plugin",
      "has_openapi",
      "has_structured_api",
      "has_mcp_server",
      "has_robots_ai",
      "has_schema_org",
    ]);
    for (const coverage of Object.values(body.signals)) {
      expect(coverage.sites).toBeLessThanOrEqual(total);
      expect(coverage.share).toBe(total === 0 ? 0 : Math.round((coverage.sites / total) * 10_000) / 10_000);
    }

    expect(body.scores.distribution).toHaveLength(10);
    body.scores.distribution.forEach((bucket, i) => {
      expect(bucket.min).toBe(i * 10);
      expect(bucket.max).toBe(i === 9 ? 100 : i * 10 + 9);
    });
    expect(body.scores.distribution.reduce((sum, bucket) => sum + bucket.sites, 0)).toBe(total);
    if (total === 0) {
      expect(body.scores).toMatchObject({ average: null, median: null });
    } else {
      expect(body.scores.average).toBeGreaterThanOrEqual(0);
      expect(body.scores.average).toBeLessThanOrEqual(100);
      expect(Number.isInteger(body.scores.median)).toBe(true);
    }

    const { crawled_within: within } = body.freshness;
    expect(within["24h"]).toBeLessThanOrEqual(within["7d"]);
    expect(within["7d"]).toBeLessThanOrEqual(within["30d"]);
    expect(within["30d"] + body.freshness.older_than_30d).toBe(total);
    expect(body.freshness.failed_last_crawl).toBeLessThanOrEqual(total);
    if (total > 0) {
      expect(Date.parse(body.freshness.oldest_crawl_at!)).toBeLessThanOrEqual(
        Date.parse(body.freshness.newest_crawl_at!),
      );
    }

    expect(body.score_version).toBe(1);
    expect(Math.abs(Date.parse(body.generated_at) - Date.now())).toBeLessThan(5 * 60_000 + 10_000);
  });
});
