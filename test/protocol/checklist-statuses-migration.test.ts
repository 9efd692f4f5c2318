/**
 * Migration 0033 over a database that already holds checklists: each site's packed statuses
 * (`sites.checklist_statuses`) are filled in from its stored checklist exactly as a crawl now
 * writes them (packPresentStatuses), a check the checklist lacks null; MCP endpoint health stays
 * null until the next crawl.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import { createDatabase, type Database } from "../../src/adapters/db.ts";
import { CHECK_IDS, CHECK_STATUSES, packPresentStatuses } from "../../src/domain/checklist/checklist-definition.ts";

/** Migrations 0000 to 0032: the schema before this one. */
const MIGRATIONS_BEFORE = 33;
/**
 * The checks there were when migration 0033 was written: it packs those, and later ids (appended
 * to CHECK_IDS, never inserted) read as absent from its shorter arrays (unpackStatuses).
 */
const IDS_AT_0033 = 24;
const packedAt0033 = (list: [string, string][]) => packPresentStatuses(checks(list)).slice(0, IDS_AT_0033);

let stack: LocalStack;
let db: Database;

const checks = (statuses: [string, string][]) =>
  statuses.map(([id, status]) => ({
    id,
    status,
    category: "discovery",
    title: id,
    reason: "",
    evidence: [],
    applies_to: [],
  }));

const full = CHECK_IDS.slice(0, IDS_AT_0033).map((id, i): [string, string] => [
  id,
  CHECK_STATUSES[i % CHECK_STATUSES.length]!,
]);
const partial: [string, string][] = [
  ["webmcp", "neutral"],
  ["robots_txt", "pass"],
  ["ai_plugin", "warn"],
];

beforeAll(async () => {
  stack = await startLocalStack({ pgliteDataDir: "memory", sqlPort: 0, redisPort: 0 });
  await migrate({ databaseUrl: stack.databaseUrl, localHttp: true, upTo: MIGRATIONS_BEFORE });
  db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
  for (const [domain, list] of [
    ["full.example.com", full],
    ["partial.example.com", partial],
  ] as const) {
    await db.execute(sql`insert into sites (domain, url, checklist) values (${domain}, ${`https://${domain}/`},
      ${JSON.stringify({ checks: checks([...list]), summary: {} })}::jsonb)`);
  }
  await db.execute(sql`insert into sites (domain, url) values ('none.example.com', 'https://none.example.com/')`);
  await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe("migration 0033", () => {
  it("packs every stored checklist as a crawl packs it, and leaves the rest null", async () => {
    const rows = await db.execute(
      sql`select domain, checklist_statuses, mcp_endpoint_health from sites order by domain`,
    );
    expect(rows.rows).toEqual([
      {
        domain: "full.example.com",
        checklist_statuses: packedAt0033(full),
        mcp_endpoint_health: null,
      },
      { domain: "none.example.com", checklist_statuses: null, mcp_endpoint_health: null },
      {
        domain: "partial.example.com",
        checklist_statuses: packedAt0033(partial),
        mcp_endpoint_health: null,
      },
    ]);
    // The partial checklist: three statuses where its checks are, null elsewhere.
    const partialRow = rows.rows[2]!.checklist_statuses as (number | null)[];
    expect(partialRow.filter((code) => code !== null)).toHaveLength(3);
    expect(partialRow[CHECK_IDS.indexOf("ai_plugin")]).toBe(1);
  });
});
