/** The daily adoption rollup cron of the discovery group: one day's rows, per category and over all, upserted. */
import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { StoredChecklist } from "../../db/schema/sites.ts";
import { rollupAdoption } from "../../src/domain/stats/adoption-rollup.ts";
import worker from "../support/all-in-one-jobs.ts";
import { insertSites, sqlRows, testDatabase, uniqueToken } from "../support/sites.ts";

const SIGNALS = [
  "has_llms_txt",
  "has_ai_plugin",
  "has_openapi",
  "has_structured_api",
  "has_mcp_server",
  "has_robots_ai",
  "has_schema_org",
];

/** MCP endpoint health classes in their stored order, as docs/discovery.md lists them. */
const MCP_ITEMS = [
  "mcp_endpoint_handshake",
  "mcp_endpoint_auth_gated",
  "mcp_endpoint_not_mcp",
  "mcp_endpoint_unreachable",
];

const checklist = (statuses: Record<string, string>): StoredChecklist => ({
  checks: Object.entries(statuses).map(([id, status]) => ({
    id,
    category: "discovery",
    status,
    title: id,
    reason: "fixture",
    evidence: [],
    applies_to: ["content"],
  })),
  summary: {},
});

interface Row {
  category: string;
  item: string;
  sites: number;
  with_item: number;
}

const key = (row: Row) => `${row.category}|${row.item}`;

/** The figures counted here independently of the job, written out as the docs state the rules. */
async function expectedRows(): Promise<Map<string, Row>> {
  const expected = new Map<string, Row>();
  const add = (category: string, item: string, has: boolean) => {
    for (const c of [category, ""]) {
      const row = expected.get(`${c}|${item}`) ?? { category: c, item, sites: 0, with_item: 0 };
      row.sites += 1;
      if (has) row.with_item += 1;
      expected.set(key(row), row);
    }
  };
  const all = await sqlRows<
    Record<string, unknown> & {
      category: string;
      checklist: StoredChecklist | null;
      mcp_endpoint_health: number | null;
    }
  >(`select category, checklist, mcp_endpoint_health, ${SIGNALS.join(", ")} from sites`);
  for (const site of all) {
    for (const signal of SIGNALS) add(site.category, signal, site[signal] === true);
    for (const check of site.checklist?.checks ?? []) add(site.category, check.id, check.status === "pass");
    if (site.mcp_endpoint_health !== null) {
      for (const [code, item] of MCP_ITEMS.entries()) {
        add(site.category, item, Number(site.mcp_endpoint_health) === code);
      }
    }
  }
  return expected;
}

async function storedRows(day: string): Promise<Map<string, Row>> {
  const rows = await sqlRows<Row>(
    "select category, item, sites, with_item from adoption_daily where day = $1::date order by category, item",
    [day],
  );
  return new Map(rows.map((row) => [key(row), { ...row, sites: Number(row.sites), with_item: Number(row.with_item) }]));
}

const runAt = async (scheduledTime: number) => {
  await worker.scheduled(
    createScheduledController({ cron: "50 23 * * *", scheduledTime }),
    env,
    createExecutionContext(),
  );
};

describe("the adoption rollup cron", () => {
  it("counts every signal and check per category and over all, a check adopted only at pass, and replaces its day on a rerun", async () => {
    const token = uniqueToken();
    await insertSites([
      {
        domain: `a-${token}.example`,
        category: "finance",
        hasLlmsTxt: true,
        hasMcpServer: true,
        mcpEndpointHealth: 0,
        checklist: checklist({ robots_txt: "pass", llms_txt: "warn", sitemap: "fail" }),
      },
      {
        domain: `b-${token}.example`,
        category: "finance",
        hasOpenapi: true,
        mcpEndpointHealth: 3,
        checklist: checklist({ robots_txt: "pass", llms_txt: "pass", sitemap: "blocked" }),
      },
      { domain: `c-${token}.example`, category: "health", hasSchemaOrg: true },
    ]);
    // A day of its own (far ahead), so other files' runs of the cron do not write it.
    const scheduled = Date.UTC(2031, 4, 17, 23, 50);
    const day = "2031-05-17";
    await sqlRows(
      "insert into adoption_daily (day, category, item, sites, with_item) values ($1::date, 'spam', 'stale_item', 5, 1)",
      [day],
    );
    // Other files insert sites meanwhile: retry until the job and the independent count agree on one state.
    let stored = new Map<string, Row>();
    let expected = new Map<string, Row>();
    for (let attempt = 0; attempt < 5; attempt++) {
      await runAt(scheduled);
      stored = await storedRows(day);
      expected = await expectedRows();
      if (JSON.stringify([...stored].sort()) === JSON.stringify([...expected].sort())) break;
    }
    expect(Object.fromEntries([...stored].sort())).toEqual(Object.fromEntries([...expected].sort()));
    // The stale row of that day is gone; every signal has an all-categories row.
    expect(stored.has("spam|stale_item")).toBe(false);
    for (const signal of SIGNALS) expect(stored.get(`|${signal}`)).toBeDefined();
    // Warn is not adoption: the finance sites' llms_txt check is adopted by one of two at least.
    const llms = stored.get("finance|llms_txt")!;
    expect(llms.sites - llms.with_item).toBeGreaterThanOrEqual(1);
    const sitemap = stored.get("finance|sitemap")!;
    expect(sitemap.sites).toBeGreaterThanOrEqual(2);
    // MCP endpoint health: among advertising sites, one row per class with the same `sites`.
    const handshake = stored.get("finance|mcp_endpoint_handshake")!;
    const unreachable = stored.get("finance|mcp_endpoint_unreachable")!;
    expect(handshake.sites).toBeGreaterThanOrEqual(2);
    expect(unreachable.sites).toBe(handshake.sites);
    expect(handshake.with_item).toBeGreaterThanOrEqual(1);
    expect(unreachable.with_item).toBeGreaterThanOrEqual(1);
    // Other days are left alone.
    expect((await storedRows("2031-05-16")).size).toBe(0);
  });

  it("reads the index in slices whose counts add up to the same rows as one slice", async () => {
    const token = uniqueToken();
    await insertSites(
      Array.from({ length: 7 }, (_, i) => ({
        domain: `s${i}-${token}.example`,
        category: i % 2 ? "finance" : "health",
        hasLlmsTxt: i % 3 === 0,
        mcpEndpointHealth: i % 4 === 0 ? i % 3 : null,
        checklist: checklist({ robots_txt: i % 2 ? "pass" : "warn", webmcp: "neutral" }),
      })),
    );
    const db = testDatabase();
    // Other files insert sites meanwhile: retry until both runs saw the same index.
    let sliced = new Map<string, Row>();
    let whole = new Map<string, Row>();
    for (let attempt = 0; attempt < 5; attempt++) {
      const small = await rollupAdoption(db, "2031-06-01", { sliceSize: 3 });
      const large = await rollupAdoption(db, "2031-06-02", { sliceSize: 1_000_000 });
      sliced = await storedRows("2031-06-01");
      whole = await storedRows("2031-06-02");
      expect(small.slices).toBeGreaterThan(2);
      expect(large.slices).toBe(1);
      if (JSON.stringify([...sliced].sort()) === JSON.stringify([...whole].sort())) break;
    }
    expect(Object.fromEntries([...sliced].sort())).toEqual(Object.fromEntries([...whole].sort()));
    expect(Object.fromEntries([...whole].sort())).toEqual(Object.fromEntries([...(await expectedRows())].sort()));
  });
});
