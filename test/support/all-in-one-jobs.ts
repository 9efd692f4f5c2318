/**
 * The all-in-one Worker (functions/all.ts) for tests that call its job handlers with real
 * controllers and message batches: it runs every group, so it must export both.
 */
import worker from "../../functions/all.ts";

const { queue, scheduled } = worker;
if (!queue || !scheduled) throw new Error("functions/all.ts must export queue and scheduled handlers");

export default { queue, scheduled };
