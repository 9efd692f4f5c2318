import { startLocalStack } from "./scripts/local-stack.ts";
import { migrate } from "./scripts/migrate.ts";
import { createDatabase } from "./src/adapters/db.ts";
import { chooseWideBeginnings, wideBeginningShapes } from "./src/domain/search/wide-beginnings.ts";

const stack = await startLocalStack({
  databaseUrl: "postgres://postgres@127.0.0.1:5432/agent_readiness_bench",
  sqlPort: 0,
  redisPort: 0,
});
await migrate({ databaseUrl: stack.databaseUrl, localHttp: true, log: console.log });
const db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
const t = performance.now();
const { shapes, size } = await wideBeginningShapes(db, { moreLexemesThan: 32, morePostingsThan: 5000 });
console.log("read in", Math.round(performance.now() - t), "ms", size);
const chosen = chooseWideBeginnings(shapes, size);
for (const s of shapes.sort((a, b) => a.postings - b.postings))
  console.log(
    s.beginning.padEnd(9),
    String(s.lexemes).padStart(6),
    String(s.postings).padStart(9),
    ((100 * s.postings) / size.sites).toFixed(1) + "%",
    chosen.includes(s.beginning) ? "yes" : "",
  );
console.log("chosen", chosen.length, chosen.join(","));
await stack.stop();
