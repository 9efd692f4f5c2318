/**
 * Makes an indexed site lose one signal, as a recrawl would record it, so a person on `npm start`
 * can see a score-drop alert without changing a real site (docs/monitors.md). It writes what
 * src/domain/crawling/record-crawl.ts writes after a crawl — the site's flags, score and evidence,
 * and a new score history entry — in one transaction. For the local stack only.
 *
 * Usage: npm run demo:score-drop -- <domain> [signal]
 *   signal: a field such as has_llms_txt (default: the site's first present signal)
 *   The running `npm start` is found by itself (scripts/local-run.ts; PORT=<port> names one of
 *   several), and so are its database and its port, which the printed next step names.
 *   LOCAL_SQL_PORT: the local stack's SQL endpoint instead (a stack run alone, `npm run stack`)
 */
import { eq, sql } from "drizzle-orm";
import { type SignalEvidence, siteScoreHistory, sites } from "../db/schema/index.ts";
import { createDatabase } from "../src/adapters/db.ts";
import { SIGNAL_WEIGHTS } from "../src/domain/scoring/agentic-score.ts";
import { normalizeDomain } from "../src/domain/sites/domain-name.ts";
import { SIGNAL_FIELDS, type SignalField } from "../src/domain/sites/site-fields.ts";
import { findLocalRun, type LocalRun } from "./local-run.ts";

const [domainArgument, signalArgument] = process.argv.slice(2);
const domain = normalizeDomain(domainArgument ?? "");
if (!domain) {
  console.error("usage: npm run demo:score-drop -- <domain> [has_llms_txt|has_openapi|…]");
  process.exit(2);
}
if (signalArgument && !(SIGNAL_FIELDS as readonly string[]).includes(signalArgument)) {
  console.error(`unknown signal ${signalArgument}; one of ${SIGNAL_FIELDS.join(", ")}`);
  process.exit(2);
}
// Always the local stack's endpoint (whatever server sits behind it): a shell that exported
// DATABASE_URL for `npm start` must not send this to that server some other way.
let run: LocalRun | undefined;
if (!process.env.LOCAL_SQL_PORT) {
  try {
    run = findLocalRun({ port: process.env.PORT || undefined });
  } catch (error) {
    console.error(`${(error as Error).message} (or set LOCAL_SQL_PORT to a stack's SQL port)`);
    process.exit(1);
  }
}
const db = createDatabase({
  DATABASE_URL: run?.databaseUrl ?? `postgres://local:local@127.0.0.1:${process.env.LOCAL_SQL_PORT}/local`,
  DATABASE_LOCAL_HTTP: true,
});

const [site] = await db.select().from(sites).where(eq(sites.domain, domain));
if (!site) {
  console.error(`${domain} is not in the index (register it and let it be crawled, or pick one from /api/v1/top)`);
  process.exit(1);
}
const columns: Record<SignalField, keyof typeof site> = {
  has_llms_txt: "hasLlmsTxt",
  has_ai_plugin: "hasAiPlugin",
  has_openapi: "hasOpenapi",
  has_structured_api: "hasStructuredApi",
  has_mcp_server: "hasMcpServer",
  has_robots_ai: "hasRobotsAi",
  has_schema_org: "hasSchemaOrg",
};
const field = (signalArgument as SignalField | undefined) ?? SIGNAL_FIELDS.find((name) => site[columns[name]] === true);
if (!field || site[columns[field]] !== true) {
  console.error(`${domain} has ${field ? `no ${field}` : "no signal"} to lose`);
  process.exit(1);
}
const score = Math.max(0, site.agenticScore - SIGNAL_WEIGHTS[field]);
const evidence: Record<string, SignalEvidence> = {
  ...site.signalEvidence,
  [field]: {
    status: "absent",
    reason: "Removed by npm run demo:score-drop (a demonstration on the local stack, not a real crawl).",
    fetched: [],
  },
};
await db.batch([
  db
    .update(sites)
    .set({
      [columns[field]]: false,
      agenticScore: score,
      signalEvidence: evidence,
      lastCrawledAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(sites.id, site.id)),
  db.insert(siteScoreHistory).values({ siteId: site.id, agenticScore: score, scoreVersion: site.scoreVersion }),
]);
console.log(`${domain}: ${field} lost, score ${site.agenticScore} → ${score} (a new score history entry).`);
// The port of the run this acted on (its record says), not a default: the command works as printed.
const port = run?.port ?? process.env.PORT;
console.log(
  `Run the alert cron now: ${port ? `PORT=${port} ` : ""}npm run cron -- monitor-alerts${port ? ` (the npm start on http://127.0.0.1:${port})` : ""}`,
);
