import { and, eq, gt, type SQL, sql } from "drizzle-orm";
import { searchReceiptResults, searchReceipts } from "../../../db/schema/search-receipts.ts";

/**
 * The rule selections and action interests share: the search receipt is still live and returned
 * this domain. A condition on `search_receipt_results` joined to `search_receipts`.
 */
export function liveReturnedResult(searchId: string, domain: string): SQL {
  return and(
    eq(searchReceiptResults.searchId, searchId),
    eq(searchReceiptResults.domain, domain),
    gt(searchReceipts.expiresAt, sql`now()`),
  ) as SQL;
}
