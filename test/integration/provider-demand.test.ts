/**
 * GET /provider/demand as a provider's server calls it, and the retention purge as its cron runs
 * it: every field, the thresholds at 19, 20 and 21 receipts, suppression, the no-differencing
 * rule (overlapping windows, summary minus visible rows), synthetic and expired receipts never
 * counted, every status, the query never stored, and the purge through the scheduled handler.
 * Receipts are inserted by SQL at the ages a case needs (test/support/receipts.ts).
 */
import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app.ts";
import { createGroups } from "../../src/routes/groups.ts";
import { insertSession, insertVerifiedClaim, keyClient, OWN_ORIGIN, sessionClient } from "../support/accounts.ts";
import worker from "../support/all-in-one-jobs.ts";
import { startTestFaultProxy, type TestFaultProxy } from "../support/fault-proxy.ts";
import { DAY_SECONDS, insertReceipts } from "../support/receipts.ts";
import { searchOk } from "../support/search.ts";
import { runSecurityCases } from "../support/security-cases.ts";
import { insertSites, sqlRows, uniqueToken } from "../support/sites.ts";
import { asClient, awayFromWindowEdge, expectInvalid, expectProblem, newClientIp } from "../support/worker.ts";

const bindings = env as unknown as Record<string, string>;

interface Counted {
  result_selections: number | null;
  result_selection_suppressed: boolean;
  action_interest_receipts: number | null;
  action_interest_suppressed: boolean;
}
interface DemandBody {
  demand: {
    domain: string;
    days: number;
    retention_days: number;
    action_interest_cohort: string;
    topic_receipt_threshold: number;
    result_selection_receipt_threshold: number;
    action_interest_receipt_threshold: number;
    synthetic_excluded: boolean;
    summary: Counted & {
      organic_results_returned: number;
      search_receipts: number;
      average_organic_position: number;
      result_selection_rate: number | null;
      action_interest_rate: number | null;
    };
    surfaces: (Counted & { surface: string; organic_results_returned: number })[];
    demand_topics: (Counted & { topic: string; search_receipts: number; average_organic_position: number })[];
    action_types: { action_type: string; receipt_count: number }[];
  };
  evidence_scope: string;
}

const demandCall = (key: string, query = "") => keyClient(key)(`/api/v1/provider/demand${query}`);

async function demandOk(key: string, query = ""): Promise<DemandBody["demand"]> {
  const response = await demandCall(key, query);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as DemandBody).demand;
}

/** A verified claim with a key; its domain has no receipts yet. */
const newClaim = () => insertVerifiedClaim();

const surfaceOf = (demand: DemandBody["demand"], surface: string) =>
  demand.surfaces.find((row) => row.surface === surface);
const hidden = { result_selections: null, result_selection_suppressed: true } as const;
const noInterest = { action_interest_receipts: null, action_interest_suppressed: true } as const;

