/** The empty-result page's suggestions: the search answer's own nearest words, never invented. */
import { describe, expect, it } from "vitest";
import type { SearchResponse } from "../../src/domain/search/run-search.ts";
import { renderSearchPage, suggestedWords } from "../../src/web/pages/search.tsx";

const empty = (extra: Record<string, unknown> = {}) =>
  ({
    access: "free",
    receipt_recorded: true,
    search_id: "",
    results: [],
    total: 0,
    total_exact: true,
    page: 1,
    per_page: 20,
    has_next: false,
    paid_offers_available: false,
    paid_offers: [],
    ...extra,
  }) as unknown as SearchResponse;

describe("the words an empty answer suggests", () => {
  it("are the answer's own, as words or as objects naming them", () => {
    expect(suggestedWords(empty({ suggestions: ["payment", "payments"] }))).toEqual(["payment", "payments"]);
    expect(
      suggestedWords(empty({ suggestions: [{ word: "invoice" }, { query: "billing" }, { q: "tax" }, {}] })),
    ).toEqual(["invoice", "billing", "tax"]);
  });

  it("are none when the answer offers none", () => {
    expect(suggestedWords(empty())).toEqual([]);
    expect(suggestedWords(empty({ suggestions: "payment" }))).toEqual([]);
  });

  it("become links to those searches, the filters kept; without them the general advice shows", async () => {
    const page = await renderSearchPage({
      origin: "https://svc.example",
      values: { q: "paymnet", category: "finance" },
      result: empty({ suggestions: ["payment"] }),
    });
    expect(page).toContain("Nearest words that would match");
    expect(page).toContain('href="https://svc.example/search?q=payment&amp;category=finance"');
    const plain = await renderSearchPage({ origin: "https://svc.example", values: { q: "zzz" }, result: empty() });
    expect(plain).not.toContain("Nearest words");
    expect(plain).toContain("Try other or shorter words");
  });
});
