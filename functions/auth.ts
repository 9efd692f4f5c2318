/** The auth Worker: e-mail sign-in and the session. */
import { authGroup } from "../src/routes/auth/index.ts";
import { createWorker } from "../src/worker.ts";

export default createWorker([authGroup]);