describe("GET /provider/demand: the answer", () => {
  it("answers every field for the claim's own domain, private and never cached", async () => {
    const claim = await newClaim();
    await insertReceipts({
      domain: claim.domain,
      count: 21,
      topic: "payments",
      position: 2,
      selections: 20,
      interests: 20,
      actionType: "quote",
    });
    // Another domain's demand is never counted.
    await insertReceipts({ domain: `elsewhere-${uniqueToken()}.example`, count: 40, topic: "payments" });

    const response = await demandCall(claim.key);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const body = (await response.json()) as DemandBody;
    expect(Object.keys(body).sort()).toEqual(["demand", "evidence_scope"]);
    expect(body.evidence_scope).toMatch(/^authenticated_claim_domain_only/);
    expect(body.demand).toEqual({
      domain: claim.domain,
      days: 30,
      retention_days: 30,
      action_interest_cohort: "source_search_in_window",
      topic_receipt_threshold: 20,
      result_selection_receipt_threshold: 20,
      action_interest_receipt_threshold: 20,
      synthetic_excluded: true,
      summary: {
        organic_results_returned: 21,
        search_receipts: 21,
        average_organic_position: 2,
        result_selections: 20,
        result_selection_rate: 0.9524,
        result_selection_suppressed: false,
        action_interest_receipts: 20,
        action_interest_rate: 0.9524,
        action_interest_suppressed: false,
      },
      surfaces: [
        { surface: "web", organic_results_returned: 0, ...hidden, ...noInterest },
        {
          surface: "rest",
          organic_results_returned: 21,
          result_selections: 20,
          result_selection_suppressed: false,
          action_interest_receipts: 20,
          action_interest_suppressed: false,
        },
        { surface: "mcp", organic_results_returned: 0, ...hidden, ...noInterest },
        { surface: "unknown", organic_results_returned: 0, ...hidden, ...noInterest },
      ],
      demand_topics: [
        {
          topic: "payments",
          search_receipts: 21,
          average_organic_position: 2,
          result_selections: 20,
          result_selection_suppressed: false,
          action_interest_receipts: 20,
          action_interest_suppressed: false,
        },
      ],
      action_types: [{ action_type: "quote", receipt_count: 20 }],
    });
    const text = JSON.stringify(body);
    expect(text).not.toContain(claim.key);
    expect(text).not.toContain("search_id");
  });

  it("answers zeros and suppressions for a domain nobody searched", async () => {
    const claim = await newClaim();
    const demand = await demandOk(claim.key, "?days=1");
    expect(demand.days).toBe(1);
    expect(demand.summary).toEqual({
      organic_results_returned: 0,
      search_receipts: 0,
      average_organic_position: 0,
      result_selections: null,
      result_selection_rate: null,
      result_selection_suppressed: true,
      action_interest_receipts: null,
      action_interest_rate: null,
      action_interest_suppressed: true,
    });
    expect(demand.demand_topics).toEqual([]);
    expect(demand.action_types).toEqual([]);
  });

  it.each([19, 20, 21])("treats %i receipts at every threshold edge", async (count) => {
    const claim = await newClaim();
    await insertReceipts({
      domain: claim.domain,
      count,
      topic: "jobs",
      surface: "mcp",
      selections: count,
      interests: count,
      actionType: "trial",
    });
    const demand = await demandOk(claim.key);
    expect(demand.summary.search_receipts).toBe(count);
    expect(surfaceOf(demand, "mcp")?.organic_results_returned).toBe(count);
    if (count < 20) {
      expect(demand.summary).toMatchObject({
        ...hidden,
        ...noInterest,
        result_selection_rate: null,
        action_interest_rate: null,
      });
      expect(surfaceOf(demand, "mcp")).toMatchObject({ ...hidden, ...noInterest });
      expect(demand.demand_topics).toEqual([]);
      expect(demand.action_types).toEqual([]);
    } else {
      expect(demand.summary).toMatchObject({
        result_selections: count,
        result_selection_rate: 1,
        result_selection_suppressed: false,
        action_interest_receipts: count,
        action_interest_rate: 1,
        action_interest_suppressed: false,
      });
      expect(surfaceOf(demand, "mcp")).toMatchObject({ result_selections: count, action_interest_receipts: count });
      expect(demand.demand_topics).toEqual([
        {
          topic: "jobs",
          search_receipts: count,
          average_organic_position: 1,
          result_selections: count,
          result_selection_suppressed: false,
          action_interest_receipts: count,
          action_interest_suppressed: false,
        },
      ]);
      expect(demand.action_types).toEqual([{ action_type: "trial", receipt_count: count }]);
    }
  });

  it("suppresses selections and interests below their thresholds while the organic counts stay reported", async () => {
    const claim = await newClaim();
    await insertReceipts({ domain: claim.domain, count: 30, topic: "email", selections: 19, interests: 5 });
    const demand = await demandOk(claim.key);
    expect(demand.summary).toMatchObject({ organic_results_returned: 30, ...hidden, ...noInterest });
    expect(demand.demand_topics).toEqual([
      expect.objectContaining({ topic: "email", search_receipts: 30, ...hidden, ...noInterest }),
    ]);
    expect(demand.action_types).toEqual([]);
  });

  it("never counts synthetic receipts, their selections or interests", async () => {
    const claim = await newClaim();
    await insertReceipts({ domain: claim.domain, count: 20, topic: "news", selections: 20 });
    await insertReceipts({ domain: claim.domain, count: 30, topic: "news", synthetic: true, selections: 30 });
    const demand = await demandOk(claim.key);
    expect(demand.synthetic_excluded).toBe(true);
    expect(demand.summary).toMatchObject({ search_receipts: 20, result_selections: 20 });
    expect(demand.demand_topics).toEqual([expect.objectContaining({ topic: "news", search_receipts: 20 })]);
  });

  it("never counts an expired receipt, even before the purge removed it", async () => {
    const claim = await newClaim();
    await insertReceipts({ domain: claim.domain, count: 25, ageSeconds: 30 * DAY_SECONDS + 5, selections: 25 });
    await insertReceipts({ domain: claim.domain, count: 3, ageSeconds: 29 * DAY_SECONDS });
    const demand = await demandOk(claim.key);
    expect(demand.summary).toMatchObject({ search_receipts: 3, ...hidden });
    expect(demand.demand_topics).toEqual([]);
  });

  it("counts whole UTC days: days = 1 is today, days = 30 today and the 29 days before", async () => {
    const claim = await newClaim();
    await insertReceipts({ domain: claim.domain, count: 2, ageSeconds: 0 });
    await insertReceipts({ domain: claim.domain, count: 3, ageSeconds: DAY_SECONDS });
    await insertReceipts({ domain: claim.domain, count: 4, ageSeconds: 29 * DAY_SECONDS });
    const counts: Record<string, number> = {};
    for (const days of [1, 2, 29, 30]) {
      counts[days] = (await demandOk(claim.key, `?days=${days}`)).summary.search_receipts;
    }
    expect(counts).toEqual({ 1: 2, 2: 5, 29: 5, 30: 9 });
  });
});

