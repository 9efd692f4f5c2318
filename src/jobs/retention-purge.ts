/** The daily retention purge cron task (docs/demand.md, "Retention"). */
import { runRetention } from "../domain/retention/purge-expired.ts";
import type { CronTask } from "./group-jobs.ts";

/** Daily at 03:40 UTC, away from the quarter-hour recheck. */
export const RETENTION_PURGE_CRON = "40 3 * * *";

export const retentionPurgeTask: CronTask = {
  cron: RETENTION_PURGE_CRON,
  name: "retention-purge",
  // Expiry is judged by the database's now(), never the scheduled time: a late or repeated run
  // can only delete what has really expired.
  run: async (deps) => {
    const summary = await runRetention({ db: deps.db });
    console.log(`retention purge: ${JSON.stringify(summary)}`);
  },
};
