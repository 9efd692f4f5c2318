/**
 * An ARD client written from the text of ARD v0.91 (§4.2 entry terms, §4.3 value or reference,
 * §5.3.1 query model, §5.3.2 Search, §5.3.3 Explore, §5.3.4 Retrieve, §5.3.5 List, §5.4 referrals,
 * Appendix B errors, Appendix C identifiers), knowing nothing of this service but the registry's
 * base URL. It finds the MCP servers and A2A agents of a test index through Search and Explore,
 * pages with the tokens it is given, and holds every answer to JSON Schemas written here from the
 * specification's own rules (Ajv, draft 2020-12). The schemas are this file's reading of the text,
 * not copied from the project's routes: a drift between the two fails here.
 */
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { a2aResource, insertArdSites, manifestResource, mcpResource, openapiResource } from "../support/ard.ts";
import { insertClaimOf, insertOfferOf } from "../support/offers.ts";
import { uniqueToken } from "../support/sites.ts";
import { asClient } from "../support/worker.ts";

/** §4.2 and Appendix C: identifier, displayName, type; §4.3: exactly one of url and data. */
const entrySchema = {
  type: "object",
  required: ["identifier", "displayName", "type"],
  properties: {
    identifier: { type: "string", pattern: "^urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+)+$" },
    displayName: { type: "string", minLength: 1 },
    type: { type: "string", pattern: "^[a-z]+/[a-zA-Z0-9.+-]+" },
    url: { type: "string", format: "uri" },
    data: { type: "object" },
    description: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    capabilities: { type: "array", items: { type: "string" } },
    representativeQueries: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 5 },
    version: { type: "string" },
    updatedAt: { type: "string", format: "date-time" },
    trustManifest: { type: "object", required: ["identity"] },
  },
  oneOf: [
    { required: ["url"], not: { required: ["data"] } },
    { required: ["data"], not: { required: ["url"] } },
  ],
};

/** §5.3.2: results are entries with an integer score 0–100 and the source registry. */
const searchSchema = {
  type: "object",
  required: ["results"],
  properties: {
    results: {
      type: "array",
      items: {
        allOf: [entrySchema],
        type: "object",
        required: ["score", "source"],
        properties: { score: { type: "integer", minimum: 0, maximum: 100 }, source: { type: "string", format: "uri" } },
      },
    },
    referrals: {
      type: "array",
      items: {
        type: "object",
        required: ["identifier", "displayName", "type", "url"],
        properties: { type: { const: "application/ai-registry+json" }, url: { type: "string", format: "uri" } },
      },
    },
    pageToken: { type: "string", minLength: 1 },
  },
  additionalProperties: false,
};

/** §5.3.3: facets by field, buckets of value and count, otherCount past the limit. */
const exploreSchema = {
  type: "object",
  required: ["resultType", "facets"],
  properties: {
    resultType: { const: "facets" },
    facets: {
      type: "object",
      additionalProperties: {
        type: "object",
        required: ["buckets"],
        properties: {
          buckets: {
            type: "array",
            items: {
              type: "object",
              required: ["value"],
              properties: { value: { type: "string" }, count: { type: "integer", minimum: 0 } },
            },
          },
          otherCount: { type: "integer", minimum: 0 },
        },
      },
    },
  },
};

/** §5.3.5: a page of entries, and a token while more follow. */
const listSchema = {
  type: "object",
  required: ["items"],
  properties: { items: { type: "array", items: entrySchema }, pageToken: { type: "string" } },
};

