import { searchReceiptResults, searchReceipts } from "../../../db/schema/search-receipts.ts";
import type { DomainContext } from "../context.ts";
import type { DemandTopic } from "../demand/topics.ts";
import type { SearchSurface } from "./receipt-constants.ts";
import { newSearchId } from "./search-id.ts";

export interface SearchReceiptInput {
  /** The returned organic domains, in order. */
  domains: string[];
  /** Absolute position of domains[0]. */
  firstPosition: number;
  surface: SearchSurface;
  synthetic: boolean;
  /** The query's demand topic (classifyDemandTopic): the only trace of the query that is kept. */
  topic: DemandTopic;
}

export type SearchReceipt =
  | { recorded: true; searchId: string; synthetic: boolean; expiresAt: Date }
  | { recorded: false };

/**
 * Records the query-free receipt of one answered search: the receipt and its returned results
 * in one transaction. It never fails the search: if the write does not commit, the answer says so
 * (`recorded: false`) and nothing can later be bound to it.
 */
export async function recordSearchReceipt({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: SearchReceiptInput;
}): Promise<SearchReceipt> {
  const searchId = newSearchId();
  const insertReceipt = ctx.db
    .insert(searchReceipts)
    .values({
      searchId,
      surface: input.surface,
      synthetic: input.synthetic,
      topic: input.topic,
      resultCount: input.domains.length,
    })
    .returning({ expiresAt: searchReceipts.expiresAt });
  try {
    let inserted: { expiresAt: Date }[];
    if (input.domains.length === 0) {
      inserted = await insertReceipt;
    } else {
      const insertResults = ctx.db.insert(searchReceiptResults).values(
        // created_at and expires_at take their defaults: now() is the transaction's, so they
        // equal the receipt's.
        input.domains.map((domain, index) => ({
          searchId,
          domain,
          position: input.firstPosition + index,
          surface: input.surface,
          topic: input.topic,
          synthetic: input.synthetic,
        })),
      );
      [inserted] = await ctx.db.batch([insertReceipt, insertResults]);
    }
    const expiresAt = inserted[0]?.expiresAt;
    if (!expiresAt) return { recorded: false };
    return { recorded: true, searchId, synthetic: input.synthetic, expiresAt };
  } catch (error) {
    console.error("search receipt not recorded", String(error));
    return { recorded: false };
  }
}
