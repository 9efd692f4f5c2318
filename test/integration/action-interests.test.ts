/**
 * POST /api/v1/action-interests: a query-free receipt of an attested principal interest in one
 * action on one returned organic result. Replays, conflicts, the indistinguishable 404s, body
 * validation, cross-origin browser refusal, the abuse limit and racing requests.
 */
import { describe, expect, it } from "vitest";
import { DAY_SECONDS, insertReceipts } from "../support/receipts.ts";
import { ACTION_TYPES, searchOk } from "../support/search.ts";
import { insertSites, sqlRows, uniqueToken } from "../support/sites.ts";
import {
  asClient,
  awayFromWindowEdge,
  expectInvalid,
  expectProblem,
  newClientIp,
  type ProblemBody,
} from "../support/worker.ts";

type Client = ReturnType<typeof asClient>;
type Receipt = Record<string, unknown> & { receipt_id: string; action_type: string };

const RECEIPT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function post(client: Client, body: unknown, headers: Record<string, string> = {}) {
  return client("/api/v1/action-interests", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function interest(searchId: string, domain: string, actionType = "quote"): Record<string, unknown> {
  return {
    search_id: searchId,
    domain,
    action_type: actionType,
    caller_attests_principal_interest: true,
    confirmation_version: "svc-action-interest-v1",
  };
}

/** Inserts two sites of a fresh token and searches for them. */
async function searched(client: Client, headers: Record<string, string> = {}) {
  const t = uniqueToken();
  const domain = `act-${t}.test`;
  const other = `other-${t}.test`;
  await insertSites([
    { domain, name: `${t} Act`, agenticScore: 80 },
    { domain: other, name: `${t} Other`, agenticScore: 40 },
  ]);
  const search = await searchOk(client, { q: t }, headers);
  expect(search.results.map((site) => site.domain)).toEqual([domain, other]);
  return { t, domain, other, searchId: search.search_id };
}

async function storedInterests(searchId: string) {
  return sqlRows<{ id: string; domain: string; action_type: string; confirmation_version: string }>(
    "select id, domain, action_type, confirmation_version from action_interest_receipts where search_id = $1",
    [searchId],
  );
}

describe("POST /api/v1/action-interests", () => {
  it("answers 201 with the receipt, then 200 with the identical body for an exact replay", async () => {
    const client = asClient();
    const { domain, searchId } = await searched(client);

    const created = await post(client, interest(searchId, domain, "demo"));
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("private, no-store");
    expect(created.headers.get("access-control-allow-origin")).toBeNull();
    const receipt = (await created.json()) as Receipt;
    const [source] = await sqlRows<{ expires_ms: string }>(
      "select floor(extract(epoch from expires_at) * 1000)::bigint::text as expires_ms from search_receipts where search_id = $1",
      [searchId],
    );
    expect(receipt).toStrictEqual({
      receipt_id: expect.stringMatching(RECEIPT_ID),
      search_id: searchId,
      domain,
      action_type: "demo",
      caller_attests_principal_interest: true,
      confirmation_version: "svc-action-interest-v1",
      recorded_at: expect.any(String),
      expires_at: new Date(Number(source!.expires_ms)).toISOString(),
      provider_contacted: false,
      ticket_created: false,
      charge_created: false,
      commercial_proof: false,
      organic_rank_affected: false,
    });
    expect(Math.abs(Date.parse(receipt.recorded_at as string) - Date.now())).toBeLessThan(5 * 60_000);
    expect(await storedInterests(searchId)).toEqual([
      { id: receipt.receipt_id, domain, action_type: "demo", confirmation_version: "svc-action-interest-v1" },
    ]);

    const replay = await post(client, interest(searchId, domain, "demo"));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toStrictEqual(receipt);

    // The domain as typed (any case, trailing dot) names the same result.
    const typed = await post(client, interest(searchId, `${domain.toUpperCase()}.`, "demo"));
    expect(typed.status).toBe(200);
    expect(await typed.json()).toStrictEqual(receipt);
    expect(await storedInterests(searchId)).toHaveLength(1);
  });

  it("answers 409 when the result already recorded a different action, and keeps the first", async () => {
    const client = asClient();
    const { domain, other, searchId } = await searched(client);
    expect((await post(client, interest(searchId, domain, "trial"))).status).toBe(201);

    const conflict = await expectProblem(
      await post(client, interest(searchId, domain, "purchase")),
      409,
      "ACTION_INTEREST_CONFLICT",
    );
    expect(conflict.title).toBe("Action interest conflict");
    expect(await storedInterests(searchId)).toMatchObject([{ domain, action_type: "trial" }]);

    // Another returned result of the same search takes its own action.
    expect((await post(client, interest(searchId, other, "purchase"))).status).toBe(201);
    expect(await storedInterests(searchId)).toHaveLength(2);
  });

  it("accepts every action type", async () => {
    const client = asClient();
    const t = uniqueToken();
    await insertSites(ACTION_TYPES.map((type) => ({ domain: `${type}-${t}.test`, name: t })));
    const { search_id: searchId } = await searchOk(client, { q: t });
    for (const type of ACTION_TYPES) {
      expect((await post(client, interest(searchId, `${type}-${t}.test`, type))).status).toBe(201);
    }
    expect((await storedInterests(searchId)).map((row) => row.action_type).sort()).toEqual([...ACTION_TYPES].sort());
  });

  it("answers one indistinguishable 404 for missing, stale, synthetic and not-returned sources", async () => {
    const client = asClient();
    const fresh = await searched(client);
    const staleSite = await searched(client);
    // Receipts are append-only: an expired one is inserted as such, returning an indexed domain.
    const [staleId] = await insertReceipts({ domain: staleSite.domain, count: 1, ageSeconds: 30 * DAY_SECONDS + 1 });
    const stale = { ...staleSite, searchId: staleId as string };
    const synthetic = await searched(client, { "X-SVC-Synthetic": "true" });
    const indexedElsewhere = await searched(client);

    const attempts = [
      interest("B".repeat(22), fresh.domain),
      interest(stale.searchId, stale.domain),
      interest(synthetic.searchId, synthetic.domain),
      interest(fresh.searchId, indexedElsewhere.domain),
      interest(fresh.searchId, `never-indexed-${fresh.t}.test`),
      interest(fresh.searchId, "not a domain"),
    ];
    const bodies: ProblemBody[] = [];
    for (const attempt of attempts) {
      bodies.push(await expectProblem(await post(client, attempt), 404, "ACTION_INTEREST_SOURCE_UNAVAILABLE"));
    }
    const withoutRequestId = bodies.map(({ request_id: _id, ...rest }) => rest);
    for (const body of withoutRequestId) expect(body).toStrictEqual(withoutRequestId[0]);
    expect(new Set(bodies.map((body) => body.request_id)).size).toBe(bodies.length);

    for (const source of [stale, synthetic]) expect(await storedInterests(source.searchId)).toEqual([]);
    expect(await storedInterests(fresh.searchId)).toEqual([]);
  });

  it("refuses malformed bodies with 400 naming the field", async () => {
    const client = asClient();
    const { domain, searchId } = await searched(client);
    const valid = interest(searchId, domain);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ...valid, query: "plumbers near me" }, ["query"]],
      [{ ...valid, email: "someone@example.com" }, ["email"]],
      [{ ...valid, prompt: "x", agent_id: "y" }, ["prompt", "agent_id"]],
      [{ ...valid, search_id: undefined }, ["search_id"]],
      [{ ...valid, domain: undefined }, ["domain"]],
      [{ ...valid, action_type: undefined }, ["action_type"]],
      [{ ...valid, caller_attests_principal_interest: undefined }, ["caller_attests_principal_interest"]],
      [{ ...valid, confirmation_version: undefined }, ["confirmation_version"]],
      [{ ...valid, caller_attests_principal_interest: false }, ["caller_attests_principal_interest"]],
      [{ ...valid, caller_attests_principal_interest: "true" }, ["caller_attests_principal_interest"]],
      [{ ...valid, confirmation_version: "svc-action-interest-v2" }, ["confirmation_version"]],
      [{ ...valid, action_type: "subscribe" }, ["action_type"]],
      [{ ...valid, search_id: "not-a-search-id" }, ["search_id"]],
      [{ ...valid, domain: "" }, ["domain"]],
    ];
    for (const [body, fields] of cases) {
      await expectInvalid(await post(client, body), "body", fields);
    }
    expect(await storedInterests(searchId)).toEqual([]);
  });

  it("refuses invalid JSON, a body that is not an object, and a body without a JSON content type", async () => {
    const client = asClient();
    const { domain, searchId } = await searched(client);

    const invalid = await expectProblem(await post(client, '{"search_id": '), 400, "INVALID_JSON");
    expect(invalid.title).toBe("Invalid JSON");
    await expectProblem(await post(client, "[]"), 400, "VALIDATION_FAILED");

    const json = JSON.stringify(interest(searchId, domain));
    for (const headers of [{ "Content-Type": "text/plain" }, { "Content-Type": "application/x-www-form-urlencoded" }]) {
      const response = await client("/api/v1/action-interests", { method: "POST", headers, body: json });
      await expectProblem(response, 400, "INVALID_CONTENT_TYPE");
    }
    const untyped = await client("/api/v1/action-interests", { method: "POST", body: new TextEncoder().encode(json) });
    await expectProblem(untyped, 400, "INVALID_CONTENT_TYPE");
    expect(await storedInterests(searchId)).toEqual([]);
  });

  it("refuses cross-origin browser requests with 403, and accepts native agents and its own origin", async () => {
    const client = asClient();
    const { domain, other, searchId } = await searched(client);
    const refusedHeaders: Record<string, string>[] = [
      { Origin: "https://other.example" },
      { Origin: "null" },
      { Origin: "http://svc.test.other.example" },
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
      { Origin: "http://svc.test", "Sec-Fetch-Site": "cross-site" },
    ];
    for (const headers of refusedHeaders) {
      const response = await post(client, interest(searchId, domain), headers);
      const body = await expectProblem(response, 403, "CROSS_ORIGIN_MUTATION");
      expect(body.title).toMatch(/cross-origin/i);
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
    }
    expect(await storedInterests(searchId)).toEqual([]);

    // A preflight never allows the mutation, so browsers on other sites cannot send it with JSON.
    const preflight = await client("/api/v1/action-interests", {
      method: "OPTIONS",
      headers: {
        Origin: "https://other.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
      },
    });
    expect(preflight.headers.get("access-control-allow-methods")).not.toContain("POST");

    expect(
      (await post(client, interest(searchId, domain), { "Content-Type": "application/json; charset=utf-8" })).status,
    ).toBe(201);
    const own = await post(client, interest(searchId, other), {
      Origin: "http://svc.test",
      "Sec-Fetch-Site": "same-origin",
    });
    expect(own.status).toBe(201);
  });

  it("answers 429 with Retry-After after 60 requests an hour from one client", async () => {
    await awayFromWindowEdge(3600, 30);
    const client = asClient(newClientIp());
    const missing = () => interest(uniqueToken().padEnd(22, "x").slice(0, 22), "nowhere.test");
    for (let batch = 0; batch < 3; batch++) {
      const responses = await Promise.all(Array.from({ length: 20 }, () => post(client, missing())));
      for (const response of responses) {
        expect(response.status).toBe(404);
        expect(response.headers.get("ratelimit-limit")).toBe("60");
        await response.body?.cancel();
      }
    }
    const refused = await post(client, missing());
    const body = await expectProblem(refused, 429, "RATE_LIMITED");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(body.retry_after_seconds).toBe(retryAfter);

    // Another client is unaffected.
    expect((await post(asClient(), missing())).status).toBe(404);
  }, 90_000);
});