/** Appendix B: an error carries its code among the five. */
const errorSchema = {
  type: "object",
  required: ["errorCode", "message"],
  properties: {
    errorCode: { enum: ["INVALID_ARGUMENT", "UNAUTHENTICATED", "NOT_FOUND", "RATE_LIMIT_EXCEEDED", "INTERNAL_ERROR"] },
    message: { type: "string" },
  },
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validators = {
  entry: ajv.compile(entrySchema),
  search: ajv.compile(searchSchema),
  explore: ajv.compile(exploreSchema),
  list: ajv.compile(listSchema),
  error: ajv.compile(errorSchema),
};

function valid(kind: keyof typeof validators, value: unknown) {
  const validate = validators[kind];
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  return value;
}

type Entry = { identifier: string; type: string; url?: string; score?: number; [term: string]: unknown };

/** The client: a base URL and the four operations, exactly as the specification names them. */
function ardClient(base: string, fetcher = asClient()) {
  const post = async (path: string, body: unknown) => {
    const response = await fetcher(`${base}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return {
    search: (body: unknown) => post("/search", body),
    explore: (body: unknown) => post("/explore", body),
    async list(params: Record<string, string>) {
      const response = await fetcher(`${base}/agents?${new URLSearchParams(params)}`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    async retrieve(identifier: string) {
      const response = await fetcher(`${base}/agents/${encodeURIComponent(identifier)}`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    /** Every page of a search, following pageToken as §5.3.2 says. */
    async searchAll(query: unknown, pageSize: number) {
      const results: Entry[] = [];
      let pageToken: string | undefined;
      do {
        const page = await post("/search", { query, pageSize, ...(pageToken ? { pageToken } : {}) });
        expect(page.status).toBe(200);
        valid("search", page.body);
        results.push(...(page.body.results as Entry[]));
        pageToken = page.body.pageToken as string | undefined;
      } while (pageToken);
      return results;
    },
  };
}

const MCP = "application/mcp-server-card+json";
const A2A = "application/a2a-agent-card+json";

async function testIndex() {
  const token = uniqueToken();
  const domains = Array.from({ length: 6 }, (_, index) => `c${index}-${token}.example`);
  await insertArdSites(
    domains.map((domain, index) => ({
      domain,
      name: `Harbour ${token}`,
      agenticScore: 90 - index * 10,
      tags: ["harbour"],
      resources: [
        mcpResource(domain, { verification: index % 2 ? "auth_gated" : "handshake" }),
        a2aResource(domain),
        ...(index % 3 === 0 ? [openapiResource(domain), manifestResource(domain, "tides")] : []),
      ],
    })),
  );
  return { token, domains };
}

describe("an ARD client written from the specification", () => {
  it("finds the MCP servers and A2A agents of the index through Search, page by page, in valid shapes", async () => {
    const { token, domains } = await testIndex();
    const client = ardClient("/ard/v1");
    const mcp = await client.searchAll({ text: token, filter: { type: [MCP] } }, 4);
    const a2a = await client.searchAll({ text: token, filter: { type: A2A } }, 4);
    expect(mcp.every((entry) => entry.type === MCP)).toBe(true);
    expect(a2a.every((entry) => entry.type === A2A)).toBe(true);
    // One MCP server per site, plus the tides card on every third site; one A2A agent per site.
    expect(mcp).toHaveLength(domains.length + 2);
    expect(a2a).toHaveLength(domains.length);
    for (const entry of [...mcp, ...a2a]) {
      expect(domains).toContain(entry.identifier.split(":")[2]);
      expect(entry.source).toBe("http://svc.test/ard/v1/");
    }
    expect(new Set(mcp.map((entry) => entry.identifier)).size).toBe(mcp.length);
    // Relevance orders the results: scores never rise down the list.
    const scores = mcp.map((entry) => entry.score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);

    // A publisher filter and OR within a key (§5.3.1).
    const both = await client.searchAll({ text: token, filter: { type: [MCP, A2A], publisher: domains[0] } }, 10);
    expect(both.map((entry) => entry.type).sort()).toEqual([A2A, MCP, MCP]);
    // Each result resolves to its complete entry through Retrieve (§5.3.4).
    for (const entry of both) {
      const got = await client.retrieve(entry.identifier);
      expect(got.status).toBe(200);
      valid("entry", got.body);
      expect(got.body.identifier).toBe(entry.identifier);
    }
  });

  it("introspects the same index through Explore, and lists it deterministically", async () => {
    const { token, domains } = await testIndex();
    const client = ardClient("/ard/v1");
    const explored = await client.explore({
      query: { text: token },
      resultType: { facets: [{ field: "type" }, { field: "publisher", limit: 3 }] },
    });
    expect(explored.status).toBe(200);
    valid("explore", explored.body);
    const facets = explored.body.facets as Record<
      string,
      { buckets: { value: string; count: number }[]; otherCount?: number }
    >;
    const types = Object.fromEntries(facets.type!.buckets.map((bucket) => [bucket.value, bucket.count]));
    expect(types[MCP]).toBe(domains.length + 2);
    expect(types[A2A]).toBe(domains.length);
    expect(facets.publisher!.buckets).toHaveLength(3);
    const shown = facets.publisher!.buckets.reduce((sum, bucket) => sum + bucket.count, 0);
    const total = Object.values(types).reduce((sum, count) => sum + count, 0);
    expect(shown + (facets.publisher!.otherCount ?? 0)).toBe(total);

    const first = await client.list({ filter: `publisherId = '${domains.join(",")}'`, pageSize: "5" });
    expect(first.status).toBe(200);
    valid("list", first.body);
    const again = await client.list({ filter: `publisherId = '${domains.join(",")}'`, pageSize: "5" });
    expect(again.body).toEqual(first.body);
  });

  it("federates as the specification allows and reads errors by their code", async () => {
    const { token } = await testIndex();
    const client = ardClient("/ard/v1");
    for (const federation of ["none", "auto", "referrals"]) {
      const answer = await client.search({ query: { text: token }, federation });
      expect(answer.status).toBe(200);
      valid("search", answer.body);
      if (federation !== "referrals") expect(answer.body.referrals).toBeUndefined();
      else expect(Array.isArray(answer.body.referrals)).toBe(true);
    }
    const noText = await client.search({ query: { filter: { type: MCP } } });
    expect(noText.status).toBe(400);
    expect(valid("error", noText.body)).toMatchObject({ errorCode: "INVALID_ARGUMENT" });
    const missing = await client.retrieve(`urn:air:${token}.example:no:such`);
    expect(missing.status).toBe(404);
    expect(valid("error", missing.body)).toMatchObject({ errorCode: "NOT_FOUND" });
  });

  it("never sees a paid entry: offers for the index's domains change nothing it finds", async () => {
    const { token, domains } = await testIndex();
    const client = ardClient("/ard/v1");
    const before = await client.searchAll({ text: token }, 7);
    for (const domain of domains.slice(0, 4)) {
      const claimId = await insertClaimOf(domain);
      await insertOfferOf(claimId, domain, "active", 500_000);
    }
    const after = await client.searchAll({ text: token }, 7);
    expect(after).toEqual(before);
    for (const entry of after) {
      expect(JSON.stringify(entry)).not.toMatch(/offer|sponsor|bounty|paid/i);
    }
  });
});
