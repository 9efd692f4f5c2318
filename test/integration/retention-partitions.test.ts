/**
 * Retention whose cost does not grow with traffic: the receipt family lives in one partition per
 * UTC day of expiry, made ahead by the daily job and dropped whole once that day is over; every
 * other kind of personal data leaves by its own written deadline; /healthz reports how long the
 * oldest overdue record has waited. Old rows are inserted by SQL at the ages a case needs.
 */
import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../support/all-in-one-jobs.ts";
import { DAY_SECONDS, insertReceipts } from "../support/receipts.ts";
import { searchOk } from "../support/search.ts";
import { insertSites, sqlRows, uniqueToken } from "../support/sites.ts";
import { asClient, call } from "../support/worker.ts";

const FAMILY = ["search_receipts", "result_selections", "action_interest_receipts", "search_offer_disclosures"];

const runRetentionJob = async () => {
  await worker.scheduled(
    createScheduledController({ cron: "40 3 * * *", scheduledTime: Date.now() }),
    env,
    createExecutionContext(),
  );
};

const utcDay = (date: Date) => date.toISOString().slice(0, 10);
const partitionOf = (table: string, day: string) => `${table}_p${day.replaceAll("-", "")}`;

/** A UTC day long past that no other case uses, so its partitions can be made for this case alone. */
function pastDay(): string {
  const daysBack = 400 + Math.floor(Math.random() * 3000);
  return utcDay(new Date(Date.now() - daysBack * DAY_SECONDS * 1000));
}

const partitionsExist = async (day: string) => {
  const rows = await sqlRows<{ name: string; present: boolean }>(
    "select t as name, to_regclass(t) is not null as present from unnest($1::text[]) t",
    [FAMILY.map((table) => partitionOf(table, day))],
  );
  return rows.every((row) => row.present);
};

