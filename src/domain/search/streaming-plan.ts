/**
 * Plan settings for statements that merge index ranges in organic order and stop early (a
 * search's driver lists, the top list's signal patterns). Each range must stream from its index
 * and the merge must stop at its limit: the planner, seeing only row estimates, would otherwise
 * often sort or hash whole ranges, or hand one to parallel workers that read far past what the
 * merge takes. JIT is off because its compile time exceeds such a statement's run time.
 *
 * One statement of `set_config(…, true)`, the function form of `set local`: the settings end with
 * the batch's transaction, and a batch sent statement by statement (the benchmark's connection)
 * pays one round trip for them rather than eight.
 */
import { type SQL, sql } from "drizzle-orm";

const SETTINGS = {
  enable_seqscan: "off",
  enable_bitmapscan: "off",
  enable_sort: "off",
  enable_hashagg: "off",
  enable_hashjoin: "off",
  enable_mergejoin: "off",
  max_parallel_workers_per_gather: "0",
  jit: "off",
};

export const STREAMING_PLAN_SETTINGS: SQL = sql.raw(
  `select ${Object.entries(SETTINGS)
    .map(([setting, value]) => `set_config('${setting}', '${value}', true)`)
    .join(", ")}`,
);

/**
 * For a ranked search's statement (ranked-search.ts), which reads each list to a fixed depth and
 * then hashes and sorts what it read, as the planner would: only JIT and parallel workers off.
 */
export const RANKED_PLAN_SETTINGS: SQL = sql.raw(
  "select set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)",
);

/** JIT off for the rest of the batch's transaction, for statements whose estimates overstate them. */
export const JIT_OFF: SQL = sql.raw("select set_config('jit', 'off', true)");
