/**
 * GET /api/v1/search: text matching, filters, paging, order, audit-only buckets, validation and
 * the exact response shape. Every test inserts its own sites named with a unique token and
 * scopes each search with that token, since other files write to the same database meanwhile.
 */
import { describe, expect, it } from "vitest";
import {
  domainsOf,
  expectedSidecar,
  expectOrganicOrder,
  SEARCH_ID_FORMAT,
  searchOk,
  sortOrganic,
} from "../support/search.ts";
import { expectedSiteRecord, insertSites, sqlRows, uniqueToken } from "../support/sites.ts";
import { asClient, expectInvalid } from "../support/worker.ts";

describe("GET /api/v1/search: q", () => {
  it("matches words in the name, the description and the domain, any word of the query", async () => {
    const t = uniqueToken();
    const get = asClient();
    await insertSites([
      { domain: `a-${t}.test`, name: `${t} Kestrel Forecasts`, description: "Plain words only.", tags: [t] },
      { domain: `b-${t}.test`, name: `${t} Tide Tables`, description: "Harbour schedules for sailors.", tags: [t] },
      { domain: `kumquat-${t}.test`, name: `${t} Fruit`, description: "Nothing else here.", tags: [t] },
    ]);

    expect(domainsOf(await searchOk(get, { q: `${t} kestrel` }))[0]).toBe(`a-${t}.test`);
    expect(domainsOf(await searchOk(get, { q: `harbour ${t}` }))[0]).toBe(`b-${t}.test`);
    expect(domainsOf(await searchOk(get, { q: `${t} kumquat` }))[0]).toBe(`kumquat-${t}.test`);
    expect(domainsOf(await searchOk(get, { q: t })).sort()).toEqual(
      [`a-${t}.test`, `b-${t}.test`, `kumquat-${t}.test`].sort(),
    );
    // Any word may match; a site that matches more of them ranks first (issue 42).
    expect(domainsOf(await searchOk(get, { q: "kestrel", tag: t }))).toEqual([`a-${t}.test`]);
    const some = domainsOf(await searchOk(get, { q: `${t} kestrel harbour` }));
    expect(some.slice(0, 2).sort()).toEqual([`a-${t}.test`, `b-${t}.test`]);
    expect(some[2]).toBe(`kumquat-${t}.test`);
  });

  it("stems English words, matches any case, and takes the last word of 3+ letters as a prefix", async () => {
    const t = uniqueToken();
    const get = asClient();
    await insertSites([
      { domain: `a-${t}.test`, name: `${t} Kestrel Forecasts`, tags: [t] },
      { domain: `b-${t}.test`, name: `${t} Abacus Counting`, tags: [t] },
    ]);

    expect(domainsOf(await searchOk(get, { q: "forecasting", tag: t }))).toEqual([`a-${t}.test`]);
    expect(domainsOf(await searchOk(get, { q: "FORECAST", tag: t }))).toEqual([`a-${t}.test`]);
    expect(domainsOf(await searchOk(get, { q: "kest", tag: t }))).toEqual([`a-${t}.test`]);
    expect(domainsOf(await searchOk(get, { q: `${t} aba` }))[0]).toBe(`b-${t}.test`);
    // Two letters are a whole word, not a prefix; an earlier word is a whole word too.
    expect((await searchOk(get, { q: "ab", tag: t })).total).toBe(0);
    expect((await searchOk(get, { q: "aba counting", tag: t })).results.map((site) => site.domain)).toEqual([
      `b-${t}.test`,
    ]);
    // The token itself is found by its first letters too.
    expect((await searchOk(get, { q: t.slice(0, 9) })).results.length).toBeGreaterThanOrEqual(2);
  });

  it("treats query syntax as plain words, and a q without words as matching nothing", async () => {
    const t = uniqueToken();
    const get = asClient();
    await insertSites([{ domain: `a-${t}.test`, name: `${t} Quokka` }]);

    const withSyntax = await searchOk(get, { q: `${t} & | ! ( ) :* <-> quokka'` });
    expect(domainsOf(withSyntax)).toEqual([`a-${t}.test`]);

    const noWords = await searchOk(get, { q: "&& !! :* ()" });
    expect(noWords).toMatchObject({
      results: [],
      total: 0,
      total_exact: true,
      has_next: false,
      receipt_recorded: true,
    });
    expect(noWords.action_interest).toMatchObject({ available: false, eligible_domains: [] });
  });

  it("puts the site an exact-domain q names first, then by relevance, and pages past it", async () => {
    const t = uniqueToken();
    const get = asClient();
    // Equal text, so that among them relevance is equal and organic order decides.
    const others = Array.from({ length: 24 }, (_, i) => ({
      domain: `s${String(i).padStart(2, "0")}-${t}.test`,
      name: `${t} Low Service`,
      description: "Low latency weather data.",
      agenticScore: 40 + (i % 6) * 10,
      tags: [t],
    }));
    const pinned = {
      domain: `low-${t}.test`,
      name: `${t} Pinned`,
      description: "Scores here.",
      agenticScore: 5,
      tags: [t],
    };
    await insertSites([...others, pinned]);
    const organic = (
      await sortOrganic(others.map((site) => ({ domain: site.domain, agentic_score: site.agenticScore })))
    ).map((site) => site.domain);

    // Without naming the domain, the site whose name and description both say "low" rank first.
    const plain = await searchOk(get, { q: "low", tag: t });
    expect(plain.total).toBe(25);
    expect(domainsOf(plain)).toEqual(organic.slice(0, 20));

    for (const q of [`low-${t}.test`, `LOW-${t}.TEST.`]) {
      const first = await searchOk(get, { q, tag: t });
      expect(first).toMatchObject({ total: 25, page: 1, has_next: true });
      expect(domainsOf(first)).toEqual([pinned.domain, ...organic.slice(0, 19)]);
      const second = await searchOk(get, { q, tag: t, page: 2 });
      expect(second).toMatchObject({ total: 25, page: 2, has_next: false });
      expect(domainsOf(second)).toEqual(organic.slice(19));
    }

    // Pinning never overrides a filter.
    const filtered = await searchOk(get, { q: `low-${t}.test`, tag: t, min_score: 40 });
    expect(domainsOf(filtered)).toEqual(organic.slice(0, 20));
    expect(filtered.total).toBe(24);
  });
});

