/** What a report says first: the fixes that help most, in order of effect, and why a site was not read. */
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/domain/checklist/checklist-definition.ts";
import type { SignalEvidence } from "../../src/domain/signals/types.ts";
import { SIGNAL_FIELDS, type SignalField } from "../../src/domain/sites/site-fields.ts";
import { firstSentence, topFixes, UNREACHABLE_CAUSES, unreachableCause } from "../../src/web/report-summary.tsx";

const present: SignalEvidence = { status: "present", reason: "Found.", fetched: [] };
const absent: SignalEvidence = { status: "absent", reason: "Not found.", fetched: [] };

function signals(missing: SignalField[]): Record<SignalField, SignalEvidence> {
  return Object.fromEntries(
    SIGNAL_FIELDS.map((field) => [field, missing.includes(field) ? absent : present]),
  ) as Record<SignalField, SignalEvidence>;
}

function check(id: string, status: CheckResult["status"], appliesTo: CheckResult["applies_to"]): CheckResult {
  return {
    id,
    title: `Check ${id}`,
    category: "discoverability",
    status,
    reason: "Seen.",
    evidence: [],
    fix: `Fix ${id} first. Then more.\n\nexample`,
    applies_to: appliesTo,
  } as CheckResult;
}

describe("the fixes that would help most", () => {
  it("puts missing signals first by the points they add, then failing before warning checks of the kind", () => {
    const fixes = topFixes(
      signals(["has_llms_txt", "has_mcp_server"]),
      [
        check("a", "warn", ["api"]),
        check("b", "fail", ["api"]),
        check("c", "fail", ["store"]),
        check("d", "pass", ["api"]),
      ],
      "api",
      5,
    );
    expect(fixes.map((fix) => fix.href)).toEqual([
      "#signal-has_mcp_server",
      "#signal-has_llms_txt",
      "#check-b",
      "#check-a",
    ]);
    expect(fixes[0]!.effect).toMatch(/^\+\d+ points$/);
    expect(fixes[2]!.instruction).toBe("Fix b first.");
  });

  it("names three at most, and none when nothing is left to do", () => {
    expect(topFixes(signals([...SIGNAL_FIELDS]), [], "content")).toHaveLength(3);
    expect(topFixes(signals([]), [check("d", "pass", ["content"])], "content")).toEqual([]);
  });

  it("keeps a fix's first sentence only", () => {
    expect(firstSentence("Publish it. Then tell us.\n\n<example>")).toBe("Publish it.");
    expect(firstSentence("No full stop")).toBe("No full stop");
  });
});

describe("why a site was not read", () => {
  // The guarded fetcher's and the crawl's own words (src/adapters/outbound/guarded-fetch.ts, crawl-site.ts).
  it.each([
    ["The home page was not fetched: the host name nope.example does not resolve.", "no_such_name"],
    ["The site could not be reached: the host name of nope.example could not be resolved.", "dns_failure"],
    [
      "The site could not be reached: could not resolve a.example: DNS lookup of a.example failed: the resolver could not be reached.",
      "dns_failure",
    ],
    ["The site could not be reached: a.example refused the connection.", "refused"],
    ["The site could not be reached: the connection to a.example was refused or cut before any answer.", "refused"],
    ["The site could not be reached: a.example closed the connection before answering.", "refused"],
    ["The site did not answer in time: no complete answer within 5000 ms.", "timed_out"],
    ["The site could not be reached: the connection to a.example timed out.", "timed_out"],
    [
      "The site could not be reached: the secure connection to a.example failed: its TLS certificate or handshake could not be used.",
      "tls",
    ],
    ["The home page was not fetched: a.example resolves to 10.0.0.8, which is a private address.", "not_public"],
    ["The home page could not be fetched: more than 5 redirects.", "redirects"],
    ["The home page answered 500.", "other"],
  ])("%s → %s", (note, cause) => {
    expect(unreachableCause(note)).toBe(cause);
  });

  it("has a heading and a fix of its own for every cause", () => {
    const fixes = Object.values(UNREACHABLE_CAUSES).map((text) => text.fix);
    expect(new Set(fixes).size).toBe(fixes.length);
  });
});
