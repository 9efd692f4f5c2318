import { describe, expect, it } from "vitest";
import { generateDemoSites } from "../../db/seed/demo-index.ts";
import { agenticScore } from "../../src/domain/scoring/agentic-score.ts";
import { CATEGORIES } from "../../src/domain/sites/site-fields.ts";

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
