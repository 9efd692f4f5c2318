/**
 * The retention table is written once (src/domain/retention/retention-policy.ts), shown on the
 * privacy page and repeated in docs/privacy-retention.md: the two must say the same, row by row,
 * and every table that holds personal data must be in it.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RETENTION_POLICY } from "../../src/domain/retention/retention-policy.ts";

const doc = readFileSync(new URL("../../docs/privacy-retention.md", import.meta.url), "utf8");
const docRows = doc
  .split("\n")
  .filter((line) => line.startsWith("| ") && !line.startsWith("| Data |"))
  .map((line) =>
    line
      .slice(2, -2)
      .split(" | ")
      .map((cell) => cell.replaceAll("`", "")),
  );

describe("the retention table", () => {
  it("is the same in the docs as on the privacy page, row by row", () => {
    expect(docRows).toEqual(
      RETENTION_POLICY.map((entry) => [entry.material, entry.tables, entry.holds, entry.kept, entry.removedBy]),
    );
  });

  it("names every table that holds a person's data, and says how long each is kept", () => {
    const named = RETENTION_POLICY.flatMap((entry) => entry.tables.split(/,\s*|\s+\(/).map((t) => t.trim()));
    for (const table of [
      "search_receipts",
      "search_receipt_results",
      "result_selections",
      "action_interest_receipts",
      "search_offer_disclosures",
      "action_ticket_intents",
      "sign_in_tokens",
      "sessions",
      "accounts",
      "monitor_subscribers",
      "monitors",
      "crawl_requests",
      "commerce_orders",
    ]) {
      expect(named, table).toContain(table);
    }
    for (const entry of RETENTION_POLICY) expect(entry.kept.length, entry.material).toBeGreaterThan(0);
  });
});
