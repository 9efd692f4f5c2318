/** The nearest words of the index's vocabulary (src/domain/search/suggestions.ts), and why nothing matched. */
import { describe, expect, it } from "vitest";
import { editDistance, explainNoMatch, rankNearest, type Vocabulary } from "../../src/domain/search/suggestions.ts";

const VOCABULARY = ["weather", "weight", "web", "websit", "geoloc", "geometri", "payment", "pay"];

/** A vocabulary over a word list, as the postings vocabulary answers (known: a word or a beginning). */
const listVocabulary: Vocabulary = {
  wordsNear: async (word) => VOCABULARY.filter((each) => each.startsWith(word.slice(0, 2))),
  known: async (words) => new Set(words.filter((word) => VOCABULARY.some((each) => each.startsWith(word)))),
};

describe("nearest words", () => {
  it("count a swap as one edit", () => {
    expect(editDistance("weathr", "weather")).toBe(1);
    expect(editDistance("paymnet", "payment")).toBe(1);
    expect(editDistance("abc", "abc")).toBe(0);
  });

  it("are the vocabulary's words within the allowed edits, nearest first, stems included", () => {
    expect(rankNearest("weathr", VOCABULARY)).toEqual(["weather"]);
    expect(rankNearest("geolocaton", VOCABULARY)).toEqual(["geoloc"]);
    expect(rankNearest("zzzzqqq", VOCABULARY)).toEqual([]);
  });

  it("say which words no site has and offer the query with the nearest word in its place", async () => {
    const answer = await explainNoMatch(listVocabulary, { q: "weathr forecast", filters: {} });
    expect(answer.no_match).toMatchObject({ reason: "unknown_words", unknown_words: ["weathr", "forecast"] });
    expect(answer.suggestions).toEqual([{ word: "weather", replaces: "weathr", query: "weather forecast" }]);
  });

  it("blame the filters when every word is indexed", async () => {
    const answer = await explainNoMatch(listVocabulary, { q: "payment", filters: { hasMcp: true } });
    expect(answer.no_match.reason).toBe("filters");
    expect(answer.no_match.detail).toContain("filters");
    expect(answer.suggestions).toEqual([]);
  });
});
