/** The daily adoption rollup cron of the discovery group: one day's rows, per category and over all, upserted. */
import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { StoredChecklist } from "../../db/schema/sites.ts";
import worker from "../support/all-in-one-jobs.ts";
import { insertSites, sqlRows, uniqueToken } from "../support/sites.ts";

const SIGNALS = [
  "has_llms_txt",
  "has_ai_plugin",
  "has_openapi",
  "has_structured_api",
  "has_mcp_server",
  "has_robots_ai",
  "has_schema_org",
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
  const all = await sqlRows<Record<string, unknown> & { category: string; checklist: StoredChecklist | null }>(
    `select category, checklist, ${SIGNALS.join(", ")} from sites`,
  );
  for (const site of all) {
    for (const signal of SIGNALS) add(site.category, signal, site[signal] === true);
    for (const check of site.checklist?.checks ?? []) add(site.category, check.id, check.status === "pass");
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
        checklist: checklist({ robots_txt: "pass", llms_txt: "warn", sitemap: "fail" }),
      },
      {
        domain: `b-${token}.example`,
        category: "finance",
        hasOpenapi: true,
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
    // Other days are left alone.
    expect((await storedRows("2031-05-16")).size).toBe(0);
  });
});
