import { and, eq, gt, type SQL, sql } from "drizzle-orm";
import { searchReceipts } from "../../../db/schema/search-receipts.ts";

/**
 * The rule selections and action interests share: the search receipt is still live and returned
 * this domain. A condition on `search_receipts` alone: the returned domains are held in the
 * receipt row (`result_domains`), so it reads one primary-key entry of each live day's partition
 * (the live condition lets the database skip every expired day's). The database checks the same
 * rule again when the selection or interest is written (trigger receipt_result_check).
 */
export function liveReturnedResult(searchId: string, domain: string): SQL {
  return and(
    eq(searchReceipts.searchId, searchId),
    gt(searchReceipts.expiresAt, sql`now()`),
    sql`${domain}::text = any(${searchReceipts.resultDomains})`,
  ) as SQL;
}
