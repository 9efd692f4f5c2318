/**
 * Times the daily adoption rollup (src/domain/stats/adoption-rollup.ts) over an index of N
 * synthetic sites, each with a full latest checklist (every check of CHECK_IDS, with reasons and
 * evidence of realistic size, and its packed `checklist_statuses`), one in 13 advertising an MCP
 * endpoint of each health class in turn and one in 17 more an endpoint that is not MCP. It prints
 * the whole job's time and its slowest statement over `sites` (each must stay well inside the
 * Worker's DATABASE_TIMEOUT_MS). The sites are made in the database by generate_series, with the
 * sites' triggers off (session_replication_role = replica): the search postings and top counts
 * play no part in the rollup. Use a database of your own: it is filled, never emptied.
 *
 * Usage: DATABASE_URL=postgres://…/agent_readiness_adoption_bench SITES=1000000 [SLICE=20000] npx tsx scripts/bench-adoption.ts
 * (the script applies db/migrations to it first).
 */
import { sql } from "drizzle-orm";
import { createDatabase } from "../src/adapters/db.ts";
import { CHECK_IDS, CHECK_STATUSES } from "../src/domain/checklist/checklist-definition.ts";
import { CATEGORIES } from "../src/domain/sites/site-fields.ts";
import { rollupAdoption, utcDay } from "../src/domain/stats/adoption-rollup.ts";
import { startLocalStack } from "./local-stack.ts";
import { migrate } from "./migrate.ts";

const target = Number(process.env.SITES ?? 1_000_000);
// SLICE=n reads n sites a statement instead of the job's ADOPTION_SLICE_SIZE.
const sliceSize = process.env.SLICE ? Number(process.env.SLICE) : undefined;
// Over the same SQL-over-HTTP path as the Worker, so the time is the job's as it runs.
const stack = await startLocalStack({ databaseUrl: process.env.DATABASE_URL as string, sqlPort: 0, redisPort: 0 });
await migrate({ databaseUrl: stack.databaseUrl, localHttp: true, log: console.log });
const db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true, DATABASE_TIMEOUT_MS: 600_000 });
const count = async () => Number((await db.execute(sql`select count(*)::int as n from sites`)).rows[0]?.n ?? 0);

let have = await count();
const BATCH = 50_000;
const fillStarted = Date.now();
while (have < target) {
  const n = Math.min(BATCH, target - have);
  const ids = sql.raw(`array[${CHECK_IDS.map((id) => `'${id}'`).join(",")}]`);
  const statuses = sql.raw(`array[${CHECK_STATUSES.map((s) => `'${s}'`).join(",")}]`);
  const categories = sql.raw(`array[${CATEGORIES.map((c) => `'${c}'`).join(",")}]`);
  await db.batch([
    db.execute(sql`set local session_replication_role = replica`),
    db.execute(sql`
      insert into sites (domain, url, category, has_llms_txt, has_ai_plugin, has_openapi, has_robots_ai,
        has_structured_api, has_mcp_server, has_schema_org, mcp_endpoint_health, checklist_statuses, checklist)
      select 'bench-' || (${have} + g) || '.example', 'https://bench-' || (${have} + g) || '.example/',
        (${categories})[1 + (g % ${CATEGORIES.length})],
        g % 3 = 0, g % 11 = 0, g % 5 = 0, g % 2 = 0, g % 7 = 0, g % 13 = 0, g % 4 = 0,
        case when g % 13 = 0 then ((g / 13) % 4)::smallint when g % 17 = 0 then 2::smallint end,
        array(select ((g + ord) % 6)::smallint from generate_series(1, ${CHECK_IDS.length}) as ord),
        jsonb_build_object('summary', '{}'::jsonb, 'checks', (
          select jsonb_agg(jsonb_build_object('id', id, 'category', 'discovery',
            'status', (${statuses})[1 + ((g + ord) % 6)], 'title', 'The ' || id || ' check',
            'reason', 'The document was fetched and read; its fields were checked against the standard.',
            'evidence', jsonb_build_array(jsonb_build_object('url', 'https://bench-' || g || '.example/' || id,
              'status', 200, 'content_type', 'text/plain')),
            'applies_to', jsonb_build_array('content', 'api', 'store')))
          from unnest(${ids}) with ordinality as c(id, ord)))
      from generate_series(1, ${n}) g
    `),
  ]);
  have += n;
  process.stdout.write(`\rsites: ${have}`);
}
if (Date.now() - fillStarted > 1000) console.log(`\nfilled in ${((Date.now() - fillStarted) / 1000).toFixed(0)} s`);
await db.execute(sql`vacuum analyze sites`);
for (let run = 1; run <= 2; run++) {
  const summary = await rollupAdoption(db, utcDay(new Date()), sliceSize ? { sliceSize } : {});
  console.log(
    `run ${run}: ${summary.rows} rows over ${have} sites in ${summary.durationMs} ms: ${summary.slices} statements over sites, the slowest ${summary.slowestSliceMs} ms`,
  );
}
process.exit(0);
