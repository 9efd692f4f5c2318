/**
 * Loads the synthetic demo index (db/seed/demo-index.ts) into an empty database, over the same
 * driver the Worker uses: the sites with their signal evidence, their score histories and a year
 * of adoption rollups. A database holding any site is left alone.
 *
 * Usage: DATABASE_URL=… [DATABASE_LOCAL_HTTP=true] [DEMO_SITES=3000] npm run seed
 */
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { siteScoreHistory, sites } from "../db/schema/index.ts";
import { seedDemoAdoption } from "../db/seed/demo-adoption.ts";
import { withDemoChecklist } from "../db/seed/demo-checklists.ts";
import { type DemoScoreEntry, generateDemoIndex } from "../db/seed/demo-index.ts";
import { createDatabase, type Database } from "../src/adapters/db.ts";
import { parseSettings } from "../src/config.ts";

const BATCH_ROWS = 500;

/** Appends past scores to the history of the sites they name by domain. */
function insertScoreHistory(db: Database, entries: DemoScoreEntry[]) {
  const rows = JSON.stringify(
    entries.map((entry) => ({
      domain: entry.domain,
      recorded_at: entry.recordedAt.toISOString(),
      agentic_score: entry.agenticScore,
      score_version: entry.scoreVersion,
    })),
  );
  const past = sql`jsonb_to_recordset(${rows}::jsonb) as past(domain text, recorded_at timestamptz, agentic_score smallint, score_version integer)`;
  return db
    .insert(siteScoreHistory)
    .select(
      db
        .select({
          siteId: sites.id,
          recordedAt: sql`past.recorded_at`.as("recorded_at"),
          agenticScore: sql`past.agentic_score`.as("agentic_score"),
          scoreVersion: sql`past.score_version`.as("score_version"),
        })
        .from(sites)
        .innerJoin(past, eq(sites.domain, sql`past.domain`)),
    )
    .onConflictDoNothing();
}

/** Inserts `count` demo sites when the index is empty; returns how many it inserted. */
export async function loadDemoIndexIfEmpty(options: { databaseUrl: string; localHttp: boolean; count: number }) {
  const db = createDatabase({ DATABASE_URL: options.databaseUrl, DATABASE_LOCAL_HTTP: options.localHttp });
  const [existing] = await db
    .select({ any: sql<boolean>`exists (select 1 from ${sites})` })
    .from(sql`(select 1) as one`);
  if (existing?.any) return 0;
  // Crawl times are spread over the 30 days before now, so the demo index looks as fresh as a live one.
  const { sites: rows, history } = await generateDemoIndex({ count: options.count, now: new Date() });
  const historyByDomain = new Map<string, DemoScoreEntry[]>();
  for (const entry of history) {
    const entries = historyByDomain.get(entry.domain);
    if (entries) entries.push(entry);
    else historyByDomain.set(entry.domain, [entry]);
  }
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    // Each site's checklist and MCP endpoint health (db/seed/demo-checklists.ts), for /state.
    const batch = rows.slice(start, start + BATCH_ROWS).map(withDemoChecklist);
    const entries = batch.flatMap((row) => historyByDomain.get(row.domain) ?? []);
    // One transaction per batch, so no site is left without its history. On conflict: a
    // concurrent loader may have begun too; each domain and each past score is inserted once.
    await db.batch([
      db.insert(sites).values(batch).onConflictDoNothing({ target: sites.domain }),
      insertScoreHistory(db, entries),
    ]);
  }
  // A year of adoption rollups (db/seed/demo-adoption.ts), so /state has history from the start.
  await seedDemoAdoption(db, new Date());
  // Search plans with the index statistics; an embedded database has no autovacuum to gather them.
  await db.execute(sql`analyze sites, search_postings`);
  return rows.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const config = parseSettings(process.env, ["DATABASE_URL", "DATABASE_LOCAL_HTTP"]);
  const count = Number(process.env.DEMO_SITES ?? 3000);
  const inserted = await loadDemoIndexIfEmpty({
    databaseUrl: config.DATABASE_URL,
    localHttp: config.DATABASE_LOCAL_HTTP,
    count,
  });
  console.log(inserted ? `loaded ${inserted} synthetic demo sites` : "the index already holds sites; nothing loaded");
}
