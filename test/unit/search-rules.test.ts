import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { planSearch } from "../../src/domain/search/search-plan.ts";
import { relevanceTierSql, TIER_KEYS, weightedStemQueryText } from "../../src/domain/search/search-sites.ts";
import { parseStatistics, UNKNOWN_STATISTICS } from "../../src/domain/search/search-statistics.ts";
import {
  allowedSignalBits,
  EMPTY_SIGNATURE,
  MAX_WORD_TERMS,
  type Signature,
  type StemTerms,
  stemQueryText,
  WIDE_RANGE_LIMIT,
} from "../../src/domain/search/search-terms.ts";
import { filterKey } from "../../src/domain/search/site-filters.ts";
import { canonicalSpellings, SPELLINGS, spellingsIn } from "../../src/domain/search/spellings.ts";
import { MAX_WORDS, queryWords, REQUEST_WORDS, tsQueryText } from "../../src/domain/search/text-query.ts";
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

  it("leaves out the words of a request that carry no need, unless nothing else is left", () => {
    // Postgres drops its own stop words ("i", "an", "that") when stemming; these are the rest.
    expect(
      queryWords("please I need an API that could help me convert money between currencies when it ships"),
    ).toEqual(["i", "an", "api", "that", "convert", "money", "between", "currencies", "when", "it", "ships"]);
    expect(queryWords("tools")).toEqual(["tools"]);
    expect(REQUEST_WORDS.has("please")).toBe(true);
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
const stem = (stem: string, terms: string[], bit = 0): StemTerms => ({
  position: 1,
  stem,
  prefix: stem.length >= 3,
  terms,
  range: { low: `w:${stem}`, high: `w:${stem}\u{10FFFF}` },
  signature: signature(bit),
  beginning: null,
  correction: null,
});
/** Statistics from fixed list lengths (a term not named is long) and one length for any range. */
const lengths = (known: Record<string, number>, range = 1_000_000) => ({
  listLength: (term: string) => known[term] ?? 1_000_000,
  rangeLength: () => range,
});

describe("search plan", () => {
  it("reads the shortest list and checks the rest", () => {
    const plan = planSearch({
      stems: [stem("team", ["w:team", "w:teams"], 1), stem("clinic", ["w:clinic"], 2)],
      filters: { category: "health", hasMcp: true, tag: "booking" },
      tagSignature: signature(3),
      statistics: lengths({
        "w:team": 270_000,
        "w:teams": 5_000,
        "w:clinic": 23_000,
        "c:health:4": 5_000,
        "t:booking": 30_000,
      }),
    });
    expect(plan?.driver).toEqual({ kind: "word", terms: ["w:clinic"] });
    expect(plan?.exactStems.map((s) => s.stem)).toEqual(["team"]);
    expect(plan?.exactTag).toBe("booking");
    expect(plan?.category).toBe("health");
    expect(plan?.signals).toEqual({ mask: 4, bits: 4 });
    expect(plan?.signature).toEqual([(1n << 1n) | (1n << 3n), 0n, 0n, 0n]);
    expect(plan?.audit).toBe(false);
  });

  it("lets a filter drive when its list is shorter, and then does not check it again", () => {
    const plan = planSearch({
      stems: [stem("team", ["w:team"], 1)],
      filters: { tag: "telehealth", category: "news", hasMcp: false },
      tagSignature: signature(3),
      statistics: lengths({ "w:team": 270_000, "t:telehealth": 9_000, "c:news:0": 40_000 }),
    });
    expect(plan?.driver).toEqual({ kind: "tag", terms: ["t:telehealth"] });
    expect(plan?.exactTag).toBeUndefined();
    expect(plan?.exactStems.map((s) => s.stem)).toEqual(["team"]);
    expect(plan?.signature).toEqual(signature(1));
    expect(plan?.category).toBe("news");
  });

  it("reads the signal lists for filters alone, every one of them without flags", () => {
    const all = planSearch({ stems: [], filters: {}, statistics: UNKNOWN_STATISTICS });
    expect(all?.driver.kind).toBe("signals");
    expect(all?.driver.terms).toHaveLength(16);
    expect(all?.signature).toEqual(EMPTY_SIGNATURE);
    const flagged = planSearch({
      stems: [],
      filters: { hasOpenapi: true, hasLlmsTxt: false },
      statistics: lengths({}),
    });
    expect(flagged?.driver.terms).toEqual(["p:2", "p:6", "p:10", "p:14"]);
    expect(flagged?.signals).toBeUndefined();
  });

  it("reads a category's lists of the patterns its flags allow, and checks neither again", () => {
    const plan = planSearch({
      stems: [stem("team", ["w:team"], 1)],
      filters: { category: "data", hasMcp: true, hasLlmsTxt: false },
      statistics: lengths({ "w:team": 270_000, "c:data:4": 900, "c:data:6": 300, "c:data:12": 200, "c:data:14": 100 }),
    });
    expect(plan?.driver).toEqual({ kind: "category", terms: ["c:data:4", "c:data:6", "c:data:12", "c:data:14"] });
    expect(plan?.signals).toBeUndefined();
    expect(plan?.category).toBeUndefined();
    expect(plan?.exactStems.map((s) => s.stem)).toEqual(["team"]);
    const alone = planSearch({ stems: [], filters: { category: "news" }, statistics: UNKNOWN_STATISTICS });
    expect(alone?.driver.terms).toEqual(Array.from({ length: 16 }, (_, bits) => `c:news:${bits}`));
  });

  it("reads a wide word with few postings as one range, and checks a common one on each site", () => {
    const wide = stem(
      "pro",
      Array.from({ length: MAX_WORD_TERMS + 1 }, (_, i) => `w:pro${i}`),
      5,
    );
    const few = lengths({ "c:data:0": 80_000 }, 900);
    const ranged = planSearch({ stems: [wide], filters: { category: "data" }, statistics: few });
    expect(ranged?.driver).toEqual({ kind: "word", terms: [], range: wide.range });
    expect(ranged?.exactStems).toEqual([]);
    const many = lengths({}, WIDE_RANGE_LIMIT + 1);
    const checked = planSearch({ stems: [wide], filters: {}, statistics: many });
    expect(checked?.driver.kind).toBe("signals");
    expect(checked?.exactStems).toEqual([wide]);
    expect(checked?.signature).toEqual(signature(5));
    // Unknown statistics: the range is read, since nothing says it is long.
    const unknown = planSearch({ stems: [wide], filters: {}, statistics: UNKNOWN_STATISTICS });
    expect(unknown?.driver.range).toEqual(wide.range);
  });

  it("reads the list of a registered wide beginning with the same sites, which ensures its word", () => {
    // The first step found that every lexeme beginning with "acm" begins with "acme".
    const wide = {
      ...stem(
        "acm",
        Array.from({ length: MAX_WORD_TERMS + 1 }, (_, i) => `w:acme${i}`),
        5,
      ),
      beginning: "acme",
    };
    const plan = planSearch({
      stems: [wide, stem("cloud", ["w:cloud"], 2)],
      filters: { category: "data", hasMcp: true },
      statistics: lengths({ "b:acme": 50_000, "w:cloud": 90_000 }, WIDE_RANGE_LIMIT + 1),
    });
    expect(plan?.driver).toEqual({ kind: "word", terms: ["b:acme"] });
    expect(plan?.exactStems.map((s) => s.stem)).toEqual(["cloud"]);
    expect(plan?.signature).toEqual(signature(2));
    expect(plan?.category).toBe("data");
    expect(plan?.signals).toEqual({ mask: 4, bits: 4 });
    // A shorter list still drives, and the beginning is then checked like any word.
    const rare = planSearch({
      stems: [wide],
      filters: { tag: "ledger" },
      tagSignature: signature(3),
      statistics: lengths({ "b:acme": 50_000, "t:ledger": 400 }),
    });
    expect(rare?.driver).toEqual({ kind: "tag", terms: ["t:ledger"] });
    expect(rare?.exactStems).toEqual([wide]);
    // Nothing known: the one list is preferred to the range.
    const unknown = planSearch({ stems: [wide], filters: {}, statistics: UNKNOWN_STATISTICS });
    expect(unknown?.driver).toEqual({ kind: "word", terms: ["b:acme"] });
  });

  it("prefers words when nothing is known of the lists", () => {
    const plan = planSearch({
      stems: [stem("weather", ["w:weather"])],
      filters: { category: "data" },
      statistics: UNKNOWN_STATISTICS,
    });
    expect(plan?.driver.kind).toBe("word");
  });

  it("finds nothing when a word is in no list, and reads audit lists for an audit category", () => {
    expect(planSearch({ stems: [stem("zzzz", [])], filters: {}, statistics: UNKNOWN_STATISTICS })).toBeNull();
    expect(planSearch({ stems: [], filters: { category: "spam" }, statistics: UNKNOWN_STATISTICS })?.audit).toBe(true);
  });

  it("writes a tsquery of stems as they are, prefixes marked", () => {
    expect(stemQueryText([stem("team", []), stem("ai", [])])).toBe("'team':* & 'ai'");
    expect(stemQueryText([stem("o'neil", [])])).toBe("'o''neil':*");
  });
});

describe("relevance tiers", () => {
  const render = (query: SQL) => new PgDialect().sqlToQuery(query);

  it("restricts each stem of a word to the key's fields, prefixes marked", () => {
    expect(weightedStemQueryText([stem("sms", [])], "AB")).toBe("'sms':*AB");
    expect(weightedStemQueryText([stem("ai", [])], "A")).toBe("'ai':A");
    expect(weightedStemQueryText([stem("o'neil", []), stem("team", [])], "ABC")).toBe("'o''neil':*ABC & 'team':*ABC");
  });

  it("counts, per key, the words whose stems the fields lack, keys weighted so they compare in order", () => {
    const words = [stem("weather", []), { ...stem("forecast", []), position: 2 }];
    const { sql: text, params } = render(relevanceTierSql(words, sql.raw("s.tier_vector")));
    // Two words under each of the three keys: six checks, as 81 × name/tags/domain + 9 × name + 1 × opening.
    expect(text.match(/case when s\.tier_vector @@/g)).toHaveLength(6);
    expect(text).toMatch(/\* 81 \+ .*\* 9 \+ .*\* 1\)$/s);
    expect(params).toEqual([
      "'weather':*AB",
      "'forecast':*AB",
      "'weather':*A",
      "'forecast':*A",
      "'weather':*ABC",
      "'forecast':*ABC",
    ]);
    expect(TIER_KEYS.map((key) => key.fields)).toEqual(["AB", "A", "ABC"]);
  });

  it("checks every stem of one word together, and has no tier without words", () => {
    const oneWord = [stem("wi", []), stem("fi", [])];
    const { params } = render(relevanceTierSql(oneWord, sql.raw("v")));
    expect(params).toEqual(["'wi':AB & 'fi':AB", "'wi':A & 'fi':A", "'wi':ABC & 'fi':ABC"]);
    expect(render(relevanceTierSql([], sql.raw("v"))).sql).toBe("0");
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
