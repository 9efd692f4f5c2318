/** The exchange Worker: public action interests. */
import { exchangeGroup } from "../src/routes/exchange/index.ts";
import { createWorker } from "../src/worker.ts";

export default createWorker([exchangeGroup]);
