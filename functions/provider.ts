/** The provider Worker: claims and keys on a session, the provider-key endpoints, the ownership recheck and retention purge crons. */
import { providerGroup } from "../src/routes/provider/index.ts";
import { createWorker } from "../src/worker.ts";

export default createWorker([providerGroup]);
