import { describe, expect, it } from "vitest";
import { DEPTH_BUDGET, MIN_DEPTH, rankedDepth, rankedLists } from "../../src/domain/search/ranked-search.ts";
import { planSearch } from "../../src/domain/search/search-plan.ts";
import { SEARCH_RESULT_WINDOW } from "../../src/domain/search/search-sites.ts";
import { parseStatistics, UNKNOWN_STATISTICS } from "../../src/domain/search/search-statistics.ts";
import {
  allowedSignalBits,
  EMPTY_SIGNATURE,
  type Signature,
  type StemTerms,
  WIDE_RANGE_LIMIT,
} from "../../src/domain/search/search-terms.ts";
import { filterKey } from "../../src/domain/search/site-filters.ts";
import { canonicalSpellings, SPELLINGS, spellingsIn } from "../../src/domain/search/spellings.ts";
import {
  isPrefixWord,
  isRequestWord,
  MAX_WORDS,
  queryWords,
  REQUEST_WORDS,
  tsQueryText,
} from "../../src/domain/search/text-query.ts";
import {
  chooseWideBeginnings,
  MAX_SITE_SHARE,
  POSTINGS_BUDGET_SHARE,
} from "../../src/domain/search/wide-beginnings.ts";
import { buildActionInterestSidecar } from "../../src/domain/search-receipts/action-interest-sidecar.ts";
import { newSearchId, SEARCH_ID_PATTERN } from "../../src/domain/search-receipts/search-id.ts";
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
  it("keeps letters and digits only, lower-cased, without repeats, at most 16 meaningful words", () => {
    expect(queryWords("Weather & FORECAST: weather!")).toEqual(["weather", "forecast"]);
    expect(queryWords("a b c d e f g h i j k l m n o p q r")).toHaveLength(MAX_WORDS);
    expect(MAX_WORDS).toBeGreaterThanOrEqual(12);
    expect(queryWords("'); drop table sites; --")).toEqual(["drop", "table", "sites"]);
  });

  it("composes Unicode text first, so a letter typed with a combining mark stays one word", () => {
    expect(queryWords("Mu\u0308nchen Wetter")).toEqual(["münchen", "wetter"]);
    expect(queryWords("пример.Испытание")).toEqual(["пример", "испытание"]);
  });

  it("writes the variant spellings of a query as their canonical words", () => {
    expect(queryWords("E-Mail validation")).toEqual(["email", "validation"]);
    expect(queryWords("e mail")).toEqual(["email"]);
    expect(queryWords("send text messages")).toEqual(["send", "sms"]);
    expect(queryWords("Text-Messaging API")).toEqual(["sms", "api"]);
    expect(queryWords("sign-up form, log in")).toEqual(["signup", "form", "login"]);
    expect(queryWords("real-time chat bots for e-commerce")).toEqual(["realtime", "chatbots", "for", "ecommerce"]);
    // Only whole variants: a word that merely contains one, or continues one, is left alone.
    expect(queryWords("the mail room")).toEqual(["the", "mail", "room"]);
    expect(queryWords("context message")).toEqual(["context", "message"]);
    expect(queryWords("sign upgrade, log into")).toEqual(["sign", "upgrade", "log", "into"]);
    expect(queryWords("real timeline")).toEqual(["real", "timeline"]);
  });

  it("finds the canonical word of every listed example, and lists each spelling once", () => {
    for (const spelling of SPELLINGS) {
      for (const example of spelling.examples) {
        expect(spellingsIn(`a ${example} b`), example).toEqual([spelling.canonical]);
        expect(canonicalSpellings(example).toLowerCase().startsWith(spelling.canonical), example).toBe(true);
      }
    }
    expect(new Set(SPELLINGS.map((spelling) => spelling.canonical)).size).toBe(SPELLINGS.length);
    expect(spellingsIn("geocoding and geocode")).toEqual([]);
  });

  it("ANDs the words for the exact-domain check and makes the last word of 3+ letters a prefix", () => {
    expect(tsQueryText("weath ai forecasts")).toBe("weath & ai & forecasts:*");
    expect(tsQueryText("forecasts ai")).toBe("forecasts & ai");
    expect(tsQueryText("!!!")).toBeNull();
  });

  it("marks the words of a request that carry no need, and drops them first from a long one", () => {
    // Postgres drops its own stop words ("i", "an", "that") when stemming; these are the rest.
    const words = queryWords("please I need an API that could help me convert money between currencies");
    expect(words.filter((_, index) => isRequestWord(words, index))).toEqual(["please", "need", "could", "help", "me"]);
    // Request words alone are the query's words.
    expect(isRequestWord(["tools"], 0)).toBe(false);
    const long = queryWords(
      "please I need an API that could help me convert money between currencies when it ships fast",
    );
    expect(long).toEqual([
      "i",
      "an",
      "api",
      "that",
      "convert",
      "money",
      "between",
      "currencies",
      "when",
      "it",
      "ships",
      "fast",
    ]);
    expect(long.some((word) => REQUEST_WORDS.has(word))).toBe(false);
  });

  it("takes the last word as a prefix only in a query of at most four words", () => {
    expect(isPrefixWord(["weather", "forec"], 1)).toBe(true);
    expect(isPrefixWord(["weather", "forec"], 0)).toBe(false);
    expect(isPrefixWord(["a", "b", "c", "d", "forec"], 4)).toBe(false);
    expect(isPrefixWord(["ab"], 0)).toBe(false);
  });
});

