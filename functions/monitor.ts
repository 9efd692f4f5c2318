/** The monitor Worker: score-drop monitors (register, confirm, unsubscribe) and the alert cron. */
import { monitorGroup } from "../src/routes/monitor/index.ts";
import { createWorker } from "../src/worker.ts";

export default createWorker([monitorGroup]);
