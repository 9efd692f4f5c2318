/**
 * The publication rules of demand (src/domain/demand/publication.ts): thresholds, rule 1 across
 * windows and rule 2 within an answer, checked on their cases and then exhaustively on random
 * data against the guarantee itself: no subtraction of two published figures isolates between 1
 * and threshold - 1 receipts.
 */
import { describe, expect, it } from "vitest";
import { publishedInWindow, visibleAfterRemainder, windowCount } from "../../src/domain/demand/publication.ts";

const T = 20;
const MAX = 30;
/** A 30-day series with these counts on these days (day 0 = the last 24 hours). */
function series(counts: Record<number, number>): number[] {
  return Array.from({ length: MAX }, (_, day) => counts[day] ?? 0);
}
const windows = (values: number[]) => Array.from({ length: MAX }, (_, k) => publishedInWindow(values, T, k + 1, MAX));

describe("windowCount", () => {
  it("sums the first days", () => {
    expect(windowCount(series({ 0: 1, 1: 2, 29: 4 }), 2)).toBe(3);
    expect(windowCount(series({ 0: 1, 1: 2, 29: 4 }), 30)).toBe(7);
  });
});

describe("rule 1: windows", () => {
  it("publishes at 20 and 21 receipts, never at 19", () => {
    for (const [count, expected] of [
      [19, null],
      [20, 20],
      [21, 21],
    ] as const) {
      expect(publishedInWindow(series({ 0: count }), T, 30, MAX)).toBe(expected);
      expect(publishedInWindow(series({ 0: count }), T, 1, MAX)).toBe(expected);
    }
  });

  it("hides a smaller window that would differ from a larger one by 1 to 19", () => {
    // 20 today, 3 ten days ago: days=30 says 23; days=1..10 would say 20 and give the 3 away.
    const values = series({ 0: 20, 10: 3 });
    expect(publishedInWindow(values, T, 30, MAX)).toBe(23);
    expect(publishedInWindow(values, T, 11, MAX)).toBe(23);
    for (let days = 1; days <= 10; days++) expect(publishedInWindow(values, T, days, MAX)).toBeNull();
  });

  it("publishes windows that are equal, or apart by at least the threshold", () => {
    const values = series({ 0: 25, 5: 20, 20: 1 });
    expect(publishedInWindow(values, T, 30, MAX)).toBe(46);
    expect(publishedInWindow(values, T, 21, MAX)).toBe(46);
    expect(publishedInWindow(values, T, 20, MAX)).toBeNull(); // 45: one apart from 46
    expect(publishedInWindow(values, T, 6, MAX)).toBeNull(); // 45 again
    expect(publishedInWindow(values, T, 5, MAX)).toBe(25); // 21 below 46
    expect(publishedInWindow(values, T, 1, MAX)).toBe(25);
  });

  it("never lets two published windows differ by 1 to 19 (random data)", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 500; trial++) {
      const values = Array.from({ length: MAX }, () => (random() < 0.5 ? 0 : Math.floor(random() * 12)));
      const published = windows(values).filter((value): value is number => value !== null);
      for (const value of published) expect(value).toBeGreaterThanOrEqual(T);
      const close = published.flatMap((a) =>
        published.filter((b) => Math.abs(a - b) > 0 && Math.abs(a - b) < T).map((b) => [a, b]),
      );
      expect(close, `windows of ${values.join(",")}`).toEqual([]);
    }
  });
});

describe("rule 2: summary minus the visible rows", () => {
  const rows = (values: (number | null)[]) => values.map((value, index) => ({ key: `r${index}`, value }));

  it("keeps every row when the remainder is 0 or at least the threshold", () => {
    expect([...visibleAfterRemainder(40, rows([20, 20]), T)]).toEqual(["r0", "r1"]);
    expect([...visibleAfterRemainder(60, rows([20, 20, null]), T)]).toEqual(["r0", "r1"]);
  });

  it("hides the smallest row while the remainder is 1 to 19", () => {
    // 45 - 20 - 21 = 4 hidden: hiding r0 (20) leaves 24 hidden.
    expect([...visibleAfterRemainder(45, rows([20, 21, null]), T)]).toEqual(["r1"]);
    // 41 - 40 = 1: the only row goes.
    expect([...visibleAfterRemainder(41, rows([40]), T)]).toEqual([]);
    // a tie hides the later row
    expect([...visibleAfterRemainder(45, rows([20, 20]), T)]).toEqual(["r0"]);
  });

  it("leaves rows alone under a suppressed total", () => {
    expect([...visibleAfterRemainder(null, rows([20, null]), T)]).toEqual(["r0"]);
  });

  it("never leaves a remainder of 1 to 19 (random data)", () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 500; trial++) {
      const counts = Array.from({ length: 7 }, () => Math.floor(random() * 40));
      const total = counts.reduce((a, b) => a + b, 0);
      const candidates = counts.map((count, index) => ({ key: index, value: count >= T ? count : null }));
      const visible = visibleAfterRemainder(total, candidates, T);
      const remainder = total - [...visible].reduce((sum, index) => sum + (counts[index] ?? 0), 0);
      expect(remainder === 0 || remainder >= T, `${counts.join(",")}`).toBe(true);
    }
  });
});