describe("filters", () => {
  it("allows the signal-bit values the flags leave open", () => {
    expect(allowedSignalBits({}).values).toHaveLength(16);
    expect(allowedSignalBits({ hasMcp: true, hasOpenapi: false })).toEqual({
      values: [4, 5, 12, 13],
      mask: 6,
      bits: 4,
    });
    expect(allowedSignalBits({ hasApi: true, hasMcp: true, hasOpenapi: true, hasLlmsTxt: true }).values).toEqual([15]);
  });

  it("keys a filter set canonically, whatever the order and unset members", () => {
    expect(filterKey({ hasMcp: true, category: "data" })).toBe(
      filterKey({ category: "data", hasOpenapi: undefined, hasMcp: true }),
    );
    expect(filterKey({ hasMcp: true })).not.toBe(filterKey({ hasMcp: false }));
  });
});

const signature = (bit: number): Signature => [1n << BigInt(bit), 0n, 0n, 0n];
const stem = (stem: string, terms: string[], position = 1): StemTerms => ({
  position,
  stem,
  prefix: stem.length >= 3,
  terms,
  beginning: null,
  correction: null,
});
/** Statistics from fixed list lengths (a term not named is long). */
const lengths = (known: Record<string, number>) => ({
  listLength: (term: string) => known[term] ?? 1_000_000,
  rangeLength: () => 1_000_000,
});