describe("GET /provider/demand: no differencing", () => {
  it("never lets two overlapping windows reveal a count below the threshold", async () => {
    const claim = await newClaim();
    // 20 searches today, 3 ten days ago, all weather, all selected and all with a quote interest.
    await insertReceipts({ domain: claim.domain, count: 20, topic: "weather", selections: 20, interests: 20 });
    await insertReceipts({
      domain: claim.domain,
      count: 3,
      ageSeconds: 10 * DAY_SECONDS,
      topic: "weather",
      selections: 3,
      interests: 3,
    });
    const all = await demandOk(claim.key, "?days=30");
    expect(all.summary).toMatchObject({ search_receipts: 23, result_selections: 23, action_interest_receipts: 23 });
    expect(all.demand_topics).toEqual([expect.objectContaining({ topic: "weather", search_receipts: 23 })]);
    expect(all.action_types).toEqual([{ action_type: "quote", receipt_count: 23 }]);

    // Any window that would hold the 20 only would, subtracted from 23, give the 3 away.
    for (const days of [1, 5, 10]) {
      const recent = await demandOk(claim.key, `?days=${days}`);
      expect(recent.summary).toMatchObject({ search_receipts: 20, ...hidden, ...noInterest });
      expect(recent.demand_topics).toEqual([]);
      expect(recent.action_types).toEqual([]);
    }
    const eleven = await demandOk(claim.key, "?days=11");
    expect(eleven.summary).toMatchObject({ result_selections: 23, action_interest_receipts: 23 });
  });

  it("publishes windows that differ by at least the threshold", async () => {
    const claim = await newClaim();
    await insertReceipts({ domain: claim.domain, count: 20, topic: "video", selections: 20 });
    await insertReceipts({
      domain: claim.domain,
      count: 20,
      ageSeconds: 5 * DAY_SECONDS,
      topic: "video",
      selections: 20,
    });
    expect((await demandOk(claim.key, "?days=30")).summary.result_selections).toBe(40);
    expect((await demandOk(claim.key, "?days=1")).summary.result_selections).toBe(20);
  });

  it("never lets the summary minus the visible topic rows reveal a hidden topic's count", async () => {
    const claim = await newClaim();
    await insertReceipts({ domain: claim.domain, count: 21, topic: "maps" });
    await insertReceipts({ domain: claim.domain, count: 4, topic: "audio" });
    const demand = await demandOk(claim.key);
    // 25 - 21 would be the 4 audio searches: the maps row goes too.
    expect(demand.summary.search_receipts).toBe(25);
    expect(demand.demand_topics).toEqual([]);

    const control = await newClaim();
    await insertReceipts({ domain: control.domain, count: 21, topic: "maps" });
    await insertReceipts({ domain: control.domain, count: 20, topic: "audio" });
    const shown = await demandOk(control.key);
    expect(shown.demand_topics.map((row) => [row.topic, row.search_receipts])).toEqual([
      ["maps", 21],
      ["audio", 20],
    ]);
  });

  it("never lets the summary minus the visible surface or action rows reveal a hidden count", async () => {
    const claim = await newClaim();
    await insertReceipts({ domain: claim.domain, count: 21, surface: "rest", selections: 21, interests: 21 });
    await insertReceipts({
      domain: claim.domain,
      count: 4,
      surface: "web",
      selections: 4,
      interests: 4,
      actionType: "demo",
    });
    const demand = await demandOk(claim.key);
    expect(demand.summary).toMatchObject({ result_selections: 25, action_interest_receipts: 25 });
    // rest alone would leave 4 for web: it is suppressed too.
    expect(surfaceOf(demand, "rest")).toMatchObject({ organic_results_returned: 21, ...hidden, ...noInterest });
    expect(surfaceOf(demand, "web")).toMatchObject({ organic_results_returned: 4, ...hidden, ...noInterest });
    // quote 21 would leave the 4 demo interests: no action row.
    expect(demand.action_types).toEqual([]);
    const visible = demand.surfaces.reduce((sum, row) => sum + (row.result_selections ?? 0), 0);
    const remainder = (demand.summary.result_selections ?? 0) - visible;
    expect(remainder === 0 || remainder >= 20).toBe(true);
  });
});

