/**
 * Loads the synthetic demo index (db/seed/demo-index.ts) into an empty database, over the same
 * driver the Worker uses. A database holding any site is left alone.
 *
 * Usage: DATABASE_URL=… [DATABASE_LOCAL_HTTP=true] [DEMO_SITES=3000] npm run seed
 */
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { sites } from "../db/schema/index.ts";
import { generateDemoSites } from "../db/seed/demo-index.ts";
import { createDatabase } from "../src/adapters/db.ts";
import { parseSettings } from "../src/config.ts";

const BATCH_ROWS = 500;

/** Inserts `count` demo sites when the index is empty; returns how many it inserted. */
export async function loadDemoIndexIfEmpty(options: { databaseUrl: string; localHttp: boolean; count: number }) {
  const db = createDatabase({ DATABASE_URL: options.databaseUrl, DATABASE_LOCAL_HTTP: options.localHttp });
  const [existing] = await db
    .select({ any: sql<boolean>`exists (select 1 from ${sites})` })
    .from(sql`(select 1) as one`);
  if (existing?.any) return 0;
  // Crawl times are spread over the 30 days before now, so the demo index looks as fresh as a live one.
  const rows = generateDemoSites({ count: options.count, now: new Date() });
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    // on conflict: a concurrent loader may have begun too; each domain is inserted once.
    await db
      .insert(sites)
      .values(rows.slice(start, start + BATCH_ROWS))
      .onConflictDoNothing({ target: sites.domain });
  }
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
