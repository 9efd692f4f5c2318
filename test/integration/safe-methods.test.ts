/**
 * Safe methods write nothing. GET /search records its receipt and spends search quota and GET
 * /site/{domain}?search_id= records a selection: that is their contract. HEAD, which Hono answers
 * with the GET route, must do neither: no receipt, no selection, no quota, anywhere.
 */
import { describe, expect, it } from "vitest";
import { createGroups } from "../../src/routes/groups.ts";
import { buildOpenApiDocument } from "../../src/routes/openapi-spec.ts";
import { fixture } from "../support/fixture-web.ts";
import { searchOk } from "../support/search.ts";
import { insertSites, sqlRows, uniqueToken } from "../support/sites.ts";
import { asClient, awayFromWindowEdge } from "../support/worker.ts";

const head = (client: ReturnType<typeof asClient>, path: string, headers: Record<string, string> = {}) =>
  client(path, { method: "HEAD", headers });

async function receiptsNaming(domain: string): Promise<number> {
  const [row] = await sqlRows<{ n: number }>(
    "select count(*)::int as n from search_receipt_results where domain = $1",
    [domain],
  );
  return row?.n ?? -1;
}

describe("HEAD /api/v1/search", () => {
  it("answers GET's headers without a body, and records no receipt and spends no quota", async () => {
    await awayFromWindowEdge(3600, 30);
    const t = uniqueToken();
    const domain = `head-${t}.test`;
    await insertSites([{ domain, name: t }]);
    const client = asClient();

    for (let i = 0; i < 3; i++) {
      const response = await head(client, `/api/v1/search?q=${t}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      expect(response.headers.get("ratelimit-limit")).toBeNull();
      expect(await response.text()).toBe("");
    }
    expect(await receiptsNaming(domain)).toBe(0);

    // The first GET is the client's first counted search, and it does record its receipt.
    const get = await client(`/api/v1/search?q=${t}`);
    expect(get.status).toBe(200);
    expect(get.headers.get("ratelimit-remaining")).toBe("239");
    await get.body?.cancel();
    expect(await receiptsNaming(domain)).toBe(1);
  });

  it("validates as GET does: a bad parameter or header is a 400", async () => {
    const client = asClient();
    const badParameter = await head(client, "/api/v1/search?page=0");
    expect(badParameter.status).toBe(400);
    expect(badParameter.headers.get("content-type")).toBe("application/problem+json");
    const badHeader = await head(client, "/api/v1/search?q=x", { "X-SVC-Synthetic": "maybe" });
    expect(badHeader.status).toBe(400);
  });
});

describe("HEAD /api/v1/site/{domain}?search_id=", () => {
  it("records no selection, where GET records one", async () => {
    const t = uniqueToken();
    const domain = `picked-${t}.test`;
    await insertSites([{ domain, name: t }]);
    const client = asClient();
    const search = await searchOk(client, { q: t });
    const path = `/api/v1/site/${domain}?search_id=${search.search_id}`;
    const selections = () => sqlRows("select domain from result_selections where search_id = $1", [search.search_id]);

    const response = await head(client, path);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(await response.text()).toBe("");
    expect(await selections()).toEqual([]);

    const viewed = await client(path);
    expect(((await viewed.json()) as { selection_recorded: boolean }).selection_recorded).toBe(true);
    expect(await selections()).toEqual([{ domain }]);
  });

  it("still answers 404 for an unknown domain", async () => {
    const response = await head(asClient(), `/api/v1/site/unknown-${uniqueToken()}.test`);
    expect(response.status).toBe(404);
  });
});

describe("HEAD /api/v1/verify-mcp", () => {
  it("spends no live-verification quota", async () => {
    await awayFromWindowEdge(3600, 30);
    const client = asClient();
    const url = encodeURIComponent(fixture("nothing"));
    const response = await head(client, `/api/v1/verify-mcp?url=${url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("ratelimit-limit")).toBeNull();

    const get = await client(`/api/v1/verify-mcp?url=${url}`);
    expect(get.status).toBe(200);
    expect(get.headers.get("ratelimit-remaining")).toBe("19");
    await get.body?.cancel();
  });
});

describe("HEAD on every GET operation and page", () => {
  it("never spends quota: no HEAD reply carries RateLimit headers", async () => {
    const document = buildOpenApiDocument(createGroups());
    const apiPaths = Object.entries(document.paths ?? {})
      .filter(([, item]) => item.get)
      .map(([path]) => `/api/v1${path.replace("{domain}", "weather.example")}`);
    const pagePaths = ["/", "/docs", "/openapi.json", "/privacy", "/llms.txt", "/robots.txt", "/healthz"];
    expect(apiPaths).toEqual(expect.arrayContaining(["/api/v1/search", "/api/v1/verify-mcp"]));

    const client = asClient();
    for (const path of [...apiPaths, ...pagePaths]) {
      const query = path.endsWith("/verify-mcp") ? `?url=${encodeURIComponent(fixture("nothing"))}` : "";
      const response = await head(client, `${path}${query}`);
      expect(response.status, path).toBeLessThan(500);
      expect(response.headers.get("ratelimit-limit"), path).toBeNull();
    }
  });
});