describe("GET /api/v1/search: internationalised domains", () => {
  it("finds a site stored as punycode by its Unicode and its punycode spelling", async () => {
    const t = uniqueToken();
    const get = asClient();
    // The index keys the site by its ASCII form, "xn--mnchen-…-….test".
    const unicode = `münchen-${t}.test`;
    const ascii = new URL(`http://${unicode}`).hostname;
    expect(ascii).toMatch(/^xn--mnchen-/);
    const other = { domain: `wetter-${t}.test`, name: `${t} Wetter in München`, agenticScore: 90 };
    await insertSites([{ domain: ascii, name: `${t} Stadtportal`, agenticScore: 10 }, other]);

    expect(domainsOf(await searchOk(get, { q: `münchen ${t}` }))).toEqual([other.domain, ascii]);
    expect(domainsOf(await searchOk(get, { q: `MÜNCH ${t}` }))).toEqual([other.domain, ascii]);
    // Its ASCII label's words: the token (in both sites' names) and the label's own.
    expect(domainsOf(await searchOk(get, { q: ascii.split(".")[0] as string }))[0]).toBe(ascii);
    // Either spelling of the whole domain names it exactly: it heads the list despite its score.
    for (const q of [unicode, unicode.toUpperCase()]) {
      expect(domainsOf(await searchOk(get, { q })).slice(0, 2), q).toEqual([ascii, other.domain]);
    }
    expect(domainsOf(await searchOk(get, { q: ascii }))[0]).toBe(ascii);
  });
});