describe("search plan (filters alone)", () => {
  it("lets the shortest filter drive and checks the others on each entry", () => {
    const plan = planSearch({
      filters: { tag: "telehealth", category: "news", hasMcp: false },
      tagSignature: signature(3),
      statistics: lengths({ "t:telehealth": 9_000, "c:news:0": 40_000 }),
    });
    expect(plan.driver).toEqual({ kind: "tag", terms: ["t:telehealth"] });
    expect(plan.exactTag).toBeUndefined();
    expect(plan.signature).toEqual(EMPTY_SIGNATURE);
    expect(plan.category).toBe("news");
    expect(plan.signals).toEqual({ mask: 4, bits: 0 });
  });

  it("checks the tag by its signature when another list drives", () => {
    const plan = planSearch({
      filters: { tag: "booking", category: "health", hasApi: true, hasMcp: true, hasOpenapi: true, hasLlmsTxt: true },
      tagSignature: signature(3),
      statistics: lengths({ "c:health:15": 5_000, "t:booking": 30_000 }),
    });
    expect(plan.driver.kind).toBe("category");
    expect(plan.exactTag).toBe("booking");
    expect(plan.signature).toEqual(signature(3));
    expect(plan.signals).toBeUndefined();
    expect(plan.category).toBeUndefined();
  });

  it("reads the signal lists, every one of them without flags", () => {
    const all = planSearch({ filters: {}, statistics: UNKNOWN_STATISTICS });
    expect(all.driver.kind).toBe("signals");
    expect(all.driver.terms).toHaveLength(16);
    expect(all.signature).toEqual(EMPTY_SIGNATURE);
    const flagged = planSearch({ filters: { hasOpenapi: true, hasLlmsTxt: false }, statistics: lengths({}) });
    expect(flagged.driver.terms).toEqual(["p:2", "p:6", "p:10", "p:14"]);
    expect(flagged.signals).toBeUndefined();
  });

  it("reads a category's lists of the patterns its flags allow, and the audit lists for an audit category", () => {
    const plan = planSearch({
      filters: { category: "data", hasMcp: true, hasLlmsTxt: false },
      statistics: lengths({ "c:data:4": 900, "c:data:6": 300, "c:data:12": 200, "c:data:14": 100 }),
    });
    expect(plan.driver).toEqual({ kind: "category", terms: ["c:data:4", "c:data:6", "c:data:12", "c:data:14"] });
    const alone = planSearch({ filters: { category: "news" }, statistics: UNKNOWN_STATISTICS });
    expect(alone.driver.terms).toEqual(Array.from({ length: 16 }, (_, bits) => `c:news:${bits}`));
    expect(planSearch({ filters: { category: "spam" }, statistics: UNKNOWN_STATISTICS }).audit).toBe(true);
  });
});

describe("ranked lists", () => {
  it("reads each word's lexemes, the word's own lexeme in full and its other lexemes as a prefix's", () => {
    const lists = rankedLists(
      ["weather", "forec"],
      [stem("weather", ["w:weather"], 1), stem("forec", ["w:forecast", "w:forecastl"], 2)],
      lengths({ "w:weather": 4_000 }),
    );
    expect(lists).toEqual([
      { term: "w:weather", word: 1, own: true, request: false, estimate: 4_000 },
      { term: "w:forecast", word: 2, own: false, request: false, estimate: 1_000_000 },
      { term: "w:forecastl", word: 2, own: false, request: false, estimate: 1_000_000 },
    ]);
  });

  it("marks request words, reads a correction for a word in no list, and a registered beginning's one list", () => {
    const corrected = { ...stem("weathr", [], 2), correction: "weather" };
    const wide = { ...stem("terr", ["w:terra1", "w:terra2"], 3), beginning: "terra" };
    const lists = rankedLists(
      ["need", "weathr", "terr"],
      [stem("need", ["w:need"], 1), corrected, wide],
      UNKNOWN_STATISTICS,
    );
    expect(lists.map((list) => [list.term, list.own, list.request])).toEqual([
      ["w:need", true, true],
      ["w:weather", true, false],
      ["b:terra", true, false],
      ["w:terr", true, false],
    ]);
    // Request words alone are the query's words.
    expect(rankedLists(["tools"], [stem("tool", ["w:tool"], 1)], UNKNOWN_STATISTICS)[0]?.request).toBe(false);
  });

  it("shares the depth budget between the lists, within the floor and the window", () => {
    expect(rankedDepth(1, SEARCH_RESULT_WINDOW + 1)).toBe(SEARCH_RESULT_WINDOW + 1);
    expect(rankedDepth(4, SEARCH_RESULT_WINDOW + 1)).toBe(DEPTH_BUDGET / 4);
    expect(rankedDepth(12, SEARCH_RESULT_WINDOW + 1)).toBe(Math.floor(DEPTH_BUDGET / 12));
    expect(rankedDepth(200, SEARCH_RESULT_WINDOW + 1)).toBe(MIN_DEPTH);
  });
});

