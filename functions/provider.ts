/** The provider Worker: claims and keys on a session, the provider-key endpoints, and the ownership recheck cron. */
import { providerGroup } from "../src/routes/provider/index.ts";
import { createWorker } from "../src/worker.ts";

export default createWorker([providerGroup]);
