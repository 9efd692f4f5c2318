/** GET /api/v1/stats/adoption and its CSV: the daily rollups of the last days, validated strictly, cached like /top. */
import { describe, expect, it } from "vitest";
import { sqlRows } from "../support/sites.ts";
import { asClient, expectInvalid } from "../support/worker.ts";

const DAY_MS = 86_400_000;

interface Figures {
  days: number;
  from: string | null;
  rows: Record<string, unknown>[];
}
const dayBack = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

/** Rows of the `jobs` category only (no other test writes them but the cron test's far-future day). */
async function storeJobsRows(rows: [number, string, number, number][]) {
  await sqlRows("delete from adoption_daily where category = 'jobs' and day < '2031-01-01'");
  for (const [back, item, sites, withItem] of rows) {
    await sqlRows(
      "insert into adoption_daily (day, category, item, sites, with_item) values ($1::date, 'jobs', $2, $3, $4)",
      [dayBack(back), item, sites, withItem],
    );
  }
}

describe("GET /api/v1/stats/adoption", () => {
  it("gives the rows of the last days of one category, signals before checks, with shares; the CSV has the same rows", async () => {
    await storeJobsRows([
      [0, "robots_txt", 30, 10],
      [0, "has_llms_txt", 40, 3],
      [1, "has_mcp_server", 40, 0],
      [1, "has_llms_txt", 39, 2],
      [6, "has_llms_txt", 3, 1],
      [7, "has_llms_txt", 0, 0],
      [200, "has_llms_txt", 10, 1],
    ]);
    const get = asClient();
    const response = await get("/api/v1/stats/adoption?category=jobs&days=7");
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("x-cache")).toBe("MISS");
    const body = JSON.parse(text);
    const row = (back: number, item: string, kind: string, sites: number, withItem: number, share: number) => ({
      day: dayBack(back),
      category: "jobs",
      item,
      kind,
      sites,
      with_item: withItem,
      share,
    });
    expect(body).toEqual({
      category: "jobs",
      days: 7,
      from: dayBack(6),
      to: dayBack(0),
      rows: [
        row(6, "has_llms_txt", "signal", 3, 1, 0.3333),
        row(1, "has_llms_txt", "signal", 39, 2, 0.0513),
        row(1, "has_mcp_server", "signal", 40, 0, 0),
        row(0, "has_llms_txt", "signal", 40, 3, 0.075),
        row(0, "robots_txt", "check", 30, 10, 0.3333),
      ],
    });
    const again = await get("/api/v1/stats/adoption?category=jobs&days=7");
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(await again.json()).toEqual(body);

    // The default is 90 days: the row 200 days back stays out, the zero-site row of day 7 is in (share 0).
    const byDefault = (await (await get("/api/v1/stats/adoption?category=jobs")).json()) as Figures;
    expect(byDefault.days).toBe(90);
    expect(byDefault.rows).toHaveLength(6);
    expect(byDefault.rows[0]).toEqual(row(7, "has_llms_txt", "signal", 0, 0, 0));
    const year = (await (await get("/api/v1/stats/adoption?category=jobs&days=365")).json()) as Figures;
    expect(year.rows).toHaveLength(7);
    expect(year.from).toBe(dayBack(200));

    const csv = await get("/api/v1/stats/adoption.csv?category=jobs&days=7");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("cache-control")).toBe("public, max-age=300");
    expect(await csv.text()).toBe(
      [
        "day,category,item,sites,with_item,share",
        `${dayBack(6)},jobs,has_llms_txt,3,1,0.3333`,
        `${dayBack(1)},jobs,has_llms_txt,39,2,0.0513`,
        `${dayBack(1)},jobs,has_mcp_server,40,0,0`,
        `${dayBack(0)},jobs,has_llms_txt,40,3,0.075`,
        `${dayBack(0)},jobs,robots_txt,30,10,0.3333`,
        "",
      ].join("\r\n"),
    );
    // The same CSV from the JSON path, by `format` or by the Accept header; JSON stays the default.
    const expectedCsv = await (await get("/api/v1/stats/adoption.csv?category=jobs&days=7")).text();
    const byFormat = await get("/api/v1/stats/adoption?category=jobs&days=7&format=csv");
    expect(byFormat.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await byFormat.text()).toBe(expectedCsv);
    const byAccept = await get("/api/v1/stats/adoption?category=jobs&days=7", { headers: { Accept: "text/csv" } });
    expect(byAccept.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(byAccept.headers.get("vary")).toBe("Accept");
    expect(await byAccept.text()).toBe(expectedCsv);
    const preferJson = await get("/api/v1/stats/adoption?category=jobs&days=7", {
      headers: { Accept: "application/json, text/csv;q=0.5" },
    });
    expect(preferJson.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await preferJson.json()).toEqual(body);
    const asJson = await get("/api/v1/stats/adoption?category=jobs&days=7&format=json", {
      headers: { Accept: "text/csv" },
    });
    expect(await asJson.json()).toEqual(body);
  });

  it("answers 400 problems for bad parameters, JSON and CSV alike", async () => {
    const get = asClient();
    for (const path of ["/api/v1/stats/adoption", "/api/v1/stats/adoption.csv"]) {
      await expectInvalid(await get(`${path}?days=0`), "query", ["days"]);
      await expectInvalid(await get(`${path}?days=366`), "query", ["days"]);
      await expectInvalid(await get(`${path}?days=ten`), "query", ["days"]);
      await expectInvalid(await get(`${path}?category=gardening`), "query", ["category"]);
    }
    await expectInvalid(await get("/api/v1/stats/adoption?format=xml"), "query", ["format"]);
    // The CSV path is CSV already: it takes no format.
    await expectInvalid(await get("/api/v1/stats/adoption.csv?format=csv"), "query", ["format"]);
  });
});
