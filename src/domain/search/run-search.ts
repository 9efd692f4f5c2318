/** One organic search as every surface (REST, MCP, web) answers it: results, receipt, sidecar. */
import type { DomainContext } from "../context.ts";
import { classifyDemandTopic } from "../demand/topics.ts";
import { disclosedOffers, discloseOffersStatement } from "../offers/disclose-offers.ts";
import { buildActionInterestSidecar } from "../search-receipts/action-interest-sidecar.ts";
import type { SearchSurface } from "../search-receipts/receipt-constants.ts";
import { recordSearchReceipt } from "../search-receipts/record-search-receipt.ts";
import { type SearchInput, searchSites } from "./search-sites.ts";

export interface RunSearchInput extends SearchInput {
  surface: SearchSurface;
  /** Marked by the caller (tests, monitors, load runs): kept out of demand and interests. */
  synthetic: boolean;
}

export async function runSearch({ ctx, input }: { ctx: DomainContext; input: RunSearchInput }) {
  const page = await searchSites({ ctx, input });
  const domains = page.results.map((site) => site.domain);
  const now = new Date();
  const receipt = await recordSearchReceipt({
    ctx,
    input: {
      domains,
      firstPosition: page.firstPosition,
      surface: input.surface,
      synthetic: input.synthetic,
      // The query is reduced to its topic here, in memory; only the label reaches the receipt.
      topic: classifyDemandTopic({ q: input.q, tag: input.filters.tag, category: input.filters.category }),
    },
    // Offers come after the organic page is fixed, only for the domains on that page, and are
    // disclosed in the receipt's own transaction (one round trip): shown only when both
    // committed. Nothing below reads them back into results, order or total.
    alongside: domains.length > 0 ? (searchId) => discloseOffersStatement({ searchId, now }) : undefined,
  });
  const searchId = receipt.recorded ? receipt.searchId : "";
  const paidOffers = receipt.recorded && receipt.alongside ? disclosedOffers(receipt.alongside) : [];
  return {
    access: "free" as const,
    receipt_recorded: receipt.recorded,
    search_id: searchId,
    results: page.results,
    paid_offers_available: paidOffers.length > 0,
    paid_offers: paidOffers,
    action_interest: buildActionInterestSidecar({
      origin: ctx.origin,
      available: receipt.recorded && !receipt.synthetic && domains.length > 0,
      searchId,
      domains,
    }),
    total: page.total,
    total_exact: page.totalExact,
    page: page.page,
    per_page: page.perPage,
    has_next: page.hasNext,
  };
}

export type SearchResponse = Awaited<ReturnType<typeof runSearch>>;
