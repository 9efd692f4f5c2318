/**
 * The state page (/state) against the JSON and CSV of /api/v1/stats/adoption: the same latest
 * figures, the charts of every item with their text alternatives, MCP endpoint health, the
 * category and the order chosen by plain links, and a 400 page for a bad choice.
 */
import { describe, expect, it } from "vitest";
import { sqlRows } from "../support/sites.ts";
import { asClient } from "../support/worker.ts";

const DAY_MS = 86_400_000;
const dayBack = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

/**
 * Rows of one category only; each test has its own (no other test writes these categories' past
 * days, and the figures are cached 5 minutes per category).
 */
async function storeRows(category: string, rows: [number, string, number, number][]) {
  await sqlRows("delete from adoption_daily where category = $1 and day < '2031-01-01'", [category]);
  for (const [back, item, sites, withItem] of rows) {
    await sqlRows(
      "insert into adoption_daily (day, category, item, sites, with_item) values ($1::date, $2, $3, $4, $5)",
      [dayBack(back), category, item, sites, withItem],
    );
  }
}

interface JsonRow {
  day: string;
  item: string;
  kind: string;
  sites: number;
  with_item: number;
  share: number;
}

/** The latest-figures rows of the page: item → [sites, with_item, share] as the cells carry them. */
function pageRows(html: string, section: string): Map<string, number[]> {
  const start = html.indexOf(`id="${section}"`);
  const end = html.indexOf("</section>", start);
  const part = html.slice(start, end);
  const rows = new Map<string, number[]>();
  for (const match of part.matchAll(/<tr data-item="([^"]+)">([\s\S]*?)<\/tr>/g)) {
    const values = [...match[2]!.matchAll(/data-value="([^"]+)"/g)].map((value) => Number(value[1]));
    rows.set(match[1]!, values);
  }
  return rows;
}

describe("GET /state", () => {
  it("shows the JSON's latest figures, a chart per item and MCP endpoint health; the CSV agrees", async () => {
    await storeRows("education", [
      [30, "has_llms_txt", 100, 10],
      [0, "has_llms_txt", 120, 30],
      [30, "has_mcp_server", 100, 5],
      [0, "has_mcp_server", 120, 6],
      [30, "robots_txt", 90, 45],
      [0, "robots_txt", 110, 44],
      [0, "mcp_endpoint_handshake", 8, 5],
      [0, "mcp_endpoint_auth_gated", 8, 1],
      [0, "mcp_endpoint_not_mcp", 8, 2],
      [0, "mcp_endpoint_unreachable", 8, 0],
    ]);
    const get = asClient();
    const page = await get("/state?category=education");
    const html = await page.text();
    expect(page.status, html).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("cache-control")).toBe("public, max-age=300");

    const json = (await (await get("/api/v1/stats/adoption?category=education&days=365")).json()) as {
      rows: JsonRow[];
    };
    const latest = json.rows.filter((row) => row.day === dayBack(0));
    expect(latest).toHaveLength(7);
    const table = pageRows(html, "latest");
    const health = pageRows(html, "mcp-endpoints");
    for (const row of latest) {
      if (row.kind === "mcp_endpoint") expect(health.get(row.item), row.item).toEqual([row.with_item, row.share]);
      else expect(table.get(row.item), row.item).toEqual([row.sites, row.with_item, row.share]);
    }
    expect([...table.keys()]).toEqual(["has_llms_txt", "has_mcp_server", "robots_txt"]);
    // Shares are shown exactly: 30 of 120 is 25.00 %, 44 of 110 is 40.00 %; changes in points.
    expect(html).toContain("25.00 %");
    expect(html).toContain("+15.00 pp");
    expect(html).toContain("−10.00 pp");

    // The CSV holds the same rows as the JSON, so the same latest figures as the page.
    const csv = await (await get("/api/v1/stats/adoption.csv?category=education&days=365")).text();
    const csvLatest = csv
      .trim()
      .split("\r\n")
      .slice(1)
      .map((line) => line.split(","))
      .filter(([day]) => day === dayBack(0))
      .map(([, , item, sites, withItem, share]) => [item, Number(sites), Number(withItem), Number(share)]);
    expect(csvLatest).toEqual(latest.map((row) => [row.item, row.sites, row.with_item, row.share]));

    // One chart per item, each an image with a title and a description in words.
    const charts = [...html.matchAll(/<svg viewBox="0 0 320 130" role="img" aria-labelledby="([^"]+)"/g)];
    expect(charts.map((chart) => chart[1])).toEqual(
      [
        "has_llms_txt",
        "has_mcp_server",
        "robots_txt",
        "mcp_endpoint_handshake",
        "mcp_endpoint_auth_gated",
        "mcp_endpoint_not_mcp",
        "mcp_endpoint_unreachable",
      ].map((item) => `chart-${item}-title chart-${item}-desc`),
    );
    expect(html).toContain(
      `<desc id="chart-has_llms_txt-desc">10.00 % on ${dayBack(30)}, 25.00 % on ${dayBack(0)} (30 of 120 sites), of all indexed sites.</desc>`,
    );
    expect(html).toContain("a soft-404, not a file");
    // Links to the machine-readable figures with the same parameters.
    expect(html).toContain("/api/v1/stats/adoption.csv?days=365&amp;category=education");
  });

  it("orders the latest figures by the link chosen, keeping the category", async () => {
    await storeRows("communication", [
      [0, "has_llms_txt", 100, 10],
      [0, "has_openapi", 100, 70],
      [0, "robots_txt", 50, 40],
      [0, "sitemap", 200, 30],
    ]);
    const get = asClient();
    const order = async (query: string) => [...pageRows(await (await get(`/state?${query}`)).text(), "latest").keys()];
    expect(await order("category=communication")).toEqual(["has_llms_txt", "has_openapi", "robots_txt", "sitemap"]);
    expect(await order("category=communication&sort=share")).toEqual([
      "robots_txt",
      "has_openapi",
      "sitemap",
      "has_llms_txt",
    ]);
    expect(await order("category=communication&sort=sites")).toEqual([
      "sitemap",
      "has_llms_txt",
      "has_openapi",
      "robots_txt",
    ]);
    const html = await (await get("/state?category=communication&sort=share")).text();
    expect(html).toContain("/state?category=communication&amp;sort=sites#latest");
    expect(html).toMatch(/<th scope="col" class="number" aria-sort="descending">\s*Share/);
  });

  it("answers a bad category or order with a 400 page", async () => {
    const get = asClient();
    for (const query of ["category=gardening", "sort=random"]) {
      const response = await get(`/state?${query}`);
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    }
  });
});