describe("GET /provider/demand: the key", () => {
  let ownDomain = "";
  let otherDomain = "";
  const client = asClient();
  runSecurityCases(
    {
      name: "GET /api/v1/provider/demand",
      scheme: "provider_key",
      mutation: false,
      okStatus: 200,
      staleStatus: 404,
      async setup() {
        const owner = await insertSession();
        const own = await insertVerifiedClaim({ accountId: owner.accountId });
        ownDomain = own.domain;
        await insertReceipts({ domain: own.domain, count: 20 });
        const rotated = await sessionClient(owner.token)(`/api/v1/provider/claims/${own.claimId}/keys/rotate`, {
          method: "POST",
        });
        const { provider_key: valid } = (await rotated.json()) as { provider_key: string };
        const other = await insertVerifiedClaim();
        otherDomain = other.domain;
        const stale = await insertVerifiedClaim({ lastSucceededSecondsAgo: 604_800 });
        return { valid, revoked: own.key, otherOwner: other.key, stale: stale.key };
      },
      send: (headers) => client("/api/v1/provider/demand", { headers }),
      async expectOtherOwner(response) {
        // Another claim's key reads its own domain's demand, never this one's.
        expect(response.status).toBe(200);
        const { demand } = (await response.json()) as DemandBody;
        expect(demand.domain).toBe(otherDomain);
        expect(demand.domain).not.toBe(ownDomain);
        expect(demand.summary.search_receipts).toBe(0);
      },
    },
    { ownOrigin: OWN_ORIGIN },
  );
});

