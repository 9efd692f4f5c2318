/** The demand topic classifier: the spec's 26 topics, its documented rules, and determinism. */
import { describe, expect, it } from "vitest";
import { CATEGORY_TOPICS, classifyDemandTopic, DEMAND_TOPICS, TOPIC_KEYWORDS } from "../../src/domain/demand/topics.ts";
import { CATEGORIES } from "../../src/domain/sites/site-fields.ts";

// The interface's Topic record, written out here.
const SPEC_TOPICS = [
  "payments",
  "commerce",
  "jobs",
  "data",
  "search",
  "weather",
  "maps",
  "email",
  "messaging",
  "image",
  "video",
  "audio",
  "documents",
  "security",
  "finance",
  "health",
  "education",
  "news",
  "analytics",
  "automation",
  "productivity",
  "identity",
  "storage",
  "ai-tools",
  "developer-tools",
  "other",
];

describe("demand topics", () => {
  it("are exactly the spec's 26, in its order", () => {
    expect([...DEMAND_TOPICS]).toEqual(SPEC_TOPICS);
  });

  it("give every keyword to one topic only, lower-case, one word", () => {
    const seen = new Map<string, string>();
    for (const [topic, keywords] of Object.entries(TOPIC_KEYWORDS)) {
      for (const keyword of keywords) {
        expect(seen.get(keyword), `${keyword} in ${topic} and ${seen.get(keyword)}`).toBeUndefined();
        expect(keyword).toMatch(/^[a-z0-9]+$/);
        seen.set(keyword, topic);
      }
    }
  });

  it("map every category to a topic", () => {
    expect(Object.keys(CATEGORY_TOPICS).sort()).toEqual([...CATEGORIES].sort());
    for (const topic of Object.values(CATEGORY_TOPICS)) expect(SPEC_TOPICS).toContain(topic);
  });
});

describe("classifyDemandTopic", () => {
  it.each([
    ["stripe payment api for invoices", "payments"],
    ["Payments", "payments"],
    ["weather forecast", "weather"],
    ["send SMS messages", "messaging"],
    ["taxes", "finance"],
    ["PDF contract e-signature", "documents"],
    ["job board hiring", "jobs"],
    ["mcp server for github", "developer-tools"],
    ["zq1234567890", "other"],
    ["", "other"],
  ])("classifies %j as %s", (q, topic) => {
    expect(classifyDemandTopic({ q })).toBe(topic);
  });

  it("counts matching words, and breaks a tie by the spec's order", () => {
    // one payments word, two maps words
    expect(classifyDemandTopic({ q: "pay for maps geocoding" })).toBe("maps");
    // one word each: payments comes before maps
    expect(classifyDemandTopic({ q: "maps payment" })).toBe("payments");
  });

  it("falls back to the tag, then the category, then other", () => {
    expect(classifyDemandTopic({ q: "zq1", tag: "search" })).toBe("search");
    expect(classifyDemandTopic({ q: "zq1", category: "ecommerce" })).toBe("commerce");
    expect(classifyDemandTopic({ tag: "zq1", category: "communication" })).toBe("messaging");
    expect(classifyDemandTopic({ q: "weather", category: "ecommerce" })).toBe("weather");
    expect(classifyDemandTopic({})).toBe("other");
  });

  it("answers the same for the same search, every time", () => {
    const inputs = ["ai agent tools", "secure login sso", "music podcast audio", "cloud backup storage"];
    const first = inputs.map((q) => classifyDemandTopic({ q }));
    for (let round = 0; round < 3; round++) expect(inputs.map((q) => classifyDemandTopic({ q }))).toEqual(first);
  });
});
