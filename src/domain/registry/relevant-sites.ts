/**
 * The one call of the ARD registry into the site search (src/domain/search): the indexed sites a
 * text matches, most relevant first, as the organic search orders them. Kept to this one thin
 * function so that whatever ranks the site search (today its relevance tiers, docs/discovery.md)
 * ranks the registry too, with no second copy of the ranking here.
 */
import { type RunSqlBatch, sqlBatchRunner } from "../../adapters/db.ts";
import type { DomainContext } from "../context.ts";
import { runSearchQuery, SEARCH_PAGE_SIZE } from "../search/search-sites.ts";

/**
 * How many of the site search's results a registry text query reads: its relevance cutoff (ARD
 * §5.3.3: registry-defined, the same for Search and Explore). Five pages of the site search.
 */
export const REGISTRY_TEXT_WINDOW = 100;

/**
 * The domains `text` matches, in organic order, at most REGISTRY_TEXT_WINDOW. The pages are read
 * at once (each is read-only: no receipt, no offer disclosure, nothing recorded).
 */
export async function relevantSiteDomains(ctx: DomainContext, text: string): Promise<string[]> {
  return relevantDomainsOver(sqlBatchRunner(ctx.db), text);
}

/** `relevantSiteDomains` over any batch runner. */
export async function relevantDomainsOver(run: RunSqlBatch, text: string): Promise<string[]> {
  const pages = REGISTRY_TEXT_WINDOW / SEARCH_PAGE_SIZE;
  const first = await runSearchQuery(run, { q: text, filters: {}, page: 1 });
  if (!first.hasNext) return first.results.map((site) => site.domain);
  const rest = await Promise.all(
    Array.from({ length: pages - 1 }, (_, index) => runSearchQuery(run, { q: text, filters: {}, page: index + 2 })),
  );
  const domains: string[] = [];
  for (const page of [first, ...rest]) for (const site of page.results) domains.push(site.domain);
  // A page read a moment later may repeat a site the index moved; each is listed once.
  return [...new Set(domains)].slice(0, REGISTRY_TEXT_WINDOW);
}