describe("GET /provider/demand: statuses", () => {
  it("answers 400 for a days outside 1 to 30, or any other parameter (the domain cannot be named)", async () => {
    const claim = await newClaim();
    for (const days of ["0", "31", "-1", "2.5", "ten", ""]) {
      await expectInvalid(await demandCall(claim.key, `?days=${days}`), "query", ["days"]);
    }
    await expectInvalid(await demandCall(claim.key, "?domain=example.com"), "query", ["domain"]);
    for (const days of ["1", "30"]) expect((await demandCall(claim.key, `?days=${days}`)).status).toBe(200);
  });

  it("answers 401 without a valid active key", async () => {
    await expectProblem(await asClient()("/api/v1/provider/demand"), 401, "PROVIDER_KEY_REQUIRED");
    await expectProblem(await demandCall(`svcpk_${"A".repeat(43)}`), 401, "PROVIDER_KEY_REQUIRED");
    await expectProblem(await demandCall("not a key"), 401, "PROVIDER_KEY_REQUIRED");
  });

  it("answers 404 when the claim is no longer verified and fresh", async () => {
    const stale = await insertVerifiedClaim({ lastSucceededSecondsAgo: 604_800 });
    await expectProblem(await demandCall(stale.key), 404, "CLAIM_NOT_FRESH");
  });

  it("reads at most 240 times an hour per key, in a window apart from pilot status", async () => {
    await awayFromWindowEdge(3600, 40);
    const claim = await newClaim();
    for (let batch = 0; batch < 6; batch++) {
      const responses = await Promise.all(Array.from({ length: 40 }, () => demandCall(claim.key, "?days=1")));
      for (const response of responses) {
        expect(response.status).toBe(200);
        await response.body?.cancel();
      }
    }
    const refused = await expectProblem(await demandCall(claim.key), 429, "RATE_LIMITED");
    expect(refused.limit).toBe(240);
    // Pilot status is another read surface with its own 240.
    expect((await keyClient(claim.key)("/api/v1/provider/pilot-status")).status).toBe(200);
    expect((await demandCall((await newClaim()).key)).status).toBe(200);
  }, 90_000);

  describe("with the database unreachable", () => {
    let proxy: TestFaultProxy | undefined;
    afterEach(async () => {
      await proxy?.stop();
      proxy = undefined;
    });

    it("answers 503 PROVIDER_AUTH_UNAVAILABLE: the key cannot be checked", async () => {
      const claim = await newClaim();
      const url = new URL(bindings.DATABASE_URL as string);
      proxy = await startTestFaultProxy(`http://${url.host}`);
      await proxy.setMode("refuse");
      const app = createApp(createGroups());
      const response = await app.fetch(
        new Request("http://svc.test/api/v1/provider/demand", {
          headers: { "X-SVC-Provider-Key": claim.key, "CF-Connecting-IP": newClientIp() },
        }),
        { ...bindings, DATABASE_URL: `postgres://local:local@127.0.0.1:${proxy.port}/local` },
      );
      await expectProblem(response, 503, "PROVIDER_AUTH_UNAVAILABLE");
    });
  });
});

describe("the daily rows", () => {
  it("count every one of many concurrent searches exactly once, and never a synthetic one", async () => {
    const t = uniqueToken();
    const domains = [`a-${t}.example`, `b-${t}.example`, `c-${t}.example`];
    await insertSites(domains.map((domain, index) => ({ domain, name: `${t} payments`, agenticScore: 90 - index })));
    const searches = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        searchOk(asClient(), { q: `${t} payments` }, index % 4 === 3 ? { "X-SVC-Synthetic": "true" } : {}),
      ),
    );
    for (const search of searches) expect(search.receipt_recorded).toBe(true);
    const rows = await sqlRows<{ domain: string; results: number; position_sum: number; topic: string }>(
      `select domain, sum(results)::int as results, sum(position_sum)::int as position_sum, min(topic) as topic
         from demand_daily where domain = any($1) group by domain order by domain`,
      [domains],
    );
    expect(rows).toEqual(
      domains.map((domain, index) => ({ domain, results: 12, position_sum: 12 * (index + 1), topic: "payments" })),
    );
  });
});

describe("the query is never stored", () => {
  it("leaves a searched string in no table, no log line and no Redis key, on every surface", async () => {
    const t = uniqueToken();
    // An indexed site the searches find, so results, receipts and selections are all written.
    await insertSites([{ domain: `found-${t}.example`, name: "Payments helper" }]);
    const secret = `${uniqueToken()}x${uniqueToken()}`;
    const query = `payments ${secret}`;
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(args.map((arg) => (arg instanceof Error ? `${arg.message} ${arg.stack}` : String(arg))).join(" "));
      }),
    );
    try {
      const client = asClient();
      const rest = await searchOk(client, { q: query });
      expect(rest.receipt_recorded).toBe(true);
      const page = await client(`/search?q=${encodeURIComponent(query)}`);
      expect(page.status).toBe(200);
      await page.body?.cancel();
      const mcp = await client("/mcp", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "search_sites", arguments: { q: query } },
        }),
      });
      expect(mcp.status).toBe(200);
      await mcp.body?.cancel();
      const [receipt] = await sqlRows<{ topic: string }>("select topic from search_receipts where search_id = $1", [
        rest.search_id,
      ]);
      expect(receipt?.topic).toBe("payments");
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(logged.filter((line) => line.includes(secret))).toEqual([]);

    const tables = await sqlRows<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    expect(tables.map((row) => row.table_name)).toContain("search_receipts");
    for (const { table_name } of tables) {
      const [found] = await sqlRows<{ n: number }>(
        `select count(*)::int as n from "${table_name}" as row where row::text ilike $1`,
        [`%${secret}%`],
      );
      expect(found?.n, table_name).toBe(0);
    }

    const redis = await fetch(bindings.UPSTASH_REDIS_REST_URL as string, {
      method: "POST",
      headers: { Authorization: `Bearer ${bindings.UPSTASH_REDIS_REST_TOKEN}` },
      body: JSON.stringify(["KEYS", `*${secret}*`]),
    });
    expect(redis.status).toBe(200);
    expect(((await redis.json()) as { result: string[] }).result).toEqual([]);
  });
});

