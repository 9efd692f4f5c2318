/**
 * One organic search as every surface (REST, MCP, web) answers it: results, receipt, sidecar.
 *
 * Two sequential store round trips (docs/discovery.md, "A search's round trips"): the caller's
 * rate limit (Redis) beside the search's first step, which only reads; then the second step, in
 * whose transaction the receipt is written from the page itself and the offers for its domains
 * disclosed. Nothing is written before the limit has passed, and the answer says a receipt was
 * recorded only when that transaction committed.
 */
import { sqlBatchRunner } from "../../adapters/db.ts";
import type { DomainContext } from "../context.ts";
import { classifyDemandTopic } from "../demand/topics.ts";
import { disclosedOffers, discloseOffersStatement } from "../offers/disclose-offers.ts";
import { buildActionInterestSidecar } from "../search-receipts/action-interest-sidecar.ts";
import type { SearchSurface } from "../search-receipts/receipt-constants.ts";
import {
  receiptFromRow,
  recordSearchReceipt,
  type SearchReceipt,
  searchReceiptInsertSql,
} from "../search-receipts/record-search-receipt.ts";
import { newSearchId } from "../search-receipts/search-id.ts";
import { runSearchQuery, SEARCH_PAGE_SIZE, type SearchInput } from "./search-sites.ts";
import { explainNoMatch, type NoMatch, postingsVocabulary, type Suggestion } from "./suggestions.ts";

export interface RunSearchInput extends SearchInput {
  surface: SearchSurface;
  /** Marked by the caller (tests, monitors, load runs): kept out of demand and interests. */
  synthetic: boolean;
}

/**
 * `admit` is the caller's admission check (its rate limit): it runs beside the search's first,
 * read-only step, and a search it refuses throws its error having written nothing.
 */
export async function runSearch({
  ctx,
  input,
  admit,
}: {
  ctx: DomainContext;
  input: RunSearchInput;
  admit: () => Promise<unknown>;
}) {
  const searchId = newSearchId();
  const now = new Date();
  const receiptInput = {
    surface: input.surface,
    synthetic: input.synthetic,
    // The query is reduced to its topic here, in memory; only the label reaches the receipt.
    topic: classifyDemandTopic({ q: input.q, tag: input.filters.tag, category: input.filters.category }),
    firstPosition: (input.page - 1) * SEARCH_PAGE_SIZE + 1,
  };
  const page = await runSearchQuery(sqlBatchRunner(ctx.db), input, {
    admit,
    record: {
      write: (domains) => searchReceiptInsertSql(ctx.db, searchId, receiptInput, domains),
      // Offers come after the organic page is fixed, only for the domains on that page, and are
      // disclosed in the receipt's own transaction: shown only when both committed. Nothing
      // here reads them back into results, order or total.
      after: [discloseOffersStatement({ searchId, now })],
    },
  });
  const domains = page.results.map((site) => site.domain);
  // A search that matched nothing without a second step (no words left, no list), or whose
  // page record Postgres refused, records its receipt apart, with the receipt's own fallback.
  const receipt: SearchReceipt = page.recorded
    ? receiptFromRow(searchId, input.synthetic, page.recorded.row, page.recorded.after[0])
    : await recordSearchReceipt({
        ctx,
        input: { ...receiptInput, searchId, domains, firstPosition: page.firstPosition },
        alongside: domains.length > 0 ? () => discloseOffersStatement({ searchId, now }) : undefined,
      });
  // A search that found nothing says why, with the vocabulary's nearest words: one more read,
  // after the receipt, only for such a search (docs/discovery.md, "When nothing matches").
  // Only such an answer carries `no_match` and `suggestions`: one that found sites has the
  // interface's fields alone.
  const empty: { no_match?: NoMatch; suggestions?: Suggestion[] } =
    page.total === 0 ? await explainNoMatch(postingsVocabulary(ctx.db), input) : {};
  const paidOffers = receipt.recorded && receipt.alongside ? disclosedOffers(receipt.alongside) : [];
  return {
    access: "free" as const,
    receipt_recorded: receipt.recorded,
    search_id: receipt.recorded ? receipt.searchId : "",
    results: page.results,
    paid_offers_available: paidOffers.length > 0,
    paid_offers: paidOffers,
    action_interest: buildActionInterestSidecar({
      origin: ctx.origin,
      available: receipt.recorded && !receipt.synthetic && domains.length > 0,
      searchId: receipt.recorded ? receipt.searchId : "",
      domains,
    }),
    total: page.total,
    total_exact: page.totalExact,
    page: page.page,
    per_page: page.perPage,
    has_next: page.hasNext,
    ...empty,
  };
}

export type SearchResponse = Awaited<ReturnType<typeof runSearch>>;
