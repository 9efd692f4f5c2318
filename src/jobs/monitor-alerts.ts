/** The score-drop alert cron task of the monitor group (src/domain/monitors/drop-alerts.ts). */
import { runMonitorAlerts } from "../domain/monitors/drop-alerts.ts";
import { composeDropAlert } from "../web/monitor-alert-mail.ts";
import type { CronTask } from "./group-jobs.ts";

/** Every 5 minutes: a drop is mailed within minutes of the crawl that showed it. */
export const MONITOR_ALERTS_CRON = "*/5 * * * *";

export const monitorAlertsTask: CronTask = {
  cron: MONITOR_ALERTS_CRON,
  name: "monitor-alerts",
  run: async (deps) => {
    const summary = await runMonitorAlerts(deps, composeDropAlert);
    console.log(`monitor alerts: ${JSON.stringify(summary)}`);
    // Failed sends are kept and retried by a later run; the run itself still counts as failed.
    if (summary.failed > 0) throw new Error(`monitor alerts: ${summary.failed} not sent, to be retried`);
  },
};