describe("the retention purge", () => {
  const runPurge = async () => {
    await worker.scheduled(
      createScheduledController({ cron: "40 3 * * *", scheduledTime: Date.now() }),
      env,
      createExecutionContext(),
    );
  };
  const remaining = async (ids: string[]) => {
    const [row] = await sqlRows<{ receipts: number; results: number; selections: number; interests: number }>(
      `select (select count(*)::int from search_receipts where search_id = any($1)) as receipts,
              (select count(*)::int from search_receipt_results where search_id = any($1)) as results,
              (select count(*)::int from result_selections where search_id = any($1)) as selections,
              (select count(*)::int from action_interest_receipts where search_id = any($1)) as interests`,
      [ids],
    );
    return row;
  };

  it("deletes expired receipts, results, selections and interests through its scheduled handler, and nothing live", async () => {
    const domain = `purge-${uniqueToken()}.example`;
    const expired = await insertReceipts({
      domain,
      count: 30,
      ageSeconds: 30 * DAY_SECONDS + 10,
      selections: 30,
      interests: 30,
    });
    const live = await insertReceipts({ domain, count: 5, ageSeconds: 29 * DAY_SECONDS, selections: 5, interests: 5 });
    expect(await remaining(expired)).toEqual({ receipts: 30, results: 30, selections: 30, interests: 30 });

    await runPurge();
    expect(await remaining(expired)).toEqual({ receipts: 0, results: 0, selections: 0, interests: 0 });
    expect(await remaining(live)).toEqual({ receipts: 5, results: 5, selections: 5, interests: 5 });
    // A second run at once finds nothing more to do.
    await runPurge();
    expect(await remaining(live)).toEqual({ receipts: 5, results: 5, selections: 5, interests: 5 });
  });

  it("purges in bounded batches: one call deletes at most its limit per table", async () => {
    const domain = `batch-${uniqueToken()}.example`;
    const expired = await insertReceipts({ domain, count: 7, ageSeconds: 31 * DAY_SECONDS });
    const daily = () => sqlRows("select day from demand_daily where domain = $1", [domain]);
    expect(await daily()).toHaveLength(1);
    const [first] = await sqlRows<{ deleted: number }>(
      "select deleted::int from retention_purge(2) where table_name = 'search_receipts'",
    );
    expect(first?.deleted).toBeLessThanOrEqual(2);
    await runPurge();
    expect(await remaining(expired)).toMatchObject({ receipts: 0, results: 0 });
    // Its day is past every window: the daily row goes too.
    expect(await daily()).toEqual([]);
  });

  it("is the only way anything leaves: updates, deletes and truncates of receipts are refused", async () => {
    const domain = `guard-${uniqueToken()}.example`;
    const [live] = await insertReceipts({ domain, count: 1, selections: 1, interests: 1 });
    const [expired] = await insertReceipts({ domain, count: 1, ageSeconds: 31 * DAY_SECONDS });
    for (const statement of [
      "update search_receipts set synthetic = true where search_id = $1",
      "delete from search_receipts where search_id = $1",
      "update search_receipt_results set position = 9 where search_id = $1",
      "delete from search_receipt_results where search_id = $1",
      "update result_selections set synthetic = true where search_id = $1",
      "delete from result_selections where search_id = $1",
      "update action_interest_receipts set action_type = 'demo' where search_id = $1",
      "delete from action_interest_receipts where search_id = $1",
    ]) {
      await expect(sqlRows(statement, [live]), statement).rejects.toThrow(/append-only/);
    }
    // Even an expired row does not leave by a plain DELETE.
    await expect(sqlRows("delete from search_receipts where search_id = $1", [expired])).rejects.toThrow(/append-only/);
    await expect(sqlRows("truncate search_receipts cascade")).rejects.toThrow(/append-only/);
    expect(await remaining([live as string])).toEqual({ receipts: 1, results: 1, selections: 1, interests: 1 });
  });
});
