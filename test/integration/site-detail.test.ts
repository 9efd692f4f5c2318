/**
 * GET /api/v1/site/{domain}: the selected-site detail, domain normalisation, and result
 * selections recorded against a search receipt (with the action-interest sidecar they unlock).
 */
import { describe, expect, it } from "vitest";
import { DAY_SECONDS, insertReceipts } from "../support/receipts.ts";
import { expectedSidecar, searchOk } from "../support/search.ts";
import { expectedSiteRecord, insertScoreHistory, insertSites, sqlRows, uniqueToken } from "../support/sites.ts";
import { asClient, expectInvalid, expectProblem } from "../support/worker.ts";

type Detail = Record<string, unknown> & { selection_recorded: boolean; action_interest?: unknown };

async function detailOk(get: ReturnType<typeof asClient>, path: string): Promise<Detail> {
  const response = await get(path);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Detail;
}

/** A site found by a search of its own token; returns both. */
async function searchedSite(get: ReturnType<typeof asClient>, headers: Record<string, string> = {}) {
  const t = uniqueToken();
  const domain = `pick-${t}.test`;
  await insertSites([
    { domain, name: `${t} Pick`, agenticScore: 70 },
    { domain: `also-${t}.test`, name: `${t} Also`, agenticScore: 60 },
  ]);
  const search = await searchOk(get, { q: t }, headers);
  expect(search.results.map((site) => site.domain)).toContain(domain);
  return { t, domain, search };
}

async function selections(searchId: string) {
  return sqlRows<{ domain: string; synthetic: boolean; same_expiry: boolean }>(
    `select s.domain, s.synthetic, s.expires_at = r.expires_at as same_expiry
       from result_selections s join search_receipts r using (search_id)
      where s.search_id = $1 order by s.domain`,
    [searchId],
  );
}

