import { describe, expect, it } from "vitest";
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
