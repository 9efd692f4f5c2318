import { describe, expect, it } from "vitest";
import { ADOPTION_CSV_COLUMNS, adoptionCsv, toAdoptionRows } from "../../src/domain/stats/adoption-figures.ts";
import { adoptionShare, utcDay } from "../../src/domain/stats/adoption-rollup.ts";

describe("adoption arithmetic", () => {
  it("gives a share to 4 decimals, 0 when no site was counted", () => {
    expect(adoptionShare(1, 3)).toBe(0.3333);
    expect(adoptionShare(2, 3)).toBe(0.6667);
    expect(adoptionShare(7, 7)).toBe(1);
    expect(adoptionShare(0, 12)).toBe(0);
    expect(adoptionShare(0, 0)).toBe(0);
    expect(adoptionShare(1, 20_000)).toBe(0.0001);
    expect(adoptionShare(1, 30_000)).toBe(0);
  });

  it("names the UTC day of an instant, whatever the local offset", () => {
    expect(utcDay(new Date("2026-11-27T23:59:59.999Z"))).toBe("2026-11-27");
    expect(utcDay(new Date("2026-11-28T00:30:00+02:00"))).toBe("2026-11-27");
    expect(utcDay(new Date(Date.UTC(2028, 1, 29, 12)))).toBe("2028-02-29");
  });
});

describe("adoption rows and CSV", () => {
  const stored = [
    { day: "2026-11-02", category: "", item: "robots_txt", sites: 4, with_item: 1 },
    { day: "2026-11-02", category: "", item: "has_schema_org", sites: 9, with_item: 9 },
    { day: "2026-11-01", category: "", item: "zz_unknown", sites: 2, with_item: 1 },
    { day: "2026-11-01", category: "", item: "has_llms_txt", sites: 3, with_item: 2 },
    { day: "2026-11-02", category: "", item: "has_llms_txt", sites: 0, with_item: 0 },
  ];

  it("orders by day, then signals in the spec's order, then checks, then unknown items; kind and share per row", () => {
    const rows = toAdoptionRows(stored);
    expect(rows.map((row) => `${row.day} ${row.item} ${row.kind} ${row.share}`)).toEqual([
      "2026-11-01 has_llms_txt signal 0.6667",
      "2026-11-01 zz_unknown check 0.5",
      "2026-11-02 has_llms_txt signal 0",
      "2026-11-02 has_schema_org signal 1",
      "2026-11-02 robots_txt check 0.25",
    ]);
  });

  it("writes RFC 4180 CSV with a fixed header, CRLF line ends and quoted fields where needed", () => {
    const rows = toAdoptionRows(stored.slice(0, 2));
    expect(adoptionCsv(rows)).toBe(
      "day,category,item,sites,with_item,share\r\n2026-11-02,,has_schema_org,9,9,1\r\n2026-11-02,,robots_txt,4,1,0.25\r\n",
    );
    expect(adoptionCsv([])).toBe("day,category,item,sites,with_item,share\r\n");
    const odd = toAdoptionRows([{ day: "2026-11-03", category: 'a,"b"', item: "x\ny", sites: 1, with_item: 1 }]);
    expect(adoptionCsv(odd)).toBe('day,category,item,sites,with_item,share\r\n2026-11-03,"a,""b""","x\ny",1,1,1\r\n');
    expect(ADOPTION_CSV_COLUMNS).toEqual(["day", "category", "item", "sites", "with_item", "share"]);
  });
});
