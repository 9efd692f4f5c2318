/** The ownership recheck cron task: every verified claim's DNS proof is checked once a day. */
import { recheckDueClaims } from "../domain/claims/recheck-due-claims.ts";
import type { CronTask } from "./group-jobs.ts";

/**
 * Every 15 minutes the claims that are due are checked, so each claim is rechecked within 15
 * minutes of its time (a day after its last success, earlier after a failure).
 */
export const RECHECK_CLAIMS_CRON = "*/15 * * * *";

export const recheckClaimsTask: CronTask = {
  cron: RECHECK_CLAIMS_CRON,
  name: "recheck-claims",
  // The run acts at its scheduled time, which is also how tests move the clock.
  run: async (deps, controller) => {
    const summary = await recheckDueClaims({ ...deps, now: new Date(controller.scheduledTime) });
    console.log(`ownership recheck: ${JSON.stringify(summary)}`);
  },
};