describe("POST /api/v1/action-interests under concurrency", () => {
  it("answers twelve identical racing requests with exactly one 201 and eleven identical 200s", async () => {
    const client = asClient();
    const { domain, searchId } = await searched(client);
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => post(client, interest(searchId, domain, "booking"))),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const bodies = await Promise.all(responses.map((response) => response.json()));
    for (const body of bodies) expect(body).toStrictEqual(bodies[0]);
    expect(await storedInterests(searchId)).toHaveLength(1);
  });

  it("lets exactly one of racing conflicting requests win; the rest are 409 or replays of the winner", async () => {
    const client = asClient();
    const { domain, searchId } = await searched(client);
    const types = [...ACTION_TYPES, ...ACTION_TYPES];
    const responses = await Promise.all(types.map((type) => post(client, interest(searchId, domain, type))));
    const winners = responses.filter((response) => response.status === 201);
    expect(winners).toHaveLength(1);
    const winner = (await winners[0]!.json()) as Receipt;

    responses.forEach((response, i) => {
      if (response.status === 201) return;
      const expected = types[i] === winner.action_type ? 200 : 409;
      expect(response.status, `${types[i]} after ${winner.action_type}`).toBe(expected);
    });
    const stored = await storedInterests(searchId);
    expect(stored).toEqual([
      {
        id: winner.receipt_id,
        domain,
        action_type: winner.action_type,
        confirmation_version: "svc-action-interest-v1",
      },
    ]);
  });
});
