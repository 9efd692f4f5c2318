/**
 * The monitor group: score-drop monitors (register, confirm, unsubscribe) and the cron that
 * detects drops and mails the alerts (docs/monitors.md).
 */
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import { monitorAlertsTask } from "../../jobs/monitor-alerts.ts";
import type { GroupDefinition } from "../group-definition.ts";
import { registerConfirmMonitors } from "./confirm-monitors.ts";
import { registerRegisterMonitor } from "./register-monitor.ts";
import { registerUnsubscribeMonitor } from "./unsubscribe-monitor.ts";

/** Builds the monitor group's endpoints. */
export function createMonitorGroup(): RouteGroup {
  const routes = createRoutes();
  registerRegisterMonitor(routes);
  registerConfirmMonitors(routes);
  registerUnsubscribeMonitor(routes);
  return { name: "monitor", routes };
}

/** The monitor group in a Worker: its endpoints and the score-drop alert cron. */
export const monitorGroup: GroupDefinition = {
  name: "monitor",
  createRoutes: createMonitorGroup,
  jobs: { crons: [monitorAlertsTask] },
};