describe("the receipt family's day partitions", () => {
  it("keeps the partitions made from today to 40 days of expiry ahead, for every table of the family", async () => {
    await runRetentionJob();
    const today = new Date();
    for (const offset of [0, 1, 30, 31, 40]) {
      const day = utcDay(new Date(today.getTime() + offset * DAY_SECONDS * 1000));
      expect(await partitionsExist(day), `day ${day}`).toBe(true);
    }
  });

  it("writes a search's receipt, with its results in the row, into the partition of its day of expiry", async () => {
    const t = uniqueToken();
    await insertSites([{ domain: `a-${t}.test`, name: t }]);
    const body = await searchOk(asClient(), { q: t });
    const rows = await sqlRows<{ part: string; day: string; domains: string[] }>(
      `select tableoid::regclass::text as part, to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD') as day,
              result_domains as domains
         from search_receipts where search_id = $1`,
      [body.search_id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.domains).toEqual([`a-${t}.test`]);
    for (const row of rows) expect(row.part).toMatch(new RegExp(`_p${row.day.replaceAll("-", "")}$`));
  });

  it("keeps a receipt's list exact and refuses a selection, interest or disclosure of a domain it did not return", async () => {
    const domain = `exact-${uniqueToken()}.example`;
    const [id] = await insertReceipts({ domain, count: 1 });
    const [receipt] = await sqlRows<{ expires_at: string }>(
      "select expires_at::text from search_receipts where search_id = $1",
      [id],
    );
    const expiresAt = receipt?.expires_at;
    // Not returned by that search: refused as the foreign key to a result row refused it.
    await expect(
      sqlRows(
        "insert into result_selections (search_id, domain, synthetic, expires_at) values ($1, $2, false, $3::timestamptz)",
        [id, `other-${domain}`, expiresAt],
      ),
    ).rejects.toThrow(/violates foreign key constraint "result_selections_result_fk"/);
    await expect(
      sqlRows(
        `insert into action_interest_receipts (search_id, domain, action_type, confirmation_version, expires_at)
         values ($1, $2, 'quote', 'svc-action-interest-v1', $3::timestamptz)`,
        [id, `other-${domain}`, expiresAt],
      ),
    ).rejects.toThrow(/violates foreign key constraint "action_interest_receipts_result_fk"/);
    // No receipt of that search id at all.
    await expect(
      sqlRows(
        "insert into result_selections (search_id, domain, synthetic, expires_at) values ($1, $2, false, $3::timestamptz)",
        [`missing-${uniqueToken()}`, domain, expiresAt],
      ),
    ).rejects.toThrow(/violates foreign key constraint/);
    // The returned domain is accepted, once.
    await sqlRows(
      "insert into result_selections (search_id, domain, synthetic, expires_at) values ($1, $2, false, $3::timestamptz)",
      [id, domain, expiresAt],
    );
    // A list that does not match its count, holds a domain twice or an empty entry is refused.
    for (const [domains, count] of [
      [["a.example", "b.example"], 1],
      [["a.example", "a.example"], 2],
      [["a.example", null], 2],
    ] as const) {
      await expect(
        sqlRows(
          `insert into search_receipts (search_id, surface, synthetic, topic, result_count, result_domains, first_position)
           values ($1, 'rest', true, 'other', $2, $3::text[], 1)`,
          [`exact-${uniqueToken()}`, count, domains],
        ),
      ).rejects.toThrow(/search_receipts_result_domains_exact/);
    }
  });

  it("drops a whole expired day in one step, with all that hangs on it, and keeps every live row", async () => {
    const day = pastDay();
    const [made] = await sqlRows<{ made: boolean }>("select retention_make_day($1::date) as made", [day]);
    expect(made?.made).toBe(true);
    expect(await partitionsExist(day)).toBe(true);
    // Searched 30 days before noon of that day: they expire at its noon.
    const ageSeconds = Math.round((Date.now() - Date.parse(`${day}T12:00:00Z`)) / 1000) + 30 * DAY_SECONDS;
    const domain = `partition-${uniqueToken()}.example`;
    const expired = await insertReceipts({ domain, count: 12, ageSeconds, selections: 12, interests: 12 });
    const live = await insertReceipts({ domain, count: 3, ageSeconds: 29 * DAY_SECONDS, selections: 3, interests: 3 });
    const [placed] = await sqlRows<{ n: number }>(
      `select count(*)::int as n from search_receipts where search_id = any($1) and tableoid = to_regclass($2)`,
      [expired, partitionOf("search_receipts", day)],
    );
    expect(placed?.n).toBe(12);

    await runRetentionJob();
    expect(await partitionsExist(day)).toBe(false);
    const count = async (ids: string[]) => {
      const [row] = await sqlRows(
        `select (select count(*)::int from search_receipts where search_id = any($1)) as receipts,
                (select count(*)::int from search_receipt_results where search_id = any($1)) as results,
                (select count(*)::int from result_selections where search_id = any($1)) as selections,
                (select count(*)::int from action_interest_receipts where search_id = any($1)) as interests`,
        [ids],
      );
      return row;
    };
    expect(await count(expired)).toEqual({ receipts: 0, results: 0, selections: 0, interests: 0 });
    expect(await count(live)).toEqual({ receipts: 3, results: 3, selections: 3, interests: 3 });
  });

  it("never drops a day that is not wholly over, and makes no partition a DEFAULT row already falls in", async () => {
    const today = utcDay(new Date());
    await runRetentionJob();
    expect(await partitionsExist(today)).toBe(true);
    const [row] = await sqlRows<{ dropped: number }>(
      "select count(*)::int as dropped from retention_drop_expired_partitions() where day >= $1::date",
      [today],
    );
    expect(row?.dropped).toBe(0);
    expect(await partitionsExist(today)).toBe(true);

    // A row for a day with no partition lands in DEFAULT; that day's partitions are then refused.
    const day = pastDay();
    const ageSeconds = Math.round((Date.now() - Date.parse(`${day}T06:00:00Z`)) / 1000) + 30 * DAY_SECONDS;
    const [id] = await insertReceipts({ domain: `default-${uniqueToken()}.example`, count: 1, ageSeconds });
    const [stored] = await sqlRows<{ part: string }>(
      "select tableoid::regclass::text as part from search_receipts where search_id = $1",
      [id],
    );
    expect(stored?.part).toBe("search_receipts_default");
    const [refused] = await sqlRows<{ made: boolean }>("select retention_make_day($1::date) as made", [day]);
    expect(refused?.made).toBe(false);
    // The row purge takes it instead.
    await runRetentionJob();
    expect(await sqlRows("select 1 from search_receipts where search_id = $1", [id])).toEqual([]);
  });

  it("refuses a TRUNCATE or DELETE naming a day's partition itself", async () => {
    const today = utcDay(new Date());
    const [live] = await insertReceipts({ domain: `guard-${uniqueToken()}.example`, count: 1 });
    for (const table of ["result_selections", "action_interest_receipts"]) {
      await expect(sqlRows(`truncate ${partitionOf(table, today)}`)).rejects.toThrow(/append-only/);
    }
    // A partition that others reference is refused by its guard, or before it by the foreign key.
    await expect(sqlRows(`truncate ${partitionOf("search_receipts", today)} cascade`)).rejects.toThrow(
      /append-only|referenced in a foreign key/,
    );
    const [row] = await sqlRows<{ part: string }>(
      "select tableoid::regclass::text as part from search_receipts where search_id = $1",
      [live],
    );
    await expect(sqlRows(`delete from ${row?.part} where search_id = $1`, [live])).rejects.toThrow(/append-only/);
    await expect(sqlRows("truncate result_selections_default")).rejects.toThrow(/append-only/);
    await expect(sqlRows("truncate search_receipts_default cascade")).rejects.toThrow(
      /append-only|referenced in a foreign key/,
    );
  });
});

describe("the daily demand rows' expiry", () => {
  it("deletes every expired daily row in one step, however many, and keeps the days a window can reach", async () => {
    const t = uniqueToken();
    // 3,000 expired cells (more than one round of the bounded purge) and one a window can reach.
    await sqlRows(
      `insert into demand_daily (domain, day, surface, topic, results, position_sum, selections, expires_at)
       select 'expired-' || g || '-${t}.example', d, 'rest', 'other', 1, 1, 0, demand_day_expiry(d)
         from generate_series(1, 3000) g, (select (now() at time zone 'UTC')::date - 32 as d) day
       union all
       select 'live-${t}.example', d, 'rest', 'other', 1, 1, 0, demand_day_expiry(d)
         from (select (now() at time zone 'UTC')::date - 29 as d) day`,
    );
    await sqlRows(
      `insert into demand_daily_interests (domain, day, surface, topic, action_type, interests, expires_at)
       select 'expired-1-${t}.example', d, 'rest', 'other', 'quote', 1, demand_day_expiry(d)
         from (select (now() at time zone 'UTC')::date - 31 as d) day`,
    );
    const deleted = await sqlRows<{ table_name: string; deleted: number }>(
      "select table_name, deleted::int from demand_daily_expire()",
    );
    expect(Object.fromEntries(deleted.map((row) => [row.table_name, row.deleted]))).toMatchObject({
      demand_daily: expect.any(Number),
      demand_daily_interests: expect.any(Number),
    });
    const [left] = await sqlRows<{ expired: number; live: number; interests: number }>(
      `select (select count(*)::int from demand_daily where domain like $1) as expired,
              (select count(*)::int from demand_daily where domain = $2) as live,
              (select count(*)::int from demand_daily_interests where domain like $1) as interests`,
      [`expired-%-${t}.example`, `live-${t}.example`],
    );
    expect(left).toEqual({ expired: 0, live: 1, interests: 0 });
    expect(deleted.find((row) => row.table_name === "demand_daily")?.deleted).toBeGreaterThanOrEqual(3000);
  });
});

describe("the other personal data's retention", () => {
  it("deletes each kind past its deadline through the daily job, and keeps what is within it", async () => {
    const t = uniqueToken();
    const old = `old-${t}@example.com`;
    const fresh = `fresh-${t}@example.com`;
    const [account] = await sqlRows<{ id: string }>("insert into accounts (email) values ($1) returning id", [
      `acct-${t}@example.com`,
    ]);
    await sqlRows(
      `insert into sign_in_tokens (token_sha256, email, created_at, expires_at) values
         (encode(sha256(convert_to($1::text, 'UTF8')), 'hex'), $1, now() - interval '2 days', now() - interval '2 days' + interval '15 minutes'),
         (encode(sha256(convert_to($2::text, 'UTF8')), 'hex'), $2, now(), now() + interval '15 minutes')`,
      [old, fresh],
    );
    await sqlRows(
      `insert into sessions (token_sha256, account_id, created_at, expires_at, ended_at) values
         (encode(sha256(($1 || 'old')::bytea), 'hex'), $2, now() - interval '40 days', now() - interval '10 days', null),
         (encode(sha256(($1 || 'ended')::bytea), 'hex'), $2, now() - interval '3 days', now() + interval '20 days', now() - interval '2 days'),
         (encode(sha256(($1 || 'live')::bytea), 'hex'), $2, now(), now() + interval '30 days', null)`,
      [t, account?.id],
    );
    await sqlRows(
      `insert into monitor_subscribers (email, confirmation_sent_at, confirmed_at, created_at) values
         ($1, now() - interval '31 days', null, now() - interval '40 days'),
         ($2, now() - interval '2 days', null, now() - interval '40 days'),
         ($3, null, now() - interval '60 days', now() - interval '60 days')`,
      [`unconfirmed-${t}@example.com`, `resent-${t}@example.com`, `confirmed-${t}@example.com`],
    );
    await sqlRows(
      `insert into monitors (email, domain, unsubscribed_at) values
         ($1, $2, now() - interval '31 days'), ($1, $3, now() - interval '1 day'), ($4, $2, null)`,
      [`confirmed-${t}@example.com`, `a-${t}.test`, `b-${t}.test`, `resent-${t}@example.com`],
    );
    await sqlRows(
      `insert into crawl_requests (domain, url, reason, queued_at) values
         ($1, 'https://' || $1, 'submit', now() - interval '31 days'), ($2, 'https://' || $2, 'submit', now())`,
      [`old-${t}.test`, `new-${t}.test`],
    );

    await runRetentionJob();

    const [left] = await sqlRows(
      `select (select array_agg(email order by email) from sign_in_tokens where email in ($1, $2)) as tokens,
              (select count(*)::int from sessions where account_id = $3) as sessions,
              (select array_agg(email order by email) from monitor_subscribers where email like $4) as subscribers,
              (select array_agg(domain order by domain) from monitors where email like $4) as monitors,
              (select array_agg(domain order by domain) from crawl_requests where domain like $5) as crawls`,
      [old, fresh, account?.id, `%-${t}@example.com`, `%-${t}.test`],
    );
    expect(left).toEqual({
      tokens: [fresh],
      sessions: 1,
      // Never confirmed for 31 days: gone; confirmation re-sent 2 days ago: kept; confirmed and still watching: kept.
      subscribers: [`confirmed-${t}@example.com`, `resent-${t}@example.com`],
      // Unsubscribed 31 days ago: gone; a day ago: kept.
      monitors: [`a-${t}.test`, `b-${t}.test`],
      crawls: [`new-${t}.test`],
    });
  });
});

describe("the retention alarm on /healthz", () => {
  it("reports the oldest overdue record's age and turns behind past the grace; the job clears it", async () => {
    const [overdue] = await insertReceipts({
      domain: `alarm-${uniqueToken()}.example`,
      count: 1,
      ageSeconds: 33 * DAY_SECONDS,
    });
    const health = async () => {
      const response = await call("/healthz");
      expect(response.status).toBe(200);
      return ((await response.json()) as { retention: Record<string, unknown> }).retention;
    };
    const before = await health();
    expect(before).toMatchObject({ status: "behind", grace_seconds: 36 * 3600 });
    expect(before.oldest_overdue_seconds as number).toBeGreaterThanOrEqual(3 * DAY_SECONDS - 60);
    expect(typeof before.oldest_overdue_material).toBe("string");

    await runRetentionJob();
    expect(await sqlRows("select 1 from search_receipts where search_id = $1", [overdue])).toEqual([]);
    const after = await health();
    expect(["ok", "behind"]).toContain(after.status);
    if (after.oldest_overdue_seconds !== null) {
      expect(after.oldest_overdue_seconds as number).toBeLessThan(3 * DAY_SECONDS - 60);
    }
  });
});