describe("GET /api/v1/search: filters", () => {
  it("applies category, tag, min_score and the four signal flags, alone and together", async () => {
    const t = uniqueToken();
    const get = asClient();
    const d = (name: string) => `${name}-${t}.test`;
    const listed = [
      {
        domain: d("all"),
        agenticScore: 100,
        category: "ai-tools",
        tags: ["mcp", "openapi", "payment"],
        hasLlmsTxt: true,
        hasAiPlugin: true,
        hasOpenapi: true,
        hasRobotsAi: true,
        hasStructuredApi: true,
        hasMcpServer: true,
        hasSchemaOrg: true,
      },
      {
        domain: d("api"),
        agenticScore: 15,
        category: "finance",
        tags: ["payment", "search"],
        hasStructuredApi: true,
      },
      { domain: d("mcp"), agenticScore: 20, category: "developer", tags: ["mcp"], hasMcpServer: true },
      { domain: d("oas"), agenticScore: 20, category: "developer", tags: ["openapi"], hasOpenapi: true },
      { domain: d("llms"), agenticScore: 15, category: "data", hasLlmsTxt: true },
      { domain: d("none"), agenticScore: 0, category: "news", tags: ["search"] },
    ];
    // Names of one shape, so that the token weighs the same in each and organic order decides.
    await insertSites(listed.map((site) => ({ ...site, name: `${t} ${site.domain.split("-")[0]}` })));
    const score = new Map(listed.map((site) => [site.domain, site.agenticScore]));
    /** The named sites in organic order (the tie-break is the domain's hash, not its spelling). */
    const organic = async (names: string[]) =>
      (await sortOrganic(names.map((name) => ({ domain: d(name), agentic_score: score.get(d(name)) ?? 0 })))).map(
        (site) => site.domain,
      );

    const cases: [Record<string, string | number | boolean>, string[]][] = [
      [{}, ["all", "mcp", "oas", "api", "llms", "none"]],
      [{ category: "developer" }, ["mcp", "oas"]],
      [{ category: "finance" }, ["api"]],
      [{ category: "jobs" }, []],
      [{ tag: "mcp" }, ["all", "mcp"]],
      [{ tag: "search" }, ["api", "none"]],
      [{ tag: "pay" }, []],
      [{ min_score: 0 }, ["all", "mcp", "oas", "api", "llms", "none"]],
      [{ min_score: 20 }, ["all", "mcp", "oas"]],
      [{ min_score: 100 }, ["all"]],
      [{ has_api: true }, ["all", "api"]],
      [{ has_api: false }, ["mcp", "oas", "llms", "none"]],
      [{ has_mcp: true }, ["all", "mcp"]],
      [{ has_mcp: false }, ["oas", "api", "llms", "none"]],
      [{ has_openapi: true }, ["all", "oas"]],
      [{ has_openapi: false }, ["mcp", "api", "llms", "none"]],
      [{ has_llms_txt: true }, ["all", "llms"]],
      [{ has_llms_txt: false }, ["mcp", "oas", "api", "none"]],
      [{ has_mcp: true, has_openapi: true }, ["all"]],
      [{ category: "developer", has_openapi: false }, ["mcp"]],
      [{ tag: "search", min_score: 1 }, ["api"]],
      [{ tag: "payment", has_api: true, min_score: 50, category: "ai-tools" }, ["all"]],
    ];
    for (const [filters, expected] of cases) {
      const body = await searchOk(get, { q: t, ...filters });
      // The filters decide which sites; their order is relevance's (tags weigh in it), tested apart.
      expect(domainsOf(body).sort(), JSON.stringify(filters)).toEqual((await organic(expected)).sort());
      expect(body.total, JSON.stringify(filters)).toBe(expected.length);
    }

    // has_api is the structured-API signal.
    const api = await searchOk(get, { q: t, has_api: true });
    expect(api.results.every((site) => site.has_structured_api === true)).toBe(true);
  });

  it("leaves the audit-only buckets out unless the category names one", async () => {
    const t = uniqueToken();
    const get = asClient();
    await insertSites([
      { domain: `disc-${t}.test`, name: `${t} Listed`, category: "developer", agenticScore: 10, tags: [t] },
      { domain: `other-${t}.test`, name: `${t} Other`, category: "other", agenticScore: 90, tags: [t] },
      { domain: `spam-${t}.test`, name: `${t} Spam`, category: "spam", agenticScore: 95, tags: [t] },
    ]);

    const plain = await searchOk(get, { q: t });
    expect(domainsOf(plain)).toEqual([`disc-${t}.test`]);
    expect(plain.total).toBe(1);
    expect(domainsOf(await searchOk(get, { q: t, min_score: 50 }))).toEqual([]);
    // Not even its exact domain finds it: only the listed site, by the token.
    expect(domainsOf(await searchOk(get, { q: `spam-${t}.test`, tag: t }))).toEqual([`disc-${t}.test`]);
    expect(domainsOf(await searchOk(get, { q: t, category: "other" }))).toEqual([`other-${t}.test`]);
    expect(domainsOf(await searchOk(get, { q: t, category: "spam" }))).toEqual([`spam-${t}.test`]);
  });
});

