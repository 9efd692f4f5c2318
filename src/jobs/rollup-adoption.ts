/** The daily adoption rollup (src/domain/stats/adoption-rollup.ts) of the discovery group. */
import { rollupAdoption, utcDay } from "../domain/stats/adoption-rollup.ts";
import type { CronTask } from "./group-jobs.ts";

/**
 * Daily at 23:50 UTC: a day's figures are the index as it stands near the end of that day. The day
 * is the one of the scheduled time, so a late or repeated run still writes (replaces) that day.
 */
export const ADOPTION_ROLLUP_CRON = "50 23 * * *";

export const rollupAdoptionTask: CronTask = {
  cron: ADOPTION_ROLLUP_CRON,
  name: "rollup-adoption",
  run: async (deps, controller) => {
    const summary = await rollupAdoption(deps.db, utcDay(new Date(controller.scheduledTime)));
    console.log(`adoption rollup: ${summary.rows} rows for ${summary.day} in ${summary.durationMs} ms`);
  },
};
