import { describe, expect, it } from "vitest";
import { buildActionInterestSidecar } from "../../src/domain/receipts/action-interest-sidecar.ts";
import { newSearchId, SEARCH_ID_PATTERN } from "../../src/domain/receipts/search-id.ts";
import { facetQueryText, filterKey } from "../../src/domain/search/site-filters.ts";
import { queryWords, tsQueryText } from "../../src/domain/search/text-query.ts";
import { normalizeDomain } from "../../src/domain/sites/domain-name.ts";

describe("normalizeDomain", () => {
  it.each([
    ["Weather.Example", "weather.example"],
    ["weather.example.", "weather.example"],
    ["  api.weather.example ", "api.weather.example"],
    ["bücher.example", "xn--bcher-kva.example"],
  ])("%s → %s", (input, expected) => expect(normalizeDomain(input)).toBe(expected));

  it.each([
    "",
    "localhost",
    "https://weather.example",
    "weather.example/path",
    "a b.example",
    "1.2.3.4",
    "-bad.example",
    "user@weather.example",
    "weather..example",
  ])("refuses %j", (input) => expect(normalizeDomain(input)).toBeNull());
});

describe("text query", () => {
  it("keeps letters and digits only, lower-cased, without repeats, at most 8 words", () => {
    expect(queryWords("Weather & FORECAST: weather!")).toEqual(["weather", "forecast"]);
    expect(queryWords("a b c d e f g h i j")).toHaveLength(8);
    expect(queryWords("'); drop table sites; --")).toEqual(["drop", "table", "sites"]);
  });

  it("ANDs the words and makes words of 3+ letters prefixes", () => {
    expect(tsQueryText("weath ai forecasts")).toBe("weath:* & ai & forecasts:*");
    expect(tsQueryText("!!!")).toBeNull();
  });
});

describe("filters", () => {
  it("names facets as quoted lexemes; none without facet filters", () => {
    expect(facetQueryText({})).toBeNull();
    expect(facetQueryText({ minScore: 50 })).toBeNull();
    expect(facetQueryText({ category: "data", tag: "mcp", hasApi: true, hasMcp: false })).toBe(
      "'category=data' & 'tag=mcp' & 'has_structured_api=1' & 'has_mcp_server=0'",
    );
  });

  it("keys a filter set canonically, whatever the order and unset members", () => {
    expect(filterKey({ hasMcp: true, category: "data" })).toBe(
      filterKey({ category: "data", hasOpenapi: undefined, hasMcp: true }),
    );
    expect(filterKey({ hasMcp: true })).not.toBe(filterKey({ hasMcp: false }));
  });
});

describe("receipts", () => {
  it("makes 22-character base64url search ids, never the same twice", () => {
    const ids = new Set(Array.from({ length: 1000 }, newSearchId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(SEARCH_ID_PATTERN);
  });

  it("offers no domain in an unavailable sidecar", () => {
    const sidecar = buildActionInterestSidecar({
      origin: "https://svc.example",
      available: false,
      searchId: "",
      domains: ["a.example"],
    });
    expect(sidecar.eligible_domains).toEqual([]);
    expect(sidecar.call_contract.domain_must_be_one_of).toEqual([]);
    expect(sidecar.call_contract.available).toBe(false);
    expect(sidecar.endpoint).toBe("https://svc.example/api/v1/action-interests");
  });
});
