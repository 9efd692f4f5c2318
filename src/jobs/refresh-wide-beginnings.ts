/** The daily refresh of the search index's wide beginnings (src/domain/search/wide-beginnings.ts). */
import { refreshWideBeginnings } from "../domain/search/wide-beginnings.ts";
import type { CronTask } from "./group-jobs.ts";

/** Daily at 04:20 UTC, after the retention purge and away from the quarter hours. */
export const WIDE_BEGINNINGS_CRON = "20 4 * * *";

export const refreshWideBeginningsTask: CronTask = {
  cron: WIDE_BEGINNINGS_CRON,
  name: "refresh-wide-beginnings",
  run: async (deps) => {
    const summary = await refreshWideBeginnings(deps.db);
    console.log(
      `wide beginnings: ${summary.chosen.length} called for, registered ${JSON.stringify(summary.registered)}, unregistered ${JSON.stringify(summary.unregistered)}, ${summary.deferred} deferred`,
    );
  },
};
