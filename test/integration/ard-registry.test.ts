/**
 * The ARD registry under /ard/v1 (ARD v0.91 §5.3; docs/discovery.md, "The ARD registry"): the
 * shapes of Search, Explore, List and Retrieve, each filter, paging through a whole set, the
 * federation modes, facets against a recomputation, the errors, that nothing is written and no
 * query text kept, and that nothing paid changes an entry or its order.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ProblemCode } from "../../src/domain/problem-types.ts";
import worker from "../support/all-in-one-jobs.ts";
import {
  a2aResource,
  ardPost,
  ardSearch,
  ardSearchAll,
  insertArdSites,
  type Json,
  manifestResource,
  mcpResource,
  openapiResource,
  type Resource,
} from "../support/ard.ts";
import { fixture, fixtureDomain } from "../support/fixture-web.ts";
import { insertClaimOf, insertOfferOf } from "../support/offers.ts";
import { sqlRows, uniqueToken } from "../support/sites.ts";
import { asClient, awayFromWindowEdge, expectProblem } from "../support/worker.ts";

const VERIFICATION = "agentReadiness:verification";

/**
 * Five sites alike in what the search weighs (one name, two tags each), scores apart, with every
 * kind of resource between them: equally relevant to their token, so that the site search orders
 * them by score.
 */
async function seedIndex() {
  const token = uniqueToken();
  const domain = (label: string) => `${label}-${token}.example`;
  const sites = [
    {
      domain: domain("alpha"),
      agenticScore: 90,
      tags: ["weather", "mcp"],
      resources: [
        manifestResource(domain("alpha"), "forecast"),
        manifestResource(domain("alpha"), "radar", { type: "application/a2a-agent-card+json", tags: ["maps"] }),
        mcpResource(domain("alpha")),
      ],
    },
    {
      domain: domain("bravo"),
      agenticScore: 80,
      tags: ["finance", "quotes"],
      resources: [
        mcpResource(domain("bravo"), { verification: "auth_gated", capabilities: ["quote"] }),
        openapiResource(domain("bravo")),
      ],
    },
    {
      domain: domain("charlie"),
      agenticScore: 70,
      tags: ["weather", "rain"],
      resources: [a2aResource(domain("charlie")), openapiResource(domain("charlie"), { verification: "warn" })],
    },
    {
      domain: domain("delta"),
      agenticScore: 60,
      tags: ["registry", "lists"],
      resources: [
        mcpResource(domain("delta"), { verification: "unreachable" }),
        {
          kind: "manifest-entry",
          identifier: `urn:air:${domain("delta")}:registry:public`,
          identifierSource: "site",
          type: "application/ai-registry+json",
          url: `https://${domain("delta")}/registry/v1/`,
          displayName: "Delta registry",
          verification: "listed",
        } satisfies Resource,
      ],
    },
    // Indexed without resources: matched by the site search, never an entry.
    { domain: domain("echo"), agenticScore: 95, tags: ["plain", "site"], resources: null },
  ];
  await insertArdSites(sites.map((site) => ({ ...site, name: `Registry ${token}` })));
  // In the site search's order: equal relevance, agentic_score descending.
  const ordered = sites.filter((site) => site.resources).sort((a, b) => b.agenticScore - a.agenticScore);
  const entries = ordered.flatMap((site) => site.resources!.map((resource) => ({ site, resource })));
  return { token, sites, entries };
}

const identifiers = (results: Json[]) => results.map((result) => result.identifier as string);

