/** What /state makes of the adoption rows: series, orders, formats and chart geometry, with fixed vectors. */
import { describe, expect, it } from "vitest";
import { type AdoptionRow, toAdoptionRows } from "../../src/domain/stats/adoption-figures.ts";
import { chartLine, describeSeries, shareAxisTop } from "../../src/web/adoption-chart.tsx";
import {
  adoptionSeries,
  formatChange,
  formatShare,
  itemLabel,
  monthlyPoints,
  sortSeries,
} from "../../src/web/adoption-summary.ts";

const rows: AdoptionRow[] = toAdoptionRows([
  { day: "2026-01-01", category: "", item: "robots_txt", sites: 10, with_item: 5 },
  { day: "2026-01-01", category: "", item: "has_llms_txt", sites: 10, with_item: 1 },
  { day: "2026-03-01", category: "", item: "has_llms_txt", sites: 20, with_item: 8 },
  { day: "2026-03-01", category: "", item: "robots_txt", sites: 18, with_item: 6 },
  { day: "2026-03-01", category: "", item: "has_openapi", sites: 20, with_item: 9 },
  { day: "2026-03-01", category: "", item: "mcp_endpoint_handshake", sites: 4, with_item: 3 },
  // An item with no row on the latest day is not shown.
  { day: "2026-01-01", category: "", item: "sitemap", sites: 10, with_item: 2 },
]);

describe("the series of /state", () => {
  it("has one series per item of the latest day, in the index's order, with its change since the first day", () => {
    const { latestDay, series } = adoptionSeries(rows);
    expect(latestDay).toBe("2026-03-01");
    expect(series.map((entry) => [entry.item, entry.kind, entry.group, entry.change])).toEqual([
      ["has_llms_txt", "signal", "signal", 0.3],
      ["has_openapi", "signal", "signal", 0],
      ["robots_txt", "check", "discoverability", -0.1667],
      ["mcp_endpoint_handshake", "mcp_endpoint", "mcp endpoint", 0],
    ]);
    expect(adoptionSeries([])).toEqual({ latestDay: null, series: [] });
  });

  it("orders by share, change or sites, largest first, ties in the index's order", () => {
    const { series } = adoptionSeries(rows);
    const order = (sort: Parameters<typeof sortSeries>[1]) => sortSeries(series, sort).map((entry) => entry.item);
    expect(order("share")).toEqual(["mcp_endpoint_handshake", "has_openapi", "has_llms_txt", "robots_txt"]);
    expect(order("change")).toEqual(["has_llms_txt", "has_openapi", "mcp_endpoint_handshake", "robots_txt"]);
    expect(order("sites")).toEqual(["has_llms_txt", "has_openapi", "robots_txt", "mcp_endpoint_handshake"]);
    expect(order("item")).toEqual(series.map((entry) => entry.item));
  });

  it("names items and formats shares and changes exactly", () => {
    expect(itemLabel("has_llms_txt")).toBe("llms.txt");
    expect(itemLabel("robots_txt")).toBe("robots.txt");
    expect(itemLabel("mcp_endpoint_auth_gated")).toBe("Endpoint is auth-gated");
    expect(itemLabel("zz_unknown")).toBe("zz_unknown");
    expect(formatShare(0.3333)).toBe("33.33 %");
    expect(formatShare(1)).toBe("100.00 %");
    expect(formatChange(0.3)).toBe("+30.00 pp");
    expect(formatChange(-0.1667)).toBe("−16.67 pp");
    expect(formatChange(0)).toBe("0.00 pp");
  });

  it("lists the first day of each month and the last day in a chart's table", () => {
    const days = ["2026-01-30", "2026-01-31", "2026-02-01", "2026-02-14", "2026-03-01", "2026-03-02"];
    const points = toAdoptionRows(
      days.map((day) => ({ day, category: "", item: "has_llms_txt", sites: 1, with_item: 0 })),
    );
    expect(monthlyPoints(points).map((point) => point.day)).toEqual([
      "2026-01-30",
      "2026-02-01",
      "2026-03-01",
      "2026-03-02",
    ]);
  });

  it("draws a share axis up to the next 10 % and a line from the first day to the last", () => {
    const { series } = adoptionSeries(rows);
    const llms = series[0]!;
    expect(shareAxisTop(llms)).toBe(0.4);
    expect(shareAxisTop(series[3]!)).toBe(0.8);
    // 10 % at the left edge, 40 % (the top) at the right.
    expect(chartLine(llms)).toBe("44,83 312,8");
    expect(describeSeries(llms)).toBe(
      "10.00 % on 2026-01-01, 40.00 % on 2026-03-01 (8 of 20 sites), of all indexed sites.",
    );
  });

  it("gives a group of charts one scale, so a 10 % curve does not look like a 45 % one", () => {
    const { series } = adoptionSeries(rows);
    const signals = series.filter((entry) => entry.kind === "signal");
    // has_llms_txt reaches 40 %, has_openapi 45 %: one top of 50 % for both.
    expect(shareAxisTop(signals)).toBe(0.5);
    const top = shareAxisTop(signals);
    // The same 40 % point sits lower on the shared scale than on its own.
    expect(chartLine(signals[0]!, top)).toBe("44,88 312,28");
    expect(chartLine(signals[0]!)).not.toBe(chartLine(signals[0]!, top));
  });
});
