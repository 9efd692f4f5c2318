/** The commerce Worker: catalog, quotes, checkouts, the priority key and Stripe's webhook. */
import { commerceGroup } from "../src/routes/commerce/index.ts";
import { createWorker } from "../src/worker.ts";

export default createWorker([commerceGroup]);
