/**
 * npm start shows wrangler dev's output but for its note that scheduled Workers are not triggered
 * locally, whose curl line names wrangler's internal port: npm start fires the crons itself
 * (scripts/local-crons.ts), and says so instead. Settings reach wrangler as dotenv lines that its
 * own reading (dotenv, then dotenv-expand) gives back unchanged.
 */
import { describe, expect, it } from "vitest";
import { dotenvLine, wranglerOutputFilter } from "../../scripts/wrangler-dev.ts";

const NOTE = [
  "\u001b[33m▲ \u001b[43;33m[\u001b[43;30mWARNING\u001b[43;33m]\u001b[0m \u001b[1mScheduled Workers are not automatically triggered during local development.\u001b[0m",
  "",
  "  To manually trigger a scheduled event, run:",
  '    curl "http://127.0.0.1:61234/cdn-cgi/handler/scheduled"',
  "  For more details, see https://developers.cloudflare.com/workers/configuration/cron-triggers/#test-cron-triggers-locally",
  "",
];

describe("wrangler's output under npm start", () => {
  it("replaces the scheduled-Workers note and its internal port, and passes every other line", () => {
    const filter = wranglerOutputFilter("npm start fires the crons");
    const shown = ["⎔ Starting local server...", ...NOTE, "[wrangler:info] Ready on http://127.0.0.1:61234"].flatMap(
      filter,
    );
    expect(shown).toEqual([
      "⎔ Starting local server...",
      "npm start fires the crons",
      "[wrangler:info] Ready on http://127.0.0.1:61234",
    ]);
    expect(shown.join("\n")).not.toContain("cdn-cgi/handler/scheduled");
  });

  it("passes lines that only look alike, and blank lines elsewhere", () => {
    const filter = wranglerOutputFilter("x");
    expect(["", "Scheduled events run every minute", ""].flatMap(filter)).toEqual([
      "",
      "Scheduled events run every minute",
      "",
    ]);
  });
});

describe("settings as dotenv lines", () => {
  it("quotes each value with a quote it does not hold and escapes every $", () => {
    expect(dotenvLine("A", "plain")).toBe("A='plain'");
    expect(dotenvLine("A", "it's")).toBe("A=`it's`");
    expect(dotenvLine("A", "cost $5 or ${HOME}")).toBe("A='cost \\$5 or \\${HOME}'");
    expect(() => dotenvLine("A", "' ` \"")).toThrow();
    expect(() => dotenvLine("A B", "x")).toThrow();
  });
});
