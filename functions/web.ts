/** The web Worker: the public web root (pages, OpenAPI document, manifests). */
import { webGroup } from "../src/routes/web/index.ts";
import { createWorker } from "../src/worker.ts";

export default createWorker([webGroup]);
