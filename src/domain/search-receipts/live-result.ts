import { and, eq, gt, type SQL, sql } from "drizzle-orm";
import { searchReceiptResults, searchReceipts } from "../../../db/schema/search-receipts.ts";

/**
 * The rule selections and action interests share: the search receipt is still live and returned
 * this domain. A condition on `search_receipt_results` joined to `search_receipts` (on the search
 * id and the expiry, their shared key). Both tables are partitioned by expiry day, so the live
 * condition on each lets the database skip every expired day's partition.
 */
export function liveReturnedResult(searchId: string, domain: string): SQL {
  return and(
    eq(searchReceiptResults.searchId, searchId),
    eq(searchReceiptResults.domain, domain),
    gt(searchReceipts.expiresAt, sql`now()`),
    gt(searchReceiptResults.expiresAt, sql`now()`),
  ) as SQL;
}
