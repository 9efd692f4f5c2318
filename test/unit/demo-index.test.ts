import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_MCP_SERVER_NAME } from "../../db/seed/demo-evidence.ts";
import {
  type DemoIndex,
  demoScoreHistory,
  demoSiteSignals,
  generateDemoIndex,
  generateDemoSites,
} from "../../db/seed/demo-index.ts";
import { agenticScore, SIGNAL_WEIGHTS } from "../../src/domain/scoring/agentic-score.ts";
import { CATEGORIES, SIGNAL_FIELDS } from "../../src/domain/sites/site-fields.ts";

describe("generateDemoSites", () => {
  const sites = generateDemoSites({ count: 3000 });

  it("is deterministic for a seed and differs across seeds", () => {
    expect(generateDemoSites({ count: 3000 })).toEqual(sites);
    expect(generateDemoSites({ count: 50, seed: 7 })).not.toEqual(sites.slice(0, 50));
  });

  it("uses unique, lower-case, reserved .example domains", () => {
    const domains = sites.map((site) => site.domain);
    expect(new Set(domains).size).toBe(domains.length);
    for (const domain of domains) expect(domain).toMatch(/^[a-z0-9-]+\.example$/);
  });

  it("covers every category, with spam and other present but minor", () => {
    const counts = new Map<string, number>();
    for (const site of sites) counts.set(site.category as string, (counts.get(site.category as string) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...CATEGORIES].sort());
    expect((counts.get("spam") ?? 0) / sites.length).toBeLessThan(0.1);
  });

  it("scores every site with the scoring formula, across the whole range", () => {
    for (const site of sites.slice(0, 200)) {
      expect(site.agenticScore).toBe(
        agenticScore({
          has_llms_txt: Boolean(site.hasLlmsTxt),
          has_ai_plugin: Boolean(site.hasAiPlugin),
          has_openapi: Boolean(site.hasOpenapi),
          has_structured_api: Boolean(site.hasStructuredApi),
          has_mcp_server: Boolean(site.hasMcpServer),
          has_robots_ai: Boolean(site.hasRobotsAi),
          has_schema_org: Boolean(site.hasSchemaOrg),
        }),
      );
    }
    const scores = sites.map((site) => site.agenticScore as number);
    expect(Math.min(...scores)).toBe(0);
    expect(Math.max(...scores)).toBeGreaterThanOrEqual(90);
    expect(sites.every((site) => site.hasFavicon === (site.faviconUrl !== null))).toBe(true);
  });
});

