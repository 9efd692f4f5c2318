/**
 * Pieces of the provider console that need no server: the demand chart's bar lengths, the copy
 * script's CSP hash (of exactly the text served), the time format and the console's paths.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { barLengths } from "../../src/web/bar-chart.tsx";
import { CONSOLE_PATHS, CONSOLE_ROUTES } from "../../src/web/console-paths.ts";
import { COPY_SCRIPT, copyScriptHash } from "../../src/web/copy-script.ts";
import { formatTime } from "../../src/web/pages/console.tsx";

describe("the demand chart", () => {
  it("scales bars to the largest, keeps a positive value visible and draws nothing for zero", () => {
    const lengths = barLengths([
      { label: "web", value: 100 },
      { label: "rest", value: 50 },
      { label: "mcp", value: 0 },
      { label: "unknown", value: 1 },
    ]);
    expect(lengths[0]).toBe(224);
    expect(lengths[1]).toBe(112);
    expect(lengths[2]).toBe(0);
    expect(lengths[3]).toBe(2);
  });

  it("draws no bar at all when every value is zero", () => {
    expect(
      barLengths([
        { label: "web", value: 0 },
        { label: "rest", value: 0 },
      ]),
    ).toEqual([0, 0]);
  });
});

describe("the copy script", () => {
  it("is named by the SHA-256 of exactly its text", async () => {
    const expected = `sha256-${createHash("sha256").update(COPY_SCRIPT, "utf8").digest("base64")}`;
    expect(await copyScriptHash()).toBe(expected);
  });
});

describe("console pieces", () => {
  it("writes times to the minute in UTC, and a dash for none", () => {
    expect(formatTime("2026-11-23T04:10:59.123Z")).toBe("2026-11-23 04:10 UTC");
    expect(formatTime(null)).toBe("—");
  });

  it("gives every path a route pattern of the same shape", () => {
    const id = "7d5f3c1e-0000-4000-8000-000000000000";
    for (const [name, path] of Object.entries(CONSOLE_PATHS)) {
      const route = CONSOLE_ROUTES[name as keyof typeof CONSOLE_ROUTES];
      const made = typeof path === "function" ? path(id) : path;
      expect(made.replaceAll(id, route.includes(":offer_id") ? ":offer_id" : ":claim_id"), name).toBe(route);
    }
  });
});
