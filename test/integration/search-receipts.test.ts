/**
 * The query-free receipt every search writes, the action-interest sidecar built on it, synthetic
 * searches, and what a search answers when its receipt cannot be written.
 */
import { describe, expect, it } from "vitest";
import { domainsOf, expectedSidecar, SEARCH_ID_FORMAT, searchOk } from "../support/search.ts";
import { insertSites, sqlRows, uniqueToken } from "../support/sites.ts";
import { asClient, expectInvalid } from "../support/worker.ts";

describe("search receipts", () => {
  it("records the receipt and the returned domains with their positions", async () => {
    const t = uniqueToken();
    const get = asClient();
    await insertSites([
      { domain: `a-${t}.test`, name: t, agenticScore: 90 },
      { domain: `b-${t}.test`, name: t, agenticScore: 70 },
      { domain: `c-${t}.test`, name: t, agenticScore: 60 },
    ]);
    const body = await searchOk(get, { q: t });
    expect(body.receipt_recorded).toBe(true);
    expect(body.search_id).toMatch(SEARCH_ID_FORMAT);

    const [receipt] = await sqlRows(
      `select surface, synthetic, result_count,
              extract(epoch from expires_at - created_at)::int as lifetime_seconds,
              created_at <= now() and created_at > now() - interval '5 minutes' as recent
         from search_receipts where search_id = $1`,
      [body.search_id],
    );
    expect(receipt).toEqual({
      surface: "rest",
      synthetic: false,
      result_count: 3,
      lifetime_seconds: 30 * 86400,
      recent: true,
    });
    const results = await sqlRows(
      "select domain, position from search_receipt_results where search_id = $1 order by position",
      [body.search_id],
    );
    expect(results).toEqual([
      { domain: `a-${t}.test`, position: 1 },
      { domain: `b-${t}.test`, position: 2 },
      { domain: `c-${t}.test`, position: 3 },
    ]);
  });

  it("records a receipt without results for a search that returned nothing, with the sidecar unavailable", async () => {
    const body = await searchOk(asClient(), { q: uniqueToken() });
    expect(body).toMatchObject({ receipt_recorded: true, results: [], total: 0 });
    expect(body.action_interest).toEqual(expectedSidecar({ available: false, searchId: body.search_id, domains: [] }));
    const [receipt] = await sqlRows("select result_count from search_receipts where search_id = $1", [body.search_id]);
    expect(receipt).toEqual({ result_count: 0 });
  });

  it("has no column that could hold a query, an address, a user agent or an identity", async () => {
    const rows = await sqlRows<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns
        where table_schema = 'public'
          and table_name in ('search_receipts', 'search_receipt_results', 'result_selections', 'action_interest_receipts')
        order by table_name, ordinal_position`,
    );
    const columns: Record<string, string[]> = {};
    for (const row of rows) columns[row.table_name] = [...(columns[row.table_name] ?? []), row.column_name];
    expect(columns).toEqual({
      search_receipts: [
        "search_id",
        "surface",
        "synthetic",
        "result_count",
        "created_at",
        "expires_at",
        "topic",
        "result_domains",
        "first_position",
      ],
      search_receipt_results: [
        "search_id",
        "domain",
        "position",
        "surface",
        "topic",
        "synthetic",
        "created_at",
        "expires_at",
      ],
      result_selections: ["search_id", "domain", "synthetic", "created_at", "expires_at"],
      action_interest_receipts: [
        "id",
        "search_id",
        "domain",
        "action_type",
        "confirmation_version",
        "created_at",
        "expires_at",
      ],
    });
    for (const name of rows.map((row) => row.column_name)) {
      expect(name).not.toMatch(/query|^q$|ip|addr|agent|user|prompt|email|referr|ident|session|token/);
    }
  });

  it("never leaves a receipt that claims results it does not hold", async () => {
    const [row] = await sqlRows<{ broken: number }>(
      `select count(*)::int as broken from search_receipts r
        where r.result_count <> (select count(*) from search_receipt_results x where x.search_id = r.search_id)`,
    );
    expect(row?.broken).toBe(0);
  });
});

describe("a search whose receipt cannot be written", () => {
  it("still answers 200, with receipt_recorded false, no search_id, no sidecar and nothing stored", async () => {
    const t = uniqueToken();
    const get = asClient();
    const failing = `receipt-fail-${t}.test`;
    await insertSites([
      { domain: failing, name: `${t} Refused`, agenticScore: 60, tags: [t] },
      { domain: `fine-${t}.test`, name: `${t} Fine`, agenticScore: 50, tags: [t] },
    ]);
    const fn = `test_refuse_receipt_${t}`;
    await sqlRows(
      `create or replace function ${fn}() returns trigger language plpgsql as $$
       begin
         if '${failing}' = any(new.result_domains) then raise exception 'test: receipt refused for %', '${failing}'; end if;
         return new;
       end $$`,
    );
    // The results are held in the receipt row (result_domains): refusing one refuses the row.
    await sqlRows(`create trigger ${fn} before insert on search_receipts for each row execute function ${fn}()`);
    try {
      const body = await searchOk(get, { q: t });
      expect(domainsOf(body).sort()).toEqual([failing, `fine-${t}.test`].sort());
      expect(body).toMatchObject({ receipt_recorded: false, search_id: "", total: 2, access: "free" });
      expect(body.action_interest).toEqual(expectedSidecar({ available: false, searchId: "", domains: [] }));

      // The whole receipt rolled back: not even the domain that did not fail was stored.
      const stored = await sqlRows("select search_id from search_receipt_results where domain in ($1, $2)", [
        failing,
        `fine-${t}.test`,
      ]);
      expect(stored).toEqual([]);

      // A search not returning the refused domain is unaffected.
      const other = await searchOk(get, { q: "fine", tag: t });
      expect(domainsOf(other)).toEqual([`fine-${t}.test`]);
      expect(other.receipt_recorded).toBe(true);
    } finally {
      await sqlRows(`drop trigger if exists ${fn} on search_receipts`);
      await sqlRows(`drop function if exists ${fn}()`);
    }
  });
});

describe("synthetic searches (X-SVC-Synthetic)", () => {
  it("records a synthetic receipt but offers no action interest", async () => {
    const t = uniqueToken();
    const get = asClient();
    await insertSites([{ domain: `a-${t}.test`, name: t }]);

    const synthetic = await searchOk(get, { q: t }, { "X-SVC-Synthetic": "true" });
    expect(synthetic.receipt_recorded).toBe(true);
    expect(synthetic.search_id).toMatch(SEARCH_ID_FORMAT);
    expect(domainsOf(synthetic)).toEqual([`a-${t}.test`]);
    expect(synthetic.action_interest).toEqual(
      expectedSidecar({ available: false, searchId: synthetic.search_id, domains: [] }),
    );

    const real = await searchOk(get, { q: t }, { "X-SVC-Synthetic": "false" });
    expect(real.action_interest).toEqual(
      expectedSidecar({ available: true, searchId: real.search_id, domains: [`a-${t}.test`] }),
    );

    const stored = await sqlRows<{ search_id: string; synthetic: boolean }>(
      "select search_id, synthetic from search_receipts where search_id in ($1, $2) order by synthetic",
      [synthetic.search_id, real.search_id],
    );
    expect(stored).toEqual([
      { search_id: real.search_id, synthetic: false },
      { search_id: synthetic.search_id, synthetic: true },
    ]);
  });

  it("refuses any other header value with 400 naming the header", async () => {
    for (const value of ["maybe", "1", "TRUE", ""]) {
      const response = await asClient()("/api/v1/search?q=x", { headers: { "X-SVC-Synthetic": value } });
      await expectInvalid(response, "header", ["x-svc-synthetic"]);
    }
  });
});
