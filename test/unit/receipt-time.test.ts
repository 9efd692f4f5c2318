/** Where a signed receipt's validity window stands: every time_status of the verify endpoint. */
import { describe, expect, it } from "vitest";
import { timeStatusOf } from "../../src/domain/tickets/outcome-receipts.ts";

const window = { valid_from: "2026-11-23T04:00:00.000Z", valid_until: "2027-11-23T04:00:00.000Z" };

describe("timeStatusOf", () => {
  it("is current inside the window, not_yet_valid before it, expired from its end on", () => {
    expect(timeStatusOf(window, new Date("2026-11-23T04:00:00.000Z"))).toBe("current");
    expect(timeStatusOf(window, new Date("2027-11-23T03:59:59.999Z"))).toBe("current");
    expect(timeStatusOf(window, new Date("2026-11-23T03:59:59.999Z"))).toBe("not_yet_valid");
    expect(timeStatusOf(window, new Date("2027-11-23T04:00:00.000Z"))).toBe("expired");
  });

  it("is invalid_time for a missing, unreadable or inverted window", () => {
    const now = new Date("2027-01-01T00:00:00.000Z");
    for (const broken of [
      {},
      { valid_from: window.valid_from },
      { ...window, valid_until: "next year" },
      { ...window, valid_from: 1_790_000_000 },
      { ...window, valid_from: "2026-11-23T04:00:00+01:00" },
      { ...window, valid_from: "2026-13-45T04:00:00.000Z" },
      { valid_from: window.valid_until, valid_until: window.valid_from },
      { valid_from: window.valid_from, valid_until: window.valid_from },
    ]) {
      expect(timeStatusOf(broken, now), JSON.stringify(broken)).toBe("invalid_time");
    }
  });
});
