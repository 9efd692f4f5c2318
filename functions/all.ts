/** The all-in-one Worker: every group and every job on one deployable (what `wrangler dev` runs). */
import { ALL_GROUPS } from "../src/routes/groups.ts";
import { createWorker } from "../src/worker.ts";

export default createWorker(ALL_GROUPS);