describe("GET /api/v1/search: paging and order", () => {
  it("pages 20 at a time in organic order, with total, page and has_next consistent", async () => {
    const t = uniqueToken();
    const get = asClient();
    const sites = Array.from({ length: 45 }, (_, i) => ({
      domain: `p${String(44 - i).padStart(2, "0")}-${t}.test`,
      name: `${t} Paged ${i}`,
      // Many ties, so the tie-break decides much of the order.
      agenticScore: (i % 5) * 20 + (i % 2) * 5,
    }));
    await insertSites(sites);
    const expected = (
      await sortOrganic(sites.map((site) => ({ domain: site.domain, agentic_score: site.agenticScore })))
    ).map((site) => site.domain);
    // Ties are not broken by spelling: a name chosen to sort first gains nothing.
    const byScoreThenName = [...sites]
      .sort((a, b) => b.agenticScore - a.agenticScore || (a.domain < b.domain ? -1 : 1))
      .map((site) => site.domain);
    expect(expected).not.toEqual(byScoreThenName);

    const pages = [];
    for (const page of [1, 2, 3, 4]) {
      const body = await searchOk(get, { q: t, page });
      expect(body).toMatchObject({ total: 45, total_exact: true, page, per_page: 20, has_next: page < 3 });
      await expectOrganicOrder(body.results);
      pages.push(body);
    }
    expect(pages.map((body) => body.results.length)).toEqual([20, 20, 5, 0]);
    expect(pages.flatMap(domainsOf)).toEqual(expected);

    // The same page twice gives the same results, each with its own receipt.
    const again = await searchOk(get, { q: t, page: 2 });
    expect(domainsOf(again)).toEqual(domainsOf(pages[1]!));
    expect(again.search_id).not.toBe(pages[1]!.search_id);

    // The last page of the result window is valid and empty here.
    const last = await searchOk(get, { q: t, page: 50 });
    expect(last).toMatchObject({ results: [], total: 45, page: 50, has_next: false });

    // Receipts keep absolute positions: page 2 starts at 21.
    const stored = await sqlRows<{ domain: string; position: number }>(
      "select domain, position from search_receipt_results where search_id = $1 order by position",
      [pages[1]!.search_id],
    );
    expect(stored).toEqual(expected.slice(20, 40).map((domain, i) => ({ domain, position: 21 + i })));
  });
});

describe("GET /api/v1/search: the result window", () => {
  it("counts matches up to 1,000: beyond it total is 1,000, total_exact false, and page 50 is the last", async () => {
    const t = uniqueToken();
    const get = asClient();
    await insertSites(
      Array.from({ length: 1001 }, (_, i) => ({
        domain: `w${String(i).padStart(4, "0")}-${t}.test`,
        name: `${t} Window`,
        agenticScore: i % 101,
      })),
    );

    const first = await searchOk(get, { q: t });
    expect(first).toMatchObject({ total: 1000, total_exact: false, page: 1, has_next: true });
    expect(first.results).toHaveLength(20);
    expect(first.results[0]?.agentic_score).toBe(100);
    await expectOrganicOrder(first.results);
    const last = await searchOk(get, { q: t, page: 50 });
    expect(last).toMatchObject({ total: 1000, total_exact: false, page: 50, has_next: false });
    expect(last.results).toHaveLength(20);
    await expectOrganicOrder(last.results);

    // Under 1,000 matches (the ten scored 0 filtered out), the count is exact again.
    const narrowed = await searchOk(get, { q: t, min_score: 1 });
    expect(narrowed).toMatchObject({ total: 991, total_exact: true });
  });
});

describe("GET /api/v1/search: nothing found", () => {
  it("says why and offers the nearest indexed word, only on an answer that found nothing", async () => {
    const t = uniqueToken();
    const get = asClient();
    await insertSites([{ domain: `near-${t}.test`, name: `${t} Nearby`, agenticScore: 20 }]);

    const found = (await (await get(`/api/v1/search?q=${t}`)).json()) as Record<string, unknown>;
    expect(found.total).toBe(1);
    expect(found).not.toHaveProperty("no_match");
    expect(found).not.toHaveProperty("suggestions");

    // Two edits from the token: too far to be taken for it, near enough to be offered.
    const response = await get(`/api/v1/search?q=${t}qx`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      total: number;
      no_match: { reason: string; unknown_words: string[] };
      suggestions: { word: string; replaces: string; query: string }[];
    };
    expect(body.total).toBe(0);
    expect(body.no_match).toMatchObject({ reason: "unknown_words", unknown_words: [`${t}qx`] });
    expect(body.suggestions[0]).toEqual({ word: t, replaces: `${t}qx`, query: t });
    // One edit from it, the search takes the word the index holds.
    expect(domainsOf(await searchOk(get, { q: `${t}q` }))).toEqual([`near-${t}.test`]);
  });
});