describe("generateDemoIndex", () => {
  const options = { count: 500, now: new Date("2026-11-20T12:00:00Z") };
  let index: DemoIndex;
  beforeAll(async () => {
    index = await generateDemoIndex(options);
  }, 60_000);

  it("keeps the site rows of the generator exactly, so the benchmarks' index is unchanged", () => {
    const withoutEvidence = index.sites.map(({ signalEvidence: _evidence, ...row }) => row);
    expect(withoutEvidence).toEqual(generateDemoSites(options));
    // The rows of the benchmarks' seed, pinned: a change here makes benchmark figures incomparable.
    const rows = JSON.stringify(generateDemoSites({ count: 3000 }));
    expect(createHash("sha256").update(rows).digest("hex")).toBe(
      "d4aab33c6a0c23141ccdd2e3ece945901fbb0b6be2df030f183e01b5977fd4d6",
    );
  });

  it("is deterministic for the same options", async () => {
    expect(await generateDemoIndex(options)).toEqual(index);
  });

  it("gives every site the evidence of its signals, in the crawler's shape, on its own URLs", () => {
    for (const site of index.sites) {
      const evidence = site.signalEvidence ?? {};
      expect(Object.keys(evidence).sort()).toEqual([...SIGNAL_FIELDS].sort());
      const signals = demoSiteSignals(site);
      for (const field of SIGNAL_FIELDS) {
        const finding = evidence[field];
        expect(Object.keys(finding ?? {}).sort()).toEqual(["fetched", "reason", "status"]);
        expect(finding?.status).toBe(signals[field] ? "present" : "absent");
        expect(finding?.reason).toMatch(/^\S.*\.$/);
        expect(finding?.fetched.length).toBeGreaterThan(0);
        for (const fetched of finding?.fetched ?? []) {
          expect(Object.keys(fetched).sort()).toEqual(["content_type", "status", "url"]);
          expect(fetched.url.startsWith(`https://${site.domain}/`)).toBe(true);
        }
      }
    }
  });

  it("words evidence as the detectors do, and says the MCP server is synthetic", () => {
    const site = index.sites.find(
      (candidate) => candidate.hasMcpServer && candidate.hasLlmsTxt && !candidate.hasAiPlugin,
    );
    const evidence = site?.signalEvidence ?? {};
    expect(evidence.has_llms_txt).toEqual({
      status: "present",
      reason: "llms.txt found at /llms.txt with an H1 title.",
      fetched: [
        { url: `https://${site?.domain}/llms.txt`, status: 200, content_type: "text/plain" },
        { url: `https://${site?.domain}/.well-known/llms.txt`, status: 404, content_type: "text/html" },
        // The control request that shows /llms.txt is no catch-all page.
        { url: expect.stringMatching(/\/[0-9a-f]{20}\.txt$/), status: 404, content_type: "text/html" },
      ],
    });
    expect(evidence.has_ai_plugin).toEqual({
      status: "absent",
      reason:
        "/.well-known/ai-plugin.json answered 404. ChatGPT plugins were retired in April 2024, so this manifest is legacy: publish an MCP server, an OpenAPI document or an AI Catalog (/.well-known/ai-catalog.json) for agents instead.",
      fetched: [{ url: `https://${site?.domain}/.well-known/ai-plugin.json`, status: 404, content_type: "text/html" }],
    });
    expect(evidence.has_mcp_server?.reason).toContain(`server "${DEMO_MCP_SERVER_NAME}", 3 tools`);
  });

  it("gives every site a score history from its first indexing to its last crawl, newest first", () => {
    const historyByDomain = new Map<string, typeof index.history>();
    for (const entry of index.history) {
      historyByDomain.set(entry.domain, [...(historyByDomain.get(entry.domain) ?? []), entry]);
    }
    const possibleScores = new Set<number>();
    for (let mask = 0; mask < 128; mask++) {
      possibleScores.add(
        SIGNAL_FIELDS.reduce((score, field, bit) => score + (mask & (1 << bit) ? SIGNAL_WEIGHTS[field] : 0), 0),
      );
    }
    for (const site of index.sites) {
      const history = historyByDomain.get(site.domain) ?? [];
      expect(history[0]).toEqual({
        domain: site.domain,
        recordedAt: site.lastCrawledAt,
        agenticScore: site.agenticScore,
        scoreVersion: site.scoreVersion,
      });
      for (const [position, entry] of history.entries()) {
        expect(possibleScores.has(entry.agenticScore)).toBe(true);
        expect(entry.recordedAt.getTime()).toBeGreaterThanOrEqual((site.createdAt as Date).getTime());
        if (position > 0)
          expect(entry.recordedAt < (history[position - 1] as (typeof history)[number]).recordedAt).toBe(true);
      }
    }
  });

  it("has rising, dropping and steady sites, each moving only its own way", () => {
    const trends = { rising: 0, dropping: 0, steady: 0 };
    for (const site of index.sites) {
      const { trend, entries } = demoScoreHistory(site);
      const oldestFirst = entries.map((entry) => entry.agenticScore).reverse();
      const steps = oldestFirst.slice(1).map((score, i) => score - (oldestFirst[i] as number));
      if (trend === "rising") expect(steps.every((step) => step >= 0)).toBe(true);
      if (trend === "dropping") expect(steps.every((step) => step <= 0)).toBe(true);
      if (trend === "steady") expect(steps.every((step) => step === 0)).toBe(true);
      const moved = steps.some((step) => step !== 0);
      trends[moved ? trend : "steady"]++;
    }
    expect(trends.rising).toBeGreaterThan(index.sites.length / 10);
    expect(trends.dropping).toBeGreaterThan(index.sites.length / 20);
    expect(trends.steady).toBeGreaterThan(index.sites.length / 10);
  });
});