describe("POST /ard/v1/search", () => {
  it("answers ARD entries of the matched sites in the site search's order, with score, source and our verification", async () => {
    const { token, entries } = await seedIndex();
    const body = await ardSearch({ query: { text: token }, pageSize: 100 });
    expect(identifiers(body.results)).toEqual(entries.map((entry) => entry.resource.identifier));
    expect(body.pageToken).toBeUndefined();
    expect(body.referrals).toBeUndefined();
    const scores = body.results.map((result) => result.score as number);
    for (const score of scores) expect(Number.isInteger(score) && score >= 0 && score <= 100).toBe(true);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(scores[0]).toBe(100);

    const first = body.results[0]!;
    const resource = entries[0]!.resource;
    expect(first).toMatchObject({
      identifier: resource.identifier,
      displayName: resource.displayName,
      type: resource.type,
      url: resource.url,
      description: resource.description,
      tags: resource.tags,
      capabilities: resource.capabilities,
      source: "http://svc.test/ard/v1/",
    });
    // Search results leave representativeQueries out (ARD §5.3.2); Retrieve carries them.
    expect(first).not.toHaveProperty("representativeQueries");
    expect(first).not.toHaveProperty("data");
    expect(first["@context"]).toEqual([
      "https://agenticresourcediscovery.org/context/v1",
      { agentReadiness: "http://svc.test/ard/v1/ns#" },
    ]);
    expect(first[VERIFICATION]).toEqual({
      verified: false,
      status: "listed",
      last_seen: "2026-03-01T10:20:30.456Z",
      site: entries[0]!.site.domain,
      agentic_score: 90,
      identifier_source: "site",
      resource_kind: "manifest-entry",
    });
    const mcp = body.results.find((result) => result.identifier === entries[2]!.resource.identifier)!;
    expect(mcp[VERIFICATION]).toMatchObject({
      verified: true,
      status: "handshake",
      endpoint: entries[2]!.resource.endpoint,
      identifier_source: "registry",
    });
    // A resource without tags of its own carries its site's tags.
    expect(mcp.tags).toEqual(["weather", "mcp"]);
  });

  it("filters on type, tags, capabilities, publisher, identifier, verified and agentic_score (OR within a key, AND across)", async () => {
    const { token, entries, sites } = await seedIndex();
    const run = async (filter: Json) =>
      identifiers((await ardSearch({ query: { text: token, filter }, pageSize: 100 })).results);
    const expected = (keep: (entry: (typeof entries)[number]) => boolean) =>
      entries.filter(keep).map((entry) => entry.resource.identifier);
    const tagsOf = (entry: (typeof entries)[number]) => entry.resource.tags ?? entry.site.tags;
    const verified = (entry: (typeof entries)[number]) =>
      entry.resource.verification === "handshake" || entry.resource.verification === "pass";

    expect(await run({ type: ["application/mcp-server-card+json"] })).toEqual(
      expected((entry) => entry.resource.type === "application/mcp-server-card+json"),
    );
    // A bare value is one value; media types compare case-insensitively.
    expect(await run({ type: "APPLICATION/A2A-AGENT-CARD+JSON" })).toEqual(
      expected((entry) => entry.resource.type === "application/a2a-agent-card+json"),
    );
    expect(await run({ type: ["application/a2a-agent-card+json", "application/vnd.oai.openapi+json"] })).toEqual(
      expected((entry) =>
        ["application/a2a-agent-card+json", "application/vnd.oai.openapi+json"].includes(entry.resource.type),
      ),
    );
    expect(await run({ tags: ["maps"] })).toEqual(expected((entry) => tagsOf(entry).includes("maps")));
    expect(await run({ tags: ["weather"] })).toEqual(expected((entry) => tagsOf(entry).includes("weather")));
    expect(await run({ capabilities: ["quote", "forecastTool"] })).toEqual(
      expected((entry) =>
        (entry.resource.capabilities ?? []).some((c) => ["quote", "forecasttool"].includes(c.toLowerCase())),
      ),
    );
    expect(await run({ publisher: sites[1]!.domain })).toEqual(expected((entry) => entry.site === sites[1]));
    expect(await run({ identifier: entries[3]!.resource.identifier })).toEqual([entries[3]!.resource.identifier]);
    expect(await run({ verified: true })).toEqual(expected(verified));
    expect(await run({ verified: "false" })).toEqual(expected((entry) => !verified(entry)));
    expect(await run({ agentic_score: ["70..85"] })).toEqual(
      expected((entry) => entry.site.agenticScore >= 70 && entry.site.agenticScore <= 85),
    );
    expect(await run({ "agentReadiness:agentic_score": ["60", "90"] })).toEqual(
      expected((entry) => [60, 90].includes(entry.site.agenticScore)),
    );
    expect(await run({ type: "application/mcp-server-card+json", verified: true, tags: "weather" })).toEqual(
      expected(
        (entry) =>
          entry.resource.type === "application/mcp-server-card+json" &&
          verified(entry) &&
          tagsOf(entry).includes("weather"),
      ),
    );
    expect(await run({ publisher: "elsewhere.example" })).toEqual([]);
  });

  it("pages through the whole set without duplicates or gaps, with stable opaque tokens", async () => {
    const { token, entries } = await seedIndex();
    const all = entries.map((entry) => entry.resource.identifier);
    for (const pageSize of [1, 2, 3, 4, 100]) {
      const { results, tokens } = await ardSearchAll({ query: { text: token } }, pageSize);
      expect(identifiers(results), `pageSize ${pageSize}`).toEqual(all);
      expect(tokens.length).toBe(Math.ceil(all.length / pageSize) - 1);
      for (const each of tokens) expect(each).toMatch(/^[A-Za-z0-9_-]+$/);
    }
    // The same query at the same place gives the same token and the same page.
    const first = await ardSearch({ query: { text: token }, pageSize: 3 });
    const again = await ardSearch({ query: { text: token }, pageSize: 3 });
    expect(again.pageToken).toBe(first.pageToken);
    const second = await ardSearch({ query: { text: token }, pageSize: 3, pageToken: first.pageToken });
    expect(identifiers(second.results)).toEqual(all.slice(3, 6));
    // The default page is 10.
    const byDefault = await ardSearch({ query: { text: token } });
    expect(identifiers(byDefault.results)).toEqual(all.slice(0, 10));
  });

  it("serves federation none and auto from this index, and referrals with the registries the index found", async () => {
    const { token, entries, sites } = await seedIndex();
    const none = await ardSearch({ query: { text: token }, federation: "none", pageSize: 100 });
    const auto = await ardSearch({ query: { text: token }, federation: "auto", pageSize: 100 });
    const byDefault = await ardSearch({ query: { text: token }, pageSize: 100 });
    expect(auto.results).toEqual(none.results);
    expect(byDefault.results).toEqual(none.results);
    expect(none).not.toHaveProperty("referrals");
    expect(auto).not.toHaveProperty("referrals");

    const referred = await ardSearch({ query: { text: token }, federation: "referrals", pageSize: 100 });
    expect(referred.results).toEqual(none.results);
    const referrals = referred.referrals as Json[];
    expect(referrals).toContainEqual({
      identifier: `urn:air:${sites[3]!.domain}:registry:public`,
      displayName: "Delta registry",
      type: "application/ai-registry+json",
      url: `https://${sites[3]!.domain}/registry/v1/`,
    });
    for (const referral of referrals) {
      expect(Object.keys(referral).sort()).toEqual(["displayName", "identifier", "type", "url"]);
      expect(referral.type).toBe("application/ai-registry+json");
    }
    expect(entries.length).toBeGreaterThan(0);
  });

  it("refuses bad input with a problem carrying ARD's errorCode, and counts nothing for it", async () => {
    const { token } = await seedIndex();
    const client = asClient();
    const bad = async (body: unknown, code: ProblemCode) => {
      const problem = await expectProblem(await ardPost(client, "/search", body), 400, code);
      expect(problem).toMatchObject({ errorCode: "INVALID_ARGUMENT", message: problem.detail });
      return problem;
    };
    await bad({}, "VALIDATION_FAILED");
    await bad({ query: {} }, "VALIDATION_FAILED");
    await bad({ query: { text: "   " } }, "VALIDATION_FAILED");
    await bad({ query: { text: token }, pageSize: 0 }, "VALIDATION_FAILED");
    await bad({ query: { text: token }, pageSize: 101 }, "VALIDATION_FAILED");
    await bad({ query: { text: token }, pageSize: 2.5 }, "VALIDATION_FAILED");
    await bad({ query: { text: token }, federation: "everywhere" }, "VALIDATION_FAILED");
    await bad({ query: { text: token }, extra: 1 }, "VALIDATION_FAILED");
    await bad({ query: { text: token, sort: "x" } }, "VALIDATION_FAILED");
    await bad({ query: { text: "x".repeat(201) } }, "VALIDATION_FAILED");
    await bad({ query: { text: token, filter: { colour: ["red"] } } }, "UNSUPPORTED_FILTER");
    await bad({ query: { text: token, filter: { verified: "maybe" } } }, "INVALID_FILTER");
    await bad({ query: { text: token, filter: { agentic_score: "90..10" } } }, "INVALID_FILTER");
    await bad({ query: { text: token }, pageToken: "not-a-token" }, "INVALID_PAGE_TOKEN");
    // A token of another query is refused, not used to page something else.
    const other = await ardSearch({ query: { text: token }, pageSize: 1 });
    await bad({ query: { text: `${token} other` }, pageToken: other.pageToken }, "INVALID_PAGE_TOKEN");
    const notJson = await client("/ard/v1/search", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect((await expectProblem(notJson, 400, "INVALID_JSON")).errorCode).toBe("INVALID_ARGUMENT");
    // None of those was counted: the client's next valid search is its first counted one.
    const counted = await ardPost(client, "/search", { query: { text: token } });
    expect(counted.status).toBe(200);
    expect(counted.headers.get("ratelimit-remaining")).toBe("239");
    await counted.body?.cancel();
    // A method the path lacks, and a path the registry lacks, are problems with errorCode too.
    const get = await client("/ard/v1/search");
    expect((await expectProblem(get, 405, "METHOD_NOT_ALLOWED")).errorCode).toBe("INVALID_ARGUMENT");
    const missing = await client("/ard/v1/nothing-here");
    expect((await expectProblem(missing, 404, "NOT_FOUND")).errorCode).toBe("NOT_FOUND");
  });

  it("counts against the search limit, shared with GET /search", async () => {
    const { token } = await seedIndex();
    const client = asClient();
    const first = await ardPost(client, "/search", { query: { text: token } });
    expect(first.headers.get("ratelimit-limit")).toBe("240");
    expect(first.headers.get("ratelimit-remaining")).toBe("239");
    await first.body?.cancel();
    // GET /search spends from the same limit.
    const organic = await client(`/api/v1/search?q=${token}`);
    expect(organic.headers.get("ratelimit-remaining")).toBe("238");
    await organic.body?.cancel();
  });

  it("answers 429 RATE_LIMIT_EXCEEDED with Retry-After once the client's 240 searches of the hour are spent", async () => {
    await awayFromWindowEdge(3600, 60);
    const client = asClient();
    // A text without letters or digits matches nothing at once, and is still a counted search.
    for (let batch = 0; batch < 6; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 40 }, () => ardPost(client, "/search", { query: { text: "!!" } })),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        await answer.body?.cancel();
      }
    }
    const over = await ardPost(client, "/search", { query: { text: "!!" } });
    const problem = await expectProblem(over, 429, "RATE_LIMITED");
    expect(problem).toMatchObject({ errorCode: "RATE_LIMIT_EXCEEDED", message: problem.detail });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    // Explore spends from the same limit.
    const explore = await ardPost(client, "/explore", { resultType: { facets: [{ field: "type" }] } });
    expect((await expectProblem(explore, 429, "RATE_LIMITED")).errorCode).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("writes nothing and keeps no query text: no receipt names the results, no text column holds the text", async () => {
    const { token, sites } = await seedIndex();
    const text = `${token} zebra${token}`;
    await ardSearch({ query: { text: token }, pageSize: 100 });
    await ardSearch({ query: { text } });
    await ardPost(asClient(), "/explore", { query: { text: token }, resultType: { facets: [{ field: "type" }] } });
    const named = await sqlRows<{ n: number }>(
      "select count(*)::int as n from search_receipt_results where domain = any($1)",
      [sites.map((site) => site.domain)],
    );
    expect(named[0]!.n).toBe(0);
    // No text column of any table holds the query's text.
    const columns = await sqlRows<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns
       where table_schema = 'public' and data_type in ('text', 'jsonb', 'character varying')`,
    );
    for (const { table_name, column_name } of columns) {
      const [row] = await sqlRows<{ n: number }>(
        `select count(*)::int as n from "${table_name}" where "${column_name}"::text like $1`,
        [`%zebra${token}%`],
      );
      expect(row!.n, `${table_name}.${column_name}`).toBe(0);
    }
  });
});

describe("from a crawl to the registry", () => {
  it("lists what a crawl of a site recorded: its manifest's A2A card and MCP server card, with the endpoint's health", async () => {
    const name = "aic-card-relative";
    const domain = fixtureDomain(name);
    const batch = createMessageBatch("crawl-jobs", [
      {
        id: `ard-${uniqueToken()}`,
        timestamp: new Date(),
        attempts: 1,
        body: { domain, url: fixture(name), reason: "submit", requested_at: new Date().toISOString() },
      },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(1);
    const [row] = await sqlRows<{ category: string; agent_resources: Resource[] }>(
      "select category, agent_resources from sites where domain = $1",
      [domain],
    );
    expect(row!.agent_resources.map((resource) => resource.type)).toEqual([
      "application/a2a-agent-card+json",
      "application/mcp-server-card+json",
    ]);
    const publisher = domain.replace(":", "-");
    const listed = await asClient()(`/ard/v1/agents?${new URLSearchParams({ filter: `publisher = '${publisher}'` })}`);
    expect(listed.status).toBe(200);
    const { items } = (await listed.json()) as { items: Json[] };
    expect(items.map((item) => [item.type, item.url, (item[VERIFICATION] as Json).status])).toEqual([
      ["application/a2a-agent-card+json", `${fixture(name)}/.well-known/agent-card.json`, "warn"],
      ["application/mcp-server-card+json", `${fixture(name)}/cards/orchard.json`, "handshake"],
    ]);
    const found = await ardSearch({ query: { text: "orchard notes", filter: { publisher } } });
    expect(identifiers(found.results)).toEqual(identifiers(items));
  });
});

describe("POST /ard/v1/explore", () => {
  it("counts facets over Search's matched set, equal to a recomputation from the entries", async () => {
    const { token, entries } = await seedIndex();
    const response = await ardPost(asClient(), "/explore", {
      query: { text: token },
      resultType: {
        facets: [
          { field: "type" },
          { field: "publisher" },
          { field: "verified" },
          { field: "tags", limit: 2 },
          { field: "agentic_score", minCount: 2 },
        ],
      },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      resultType: string;
      facets: Record<string, { buckets: { value: string; count: number }[]; otherCount?: number }>;
    };
    expect(body.resultType).toBe("facets");
    const { results } = await ardSearchAll({ query: { text: token } }, 100);
    const recount = (values: (result: Json) => string[], limit = 20, minCount = 1) => {
      const counts = new Map<string, number>();
      for (const result of results)
        for (const value of new Set(values(result))) counts.set(value, (counts.get(value) ?? 0) + 1);
      const buckets = [...counts]
        .filter(([, count]) => count >= minCount)
        .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
        .map(([value, count]) => ({ value, count }));
      const other = buckets.slice(limit).reduce((sum, bucket) => sum + bucket.count, 0);
      return { buckets: buckets.slice(0, limit), ...(other ? { otherCount: other } : {}) };
    };
    const verification = (result: Json) => result[VERIFICATION] as Json;
    expect(body.facets.type).toEqual(recount((result) => [String(result.type)]));
    expect(body.facets.publisher).toEqual(recount((result) => [String(result.identifier).split(":")[2]!]));
    expect(body.facets.verified).toEqual(recount((result) => [String(verification(result).verified)]));
    expect(body.facets.tags).toEqual(recount((result) => (result.tags as string[] | undefined) ?? [], 2));
    expect(body.facets.tags!.otherCount).toBeGreaterThan(0);
    expect(body.facets.agentic_score).toEqual(recount((result) => [String(verification(result).agentic_score)], 20, 2));
    expect(body.facets.type!.buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(entries.length);
  });

  it("covers the whole registry without text, narrowed by filter, and refuses unsupported facets", async () => {
    const { sites, entries } = await seedIndex();
    const client = asClient();
    const response = await ardPost(client, "/explore", {
      query: { filter: { publisher: sites.map((site) => site.domain) } },
      resultType: { facets: [{ field: "type" }] },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { facets: { type: { buckets: { value: string; count: number }[] } } };
    const counts = new Map<string, number>();
    for (const entry of entries) counts.set(entry.resource.type, (counts.get(entry.resource.type) ?? 0) + 1);
    expect(Object.fromEntries(body.facets.type.buckets.map((bucket) => [bucket.value, bucket.count]))).toEqual(
      Object.fromEntries(counts),
    );
    // Without query at all: the whole registry, at least these entries.
    const whole = await ardPost(client, "/explore", { resultType: { facets: [{ field: "publisher", limit: 100 }] } });
    expect(whole.status).toBe(200);
    await whole.body?.cancel();

    const unsupported = await ardPost(client, "/explore", { resultType: { facets: [{ field: "colour" }] } });
    expect((await expectProblem(unsupported, 400, "UNSUPPORTED_FACET")).errorCode).toBe("INVALID_ARGUMENT");
    const noFacets = await ardPost(client, "/explore", { resultType: { facets: [] } });
    await expectProblem(noFacets, 400, "VALIDATION_FAILED");
    const noResultType = await ardPost(client, "/explore", { query: { text: "x" } });
    await expectProblem(noResultType, 400, "VALIDATION_FAILED");
  });
});

describe("GET /ard/v1/agents and /ard/v1/agents/{identifier}", () => {
  it("lists every entry in domain order then site order, page by page without duplicates or gaps, with filters", async () => {
    const { sites } = await seedIndex();
    const client = asClient();
    const publishers = sites.map((site) => site.domain).join(",");
    const byDomain = [...sites].filter((site) => site.resources).sort((a, b) => (a.domain < b.domain ? -1 : 1));
    const expected = byDomain.flatMap((site) => site.resources!.map((resource) => resource.identifier));
    const listAll = async (filter: string, pageSize: number) => {
      const items: Json[] = [];
      let token: string | undefined;
      for (let page = 0; page < 50; page++) {
        const params = new URLSearchParams({
          filter,
          pageSize: String(pageSize),
          ...(token ? { pageToken: token } : {}),
        });
        const response = await client(`/ard/v1/agents?${params}`);
        expect(response.status, await response.clone().text()).toBe(200);
        expect(response.headers.get("cache-control")).toBe("public, max-age=60");
        expect(response.headers.get("ratelimit-limit")).toBeNull();
        const body = (await response.json()) as { items: Json[]; pageToken?: string };
        expect(body.items.length).toBeLessThanOrEqual(pageSize);
        items.push(...body.items);
        if (!body.pageToken) return items;
        token = body.pageToken;
      }
      throw new Error("too many pages");
    };
    for (const pageSize of [1, 3, 100]) {
      expect(identifiers(await listAll(`publisherId = '${publishers}'`, pageSize)), `pageSize ${pageSize}`).toEqual(
        expected,
      );
    }
    const mcp = await listAll(`publisher = '${publishers}' AND type = 'application/mcp-server-card+json'`, 2);
    expect(identifiers(mcp)).toEqual(
      byDomain.flatMap((site) =>
        site
          .resources!.filter((resource) => resource.type === "application/mcp-server-card+json")
          .map((resource) => resource.identifier),
      ),
    );
    const named = await listAll(`publisherId = '${publishers}' AND displayName = 'FORECAST'`, 5);
    expect(identifiers(named)).toEqual([sites[0]!.resources![0]!.identifier]);
    const verified = await listAll(
      `publisherId = '${publishers}' AND verified = true AND updatedAfter > '2026-01-01'`,
      5,
    );
    expect(verified.every((item) => (item[VERIFICATION] as Json).verified === true)).toBe(true);
    expect(await listAll(`publisherId = '${publishers}' AND updatedAfter > '2026-06-01'`, 5)).toEqual([]);
    // The listing carries complete entries: representativeQueries included.
    const complete = await listAll(`identifier = '${sites[0]!.resources![0]!.identifier}'`, 5);
    expect(complete[0]!.representativeQueries).toEqual(sites[0]!.resources![0]!.representativeQueries);
  });

  it("retrieves each entry exactly by its percent-encoded identifier, 404 for none, 400 for a non-identifier", async () => {
    const { token, entries } = await seedIndex();
    const client = asClient();
    const { results } = await ardSearchAll({ query: { text: token } }, 100);
    for (const result of results) {
      const response = await client(`/ard/v1/agents/${encodeURIComponent(result.identifier as string)}`);
      expect(response.status).toBe(200);
      const entry = (await response.json()) as Json;
      const { score: _score, source: _source, ...searchView } = result;
      expect(entry).toMatchObject(searchView);
      expect(entry).not.toHaveProperty("score");
      expect(entry).not.toHaveProperty("source");
    }
    const withQueries = entries.find((entry) => entry.resource.representativeQueries)!;
    const full = (await (
      await client(`/ard/v1/agents/${encodeURIComponent(withQueries.resource.identifier)}`)
    ).json()) as Json;
    expect(full.representativeQueries).toEqual(withQueries.resource.representativeQueries);

    // Exact and case-sensitive: the same identifier with its name upper-cased is another one.
    const { identifier } = entries[0]!.resource;
    const upper = identifier.replace(/[^:]+$/, (name) => name.toUpperCase());
    expect(
      (await expectProblem(await client(`/ard/v1/agents/${encodeURIComponent(upper)}`), 404, "NOT_FOUND")).errorCode,
    ).toBe("NOT_FOUND");
    const none = await client(`/ard/v1/agents/${encodeURIComponent(`urn:air:${token}.example:nothing:here`)}`);
    expect((await expectProblem(none, 404, "NOT_FOUND")).errorCode).toBe("NOT_FOUND");
    const notUrn = await client(`/ard/v1/agents/${encodeURIComponent("https://example.com/agent")}`);
    expect((await expectProblem(notUrn, 400, "INVALID_IDENTIFIER")).errorCode).toBe("INVALID_ARGUMENT");
  });

  it("refuses a bad listing filter, orderBy, pageSize and token", async () => {
    const client = asClient();
    const bad = async (query: string, code: ProblemCode) => {
      const problem = await expectProblem(await client(`/ard/v1/agents?${query}`), 400, code);
      expect(problem.errorCode).toBe("INVALID_ARGUMENT");
    };
    await bad("filter=type", "INVALID_FILTER");
    await bad(`filter=${encodeURIComponent("colour = 'red'")}`, "UNSUPPORTED_FILTER");
    await bad(`filter=${encodeURIComponent("updatedAfter > 'yesterday'")}`, "INVALID_FILTER");
    await bad(`filter=${encodeURIComponent("type > 'x'")}`, "INVALID_FILTER");
    await bad("orderBy=displayName", "UNSUPPORTED_ORDER");
    await bad("pageSize=0", "VALIDATION_FAILED");
    await bad("pageSize=101", "VALIDATION_FAILED");
    await bad("pageToken=%21%21", "INVALID_PAGE_TOKEN");
    await bad("limit=5", "VALIDATION_FAILED");
    // A search token does not page the listing.
    const { token } = await seedIndex();
    const searchToken = (await ardSearch({ query: { text: token }, pageSize: 1 })).pageToken!;
    await bad(`pageToken=${searchToken}`, "INVALID_PAGE_TOKEN");
  });

  it("HEAD answers the headers only", async () => {
    const response = await asClient()("/ard/v1/agents", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });
});

describe("nothing paid changes an entry or its order", () => {
  it("keeps Search, Explore and List byte-identical with offers present and absent (random indexes)", {
    timeout: 120_000,
  }, async () => {
    for (let trial = 0; trial < 3; trial++) {
      const seed = (Date.now() + trial * 7919) >>> 0;
      const rng = random(seed);
      const token = uniqueToken();
      const count = rng.int(3, 12);
      const domains = Array.from({ length: count }, (_, index) => `p${index}-${token}.example`);
      await insertArdSites(
        domains.map((domain) => ({
          domain,
          name: `Paid ${token}`,
          agenticScore: rng.int(0, 100),
          tags: rng.next() < 0.5 ? ["weather"] : [],
          resources: [
            mcpResource(domain, { verification: rng.pick(["handshake", "auth_gated", "not_mcp"]) }),
            ...(rng.next() < 0.5 ? [a2aResource(domain)] : []),
            ...(rng.next() < 0.5 ? [openapiResource(domain)] : []),
          ],
        })),
      );
      const asks = async () => {
        const client = asClient();
        const search = await ardSearchAll({ query: { text: token } }, rng.int(1, 5));
        const filtered = await ardSearch({ query: { text: token, filter: { verified: true } }, pageSize: 100 }, client);
        const explore = await (
          await ardPost(client, "/explore", {
            query: { text: token },
            resultType: { facets: [{ field: "type" }, { field: "verified" }] },
          })
        ).text();
        const list = await (
          await client(
            `/ard/v1/agents?${new URLSearchParams({ filter: `publisher = '${domains.join(",")}'`, pageSize: "100" })}`,
          )
        ).text();
        return JSON.stringify({ search: search.results, filtered: filtered.results, explore, list });
      };
      const before = await asks();
      for (const domain of domains) {
        if (rng.next() < 0.3) continue;
        const claimId = await insertClaimOf(domain, { lastSucceededSecondsAgo: rng.int(0, 600_000) });
        await insertOfferOf(claimId, domain, rng.pick(["active", "active", "paused"] as const), rng.int(1, 1_000_000));
      }
      const after = await asks();
      expect(after, `seed ${seed}`).toBe(before);
    }
  });
});

/** A small seeded generator (mulberry32), so a failing case can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}