describe("GET /api/v1/search: response", () => {
  it("answers the exact shape: free access, a committed receipt, no paid offers, the sidecar", async () => {
    const t = uniqueToken();
    const get = asClient();
    const [full, bare] = await insertSites([
      {
        domain: `full-${t}.test`,
        url: `https://full-${t}.test/home`,
        name: `${t} Full &amp; Complete`,
        description: `Every field set. ${"Long description. ".repeat(40)}`,
        hasLlmsTxt: true,
        hasAiPlugin: true,
        hasOpenapi: true,
        hasRobotsAi: false,
        hasStructuredApi: true,
        hasMcpServer: true,
        hasSchemaOrg: false,
        agenticScore: 80,
        category: "productivity",
        tags: ["mcp", "openapi"],
        isVerified: true,
        isFeatured: true,
        hasFavicon: true,
        faviconUrl: `https://full-${t}.test/favicon.ico`,
        crawlStatus: "success",
        lastCrawledAt: new Date("2026-04-01T01:02:03.004Z"),
        createdAt: new Date("2025-12-24T00:00:00.000Z"),
        updatedAt: new Date("2026-04-01T01:02:04.005Z"),
      },
      { domain: `bare-${t}.test`, name: `${t} Bare`, agenticScore: 10 },
    ]);

    const response = await get(`/api/v1/search?q=${t}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("ratelimit-limit")).toBe("240");
    expect(response.headers.get("ratelimit-policy")).toBe("240;w=3600");
    const body = (await response.json()) as { search_id: string; results: Record<string, unknown>[] };
    expect(body.search_id).toMatch(SEARCH_ID_FORMAT);
    const domains = [full!.domain, bare!.domain];
    expect(body).toStrictEqual({
      access: "free",
      receipt_recorded: true,
      search_id: body.search_id,
      results: [expectedSiteRecord(full!), expectedSiteRecord(bare!)],
      paid_offers_available: false,
      paid_offers: [],
      action_interest: expectedSidecar({ available: true, searchId: body.search_id, domains }),
      total: 2,
      total_exact: true,
      page: 1,
      per_page: 20,
      has_next: false,
    });
    // favicon_url is present only when a favicon exists.
    expect(Object.hasOwn(body.results[1]!, "favicon_url")).toBe(false);
  });

  it("gives every search a new search_id", async () => {
    const t = uniqueToken();
    const get = asClient();
    await insertSites([{ domain: `a-${t}.test`, name: t }]);
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await searchOk(get, { q: t })).search_id);
    expect(ids.size).toBe(5);
  });
});

describe("GET /api/v1/search: invalid parameters", () => {
  const cases: [string, string][] = [
    ["min_score=101", "min_score"],
    ["min_score=-1", "min_score"],
    ["min_score=1.5", "min_score"],
    ["min_score=abc", "min_score"],
    ["min_score=", "min_score"],
    ["has_api=yes", "has_api"],
    ["has_mcp=1", "has_mcp"],
    ["has_openapi=TRUE", "has_openapi"],
    ["has_llms_txt=yes", "has_llms_txt"],
    ["page=0", "page"],
    ["page=51", "page"],
    ["page=-1", "page"],
    ["page=2.5", "page"],
    ["category=weather", "category"],
    ["category=Developer", "category"],
    ["tag=Bad%20Tag", "tag"],
    [`q=${"a".repeat(201)}`, "q"],
    ["foo=bar", "foo"],
    ["has_structured_api=true", "has_structured_api"],
  ];

  it.each(cases)("answers %s with 400 VALIDATION_FAILED naming %s", async (query, field) => {
    const response = await asClient()(`/api/v1/search?q=anything&${query}`);
    const body = await expectInvalid(response, "query", [field]);
    expect(body.title).toBe("Invalid request");
    expect(body.detail).toContain(field);
  });

  it("names every offending parameter at once", async () => {
    const response = await asClient()("/api/v1/search?min_score=abc&page=0&has_mcp=maybe&sort=score");
    await expectInvalid(response, "query", ["min_score", "page", "has_mcp", "sort"]);
  });

  it("accepts the bounds themselves", async () => {
    const get = asClient();
    await searchOk(get, { q: uniqueToken(), min_score: 100, page: 50 });
    await searchOk(get, { q: uniqueToken(), min_score: 0, page: 1, has_api: false, category: "spam", tag: "a-1" });
  });
});