describe("wide beginnings", () => {
  const shape = (beginning: string, lexemes: number, postings: number, sites = postings) => ({
    beginning,
    lexemes,
    postings,
    sites,
  });
  const size = { sites: 1_000_000, postings: 14_000_000 };

  it("chooses wide beginnings no more than a tenth of the sites have, rarest first", () => {
    const shapes = [
      shape("terra", 140, 88_000),
      shape("acme", 141, 50_000),
      shape("pro", 900, 300_000), // common: found quickly on any list
      shape("bri", 32, 40_000), // merged: not wide
      shape("nova", 90, WIDE_RANGE_LIMIT), // read as a range
      shape("lum", 150, 100_000),
      shape("lumen", 140, 100_001),
    ];
    expect(chooseWideBeginnings(shapes, size)).toEqual(["acme", "terra", "lum"]);
    expect(MAX_SITE_SHARE * size.sites).toBe(100_000);
  });

  it("reads the share off the sites, each once, not off postings that count a site per lexeme", () => {
    // Domain labels are indexed spelt and stemmed: `terraflows` and `terraflow`, two postings a site.
    const shapes = [shape("terra", 140, 176_000, 88_000), shape("acme", 141, 230_000, 100_001)];
    expect(chooseWideBeginnings(shapes, size)).toEqual(["terra"]);
    // The budget counts each site once too: the list holds 88,000 entries.
    expect(chooseWideBeginnings([shapes[0] as (typeof shapes)[0]], { sites: 1_000_000, postings: 600_000 })).toEqual([
      "terra",
    ]);
    expect(chooseWideBeginnings([shapes[0] as (typeof shapes)[0]], { sites: 1_000_000, postings: 580_000 })).toEqual(
      [],
    );
  });

  it("registers one of nested beginnings with the same lexemes, the longest", () => {
    const shapes = [
      shape("ter", 140, 88_000),
      shape("terr", 140, 88_000),
      shape("terra", 140, 88_000),
      shape("acm", 143, 87_900),
      shape("acme", 142, 43_900),
    ];
    expect(chooseWideBeginnings(shapes, size)).toEqual(["acme", "acm", "terra"]);
  });

  it("stops at the postings budget, keeping the rarest", () => {
    const shapes = [shape("aaa", 40, 60_000), shape("bbb", 40, 30_000), shape("ccc", 40, 50_000)];
    const small = { sites: 1_000_000, postings: 900_000 };
    expect(POSTINGS_BUDGET_SHARE * small.postings).toBe(135_000);
    expect(chooseWideBeginnings(shapes, small)).toEqual(["bbb", "ccc"]);
    expect(chooseWideBeginnings(shapes, { sites: 1_000_000, postings: 100_000 })).toEqual([]);
  });
});

describe("search statistics", () => {
  it("estimates common terms by their frequency and the others by an even share of the rest", () => {
    const statistics = parseStatistics({ rows: 1000, terms: ["w:team", "c:data"], freqs: [0.2, 0.1], n_distinct: 72 });
    expect(statistics.listLength("w:team")).toBe(200);
    expect(statistics.listLength("c:data")).toBe(100);
    expect(statistics.listLength("w:rare")).toBe(10);
  });

  it("estimates a range from the common terms in it and the histogram buckets it spans", () => {
    const statistics = parseStatistics({
      rows: 1000,
      terms: ["w:team", "w:teams"],
      freqs: [0.2, 0.1],
      n_distinct: 100,
      // Four buckets of the other 70%: each 175 rows.
      bounds: ["w:a", "w:tea", "w:teb", "w:tec", "w:z"],
    });
    expect(statistics.rangeLength("w:tea", "w:tea\u{10FFFF}")).toBe(300 + 175);
    expect(statistics.rangeLength("w:x", "w:y")).toBe(0);
    // Byte order, not UTF-16 order: U+10FFFF sorts after U+FFFF.
    expect(statistics.rangeLength("w:tea", "w:tea\uFFFF")).toBe(300 + 175);
  });

  it("knows nothing of a table never analysed", () => {
    expect(
      parseStatistics({ rows: -1, terms: null, freqs: null, n_distinct: null }).listLength("w:team"),
    ).toBeUndefined();
    expect(parseStatistics(undefined).listLength("w:team")).toBeUndefined();
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
