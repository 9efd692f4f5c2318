/** The discovery Worker: descriptor, search, top, site, categories, stats. */
import { discoveryGroup } from "../src/routes/discovery/index.ts";
import { createWorker } from "../src/worker.ts";

export default createWorker([discoveryGroup]);