describe("GET /api/v1/site/{domain}", () => {
  it("answers every Site field, score_version, signal evidence and the score history newest first", async () => {
    const t = uniqueToken();
    const evidence = {
      has_llms_txt: {
        status: "present",
        reason: "llms.txt served as text/plain",
        fetched: [{ url: `https://detail-${t}.test/llms.txt`, status: 200, content_type: "text/plain" }],
      },
      has_mcp_server: { status: "absent", reason: "no MCP endpoint answered", fetched: [] },
      has_openapi: {
        status: "error",
        reason: "timed out",
        fetched: [{ url: `https://detail-${t}.test/openapi.json`, status: null, content_type: null }],
      },
    } as const;
    const [site] = await insertSites([
      {
        domain: `detail-${t}.test`,
        name: `${t} Detail &amp; Co`,
        description: "A site with everything filled in.",
        hasLlmsTxt: true,
        hasSchemaOrg: true,
        agenticScore: 25,
        category: "health",
        tags: ["search"],
        isVerified: true,
        hasFavicon: true,
        faviconUrl: `https://detail-${t}.test/favicon.png`,
        signalEvidence: evidence as never,
        scoreVersion: 1,
      },
    ]);
    await insertScoreHistory(site!.id, [
      { agenticScore: 10, scoreVersion: 1, recordedAt: new Date("2026-01-01T00:00:00.000Z") },
      { agenticScore: 25, scoreVersion: 1, recordedAt: new Date("2026-03-01T00:00:00.000Z") },
      { agenticScore: 15, scoreVersion: 1, recordedAt: new Date("2026-02-01T12:30:00.250Z") },
    ]);

    const response = await asClient()(`/api/v1/site/detail-${t}.test`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    expect(await response.json()).toStrictEqual({
      ...expectedSiteRecord(site!),
      score_version: 1,
      signal_evidence: evidence,
      // Inserted without a crawl: no checklist yet, and nothing read of what agents can do.
      checks: [],
      capabilities: [],
      score_history: [
        { agentic_score: 25, score_version: 1, recorded_at: "2026-03-01T00:00:00.000Z" },
        { agentic_score: 15, score_version: 1, recorded_at: "2026-02-01T12:30:00.250Z" },
        { agentic_score: 10, score_version: 1, recorded_at: "2026-01-01T00:00:00.000Z" },
      ],
      selection_recorded: false,
    });
  });

  it("carries the checklist of the last crawl as checks and checks_summary", async () => {
    const t = uniqueToken();
    const domain = `checklist-${t}.test`;
    const checks = [
      {
        id: "robots_txt",
        category: "discoverability",
        status: "fail",
        title: "robots.txt",
        reason: "/robots.txt answered 404.",
        evidence: [{ url: `https://${domain}/robots.txt`, status: 404, content_type: "text/plain" }],
        fix: "Serve a robots.txt.\n\nUser-agent: *\nAllow: /",
        applies_to: ["content", "api", "store"],
      },
    ];
    const summary = {
      site_kind: "content",
      site_kind_reason: "No API was found.",
      applicable: 1,
      passing: 0,
      text: "0 of 1 check that applies to a content site pass",
      by_kind: {
        content: { applicable: 1, passing: 0 },
        api: { applicable: 1, passing: 0 },
        store: { applicable: 1, passing: 0 },
      },
    };
    // Stored as a crawl stores it: the checklist and its packed statuses (what the adoption
    // rollup counts) together.
    await insertSites([{ domain, url: `https://${domain}`, checklist: { checks, summary } }]);
    const response = await asClient()(`/api/v1/site/${domain}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ checks, checks_summary: summary });
  });

  it("answers an empty history and evidence for a site never re-scored", async () => {
    const t = uniqueToken();
    await insertSites([{ domain: `new-${t}.test`, name: t }]);
    const body = await detailOk(asClient(), `/api/v1/site/new-${t}.test`);
    expect(body).toMatchObject({ domain: `new-${t}.test`, score_history: [], signal_evidence: {}, score_version: 1 });
    expect(Object.hasOwn(body, "favicon_url")).toBe(false);
    expect(Object.hasOwn(body, "action_interest")).toBe(false);
  });

  it("normalises the domain: any case, a trailing dot", async () => {
    const t = uniqueToken();
    const get = asClient();
    await insertSites([{ domain: `norm-${t}.test`, name: t }]);
    for (const path of [`NORM-${t}.TEST`, `norm-${t}.test.`, `Norm-${t}.Test.`]) {
      expect((await detailOk(get, `/api/v1/site/${path}`)).domain).toBe(`norm-${t}.test`);
    }
  });

  it("answers 404 problem+json for a domain not indexed, or not a domain at all", async () => {
    const get = asClient();
    for (const path of [`missing-${uniqueToken()}.test`, "localhost", "127.0.0.1", "a..b"]) {
      const body = await expectProblem(await get(`/api/v1/site/${path}`), 404, "SITE_NOT_FOUND");
      expect(body.title).toBe("Site not found");
    }
  });
});

describe("GET /api/v1/site/{domain}?search_id= (result selection)", () => {
  it("records a selection of a returned result once, with a sidecar for that domain only", async () => {
    const get = asClient();
    const { domain, search } = await searchedSite(get);

    const response = await get(`/api/v1/site/${domain}?search_id=${search.search_id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const first = (await response.json()) as Detail;
    expect(first.selection_recorded).toBe(true);
    expect(first.action_interest).toEqual(
      expectedSidecar({ available: true, searchId: search.search_id, domains: [domain] }),
    );
    expect(await selections(search.search_id)).toEqual([{ domain, synthetic: false, same_expiry: true }]);

    // A repeat records nothing and offers nothing.
    const repeat = await detailOk(get, `/api/v1/site/${domain.toUpperCase()}?search_id=${search.search_id}`);
    expect(repeat.selection_recorded).toBe(false);
    expect(Object.hasOwn(repeat, "action_interest")).toBe(false);
    expect(await selections(search.search_id)).toHaveLength(1);
  });

  it("records nothing for a search that did not return the domain", async () => {
    const get = asClient();
    const { domain } = await searchedSite(get);
    const { search: foreign } = await searchedSite(get);

    const body = await detailOk(get, `/api/v1/site/${domain}?search_id=${foreign.search_id}`);
    expect(body.selection_recorded).toBe(false);
    expect(Object.hasOwn(body, "action_interest")).toBe(false);
    expect(await selections(foreign.search_id)).toEqual([]);

    // A well-formed id no search ever had is the same.
    const unknown = await detailOk(get, `/api/v1/site/${domain}?search_id=${"A".repeat(22)}`);
    expect(unknown.selection_recorded).toBe(false);
  });

  it("records nothing for a stale search", async () => {
    const get = asClient();
    const { domain } = await searchedSite(get);
    // Receipts are append-only: an expired one is inserted as such, returning an indexed domain.
    const [staleId] = await insertReceipts({ domain, count: 1, ageSeconds: 31 * DAY_SECONDS + 1 });
    const body = await detailOk(get, `/api/v1/site/${domain}?search_id=${staleId}`);
    expect(body.selection_recorded).toBe(false);
    expect(Object.hasOwn(body, "action_interest")).toBe(false);
    expect(await selections(staleId as string)).toEqual([]);
  });

  it("records a selection of a synthetic search without offering action interest", async () => {
    const get = asClient();
    const { domain, search } = await searchedSite(get, { "X-SVC-Synthetic": "true" });
    const body = await detailOk(get, `/api/v1/site/${domain}?search_id=${search.search_id}`);
    expect(body.selection_recorded).toBe(true);
    expect(Object.hasOwn(body, "action_interest")).toBe(false);
    expect(await selections(search.search_id)).toEqual([{ domain, synthetic: true, same_expiry: true }]);
  });

  it("answers 404 for an unknown domain even with a valid search_id, recording nothing", async () => {
    const get = asClient();
    const { t, search } = await searchedSite(get);
    await expectProblem(await get(`/api/v1/site/gone-${t}.test?search_id=${search.search_id}`), 404, "SITE_NOT_FOUND");
    expect(await selections(search.search_id)).toEqual([]);
  });

  it("refuses a malformed search_id or an unknown parameter with 400", async () => {
    const get = asClient();
    const { domain } = await searchedSite(get);
    for (const id of ["short", "A".repeat(23), `${"A".repeat(21)}=`, `${"A".repeat(21)}+`, ""]) {
      await expectInvalid(await get(`/api/v1/site/${domain}?search_id=${encodeURIComponent(id)}`), "query", [
        "search_id",
      ]);
    }
    await expectInvalid(await get(`/api/v1/site/${domain}?q=x`), "query", ["q"]);
  });
});
