/**
 * `npm run search-beginnings`: shows the wide beginnings the search index calls for and those
 * registered, and with `--apply` registers and unregisters to match, as the daily cron does
 * (src/domain/search/wide-beginnings.ts). Talks to the database as scripts/migrate.ts does
 * (DATABASE_URL, and DATABASE_LOCAL_HTTP=true for the local stack).
 *
 * Usage: npm run search-beginnings [-- --apply] [--max-changes <n>]
 */
import { createDatabase } from "../src/adapters/db.ts";
import { parseSettings } from "../src/config.ts";
import { MAX_WORD_TERMS, WIDE_RANGE_LIMIT } from "../src/domain/search/search-terms.ts";
import {
  chooseWideBeginnings,
  MAX_CHANGES_PER_REFRESH,
  refreshWideBeginnings,
  wideBeginningShapes,
} from "../src/domain/search/wide-beginnings.ts";

const USAGE = "usage: npm run search-beginnings [-- --apply] [--max-changes <n>]";

const args = process.argv.slice(2);
const apply = args.includes("--apply");
const maxAt = args.indexOf("--max-changes");
const maxChanges = maxAt >= 0 ? Number(args[maxAt + 1]) : MAX_CHANGES_PER_REFRESH;
const known = new Set(["--apply", "--max-changes", ...(maxAt >= 0 ? [args[maxAt + 1]] : [])]);
if (args.some((arg) => !known.has(arg)) || !Number.isInteger(maxChanges) || maxChanges < 0) {
  console.error(USAGE);
  process.exit(2);
}

const db = createDatabase(parseSettings(process.env, ["DATABASE_URL", "DATABASE_LOCAL_HTTP"]));
const started = performance.now();
const index = await wideBeginningShapes(db);
const { shapes, size } = index;
const chosen = new Set(chooseWideBeginnings(shapes, size));
console.log(
  `index: ${size.sites} sites, ${size.postings} postings (read in ${Math.round(performance.now() - started)} ms)`,
);
if (shapes.length === 0) {
  // A small index has none: say why rather than print an empty table.
  console.log(
    `no beginning is wide here (more than ${MAX_WORD_TERMS} lexemes and ${WIDE_RANGE_LIMIT} postings): nothing to list`,
  );
} else console.log("beginning  lexemes  postings     sites  share   called for");
for (const shape of shapes) {
  const share = `${((100 * shape.sites) / Math.max(1, size.sites)).toFixed(1)}%`;
  console.log(
    `${shape.beginning.padEnd(10)} ${String(shape.lexemes).padStart(7)} ${String(shape.postings).padStart(9)} ${String(shape.sites).padStart(9)}  ${share.padStart(6)}  ${chosen.has(shape.beginning) ? "yes" : ""}`,
  );
}
const summary = await refreshWideBeginnings(db, { dryRun: !apply, maxChanges, index });
console.log(
  JSON.stringify({ applied: apply, ...summary, seconds: Math.round(performance.now() - started) / 1000 }, null, 2),
);
