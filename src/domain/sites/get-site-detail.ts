/**
 * The selected-site detail: the Site record, the evidence behind each signal, and the score
 * history. Given a search id, the view is also recorded as a selection of that search's result,
 * once, and only when the search is live and returned this domain.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { siteScoreHistory } from "../../../db/schema/score-history.ts";
import { resultSelections, searchReceipts } from "../../../db/schema/search-receipts.ts";
import { sites } from "../../../db/schema/sites.ts";
import type { ChecklistSummary, CheckResult } from "../checklist/checklist-definition.ts";
import type { DomainContext } from "../context.ts";
import { DomainError } from "../errors.ts";
import { buildActionInterestSidecar } from "../search-receipts/action-interest-sidecar.ts";
import { liveReturnedResult } from "../search-receipts/live-result.ts";
import { normalizeDomain } from "./domain-name.ts";
import { siteRecordColumns, toSiteRecord } from "./site-record.ts";

/** How many past scores the detail shows, newest first. */
export const SCORE_HISTORY_LIMIT = 30;

export interface SiteDetailInput {
  domain: string;
  searchId?: string;
}

const unknownSite = () => new DomainError("not_found", "SITE_NOT_FOUND", "No indexed site has this domain.");

/**
 * The site's key: a normalised domain name, or exactly one of `npm start`'s local demo hosts
 * (`127.0.0.1:<port>`, LOCAL_DEMO_HOSTS, trusted on the local stack only), which a submission or a
 * check of a demo site indexes under its host and port.
 */
function siteKey(domain: string, trustedHosts: readonly string[] = []): string | null {
  return (
    normalizeDomain(domain) ?? (trustedHosts.includes(domain.trim().toLowerCase()) ? domain.trim().toLowerCase() : null)
  );
}

export async function getSiteDetail({
  ctx,
  input,
}: {
  ctx: DomainContext & { trustedHosts?: readonly string[] };
  input: SiteDetailInput;
}) {
  const domain = siteKey(input.domain, ctx.trustedHosts);
  if (!domain) throw unknownSite();
  const { siteRows, historyRows, selection } = await readSite(ctx, domain, input.searchId);
  const row = siteRows[0];
  if (!row) throw unknownSite();
  const newRealSelection = selection !== undefined && !selection.synthetic;
  return {
    ...toSiteRecord(row),
    score_version: row.scoreVersion,
    signal_evidence: row.signalEvidence,
    // The checklist of the last successful crawl; empty (and no summary) for a site last crawled
    // before the checklist existed.
    checks: (row.checklist?.checks ?? []) as CheckResult[],
    ...(row.checklist ? { checks_summary: row.checklist.summary as ChecklistSummary } : {}),
    // What the site's own documents say it does (migration 0036); none for a site not crawled since.
    capabilities: row.capabilities ?? [],
    score_history: historyRows.map((entry) => ({
      agentic_score: entry.agenticScore,
      score_version: entry.scoreVersion,
      recorded_at: entry.recordedAt.toISOString(),
    })),
    selection_recorded: selection !== undefined,
    // A selection alone is never interest: the sidecar only says how interest could be recorded.
    ...(newRealSelection && input.searchId
      ? {
          action_interest: buildActionInterestSidecar({
            origin: ctx.origin,
            available: true,
            searchId: input.searchId,
            domains: [domain],
          }),
        }
      : {}),
  };
}

export type SiteDetail = Awaited<ReturnType<typeof getSiteDetail>>;

/**
 * The site's row and score history, and with a search id the selection, all in one batch (one
 * transaction, one round trip).
 */
async function readSite(ctx: DomainContext, domain: string, searchId: string | undefined) {
  const siteQuery = ctx.db
    .select({
      ...siteRecordColumns,
      signalEvidence: sites.signalEvidence,
      scoreVersion: sites.scoreVersion,
      checklist: sites.checklist,
      capabilities: sites.capabilities,
    })
    .from(sites)
    .where(eq(sites.domain, domain));
  const historyQuery = ctx.db
    .select({
      agenticScore: siteScoreHistory.agenticScore,
      scoreVersion: siteScoreHistory.scoreVersion,
      recordedAt: siteScoreHistory.recordedAt,
    })
    .from(siteScoreHistory)
    .innerJoin(sites, eq(sites.id, siteScoreHistory.siteId))
    .where(eq(sites.domain, domain))
    .orderBy(desc(siteScoreHistory.recordedAt))
    .limit(SCORE_HISTORY_LIMIT);
  if (!searchId) {
    const [siteRows, historyRows] = await ctx.db.batch([siteQuery, historyQuery]);
    return { siteRows, historyRows, selection: undefined };
  }
  const [selected, siteRows, historyRows] = await ctx.db.batch([
    recordSelection(ctx, searchId, domain),
    siteQuery,
    historyQuery,
  ]);
  return { siteRows, historyRows, selection: selected[0] };
}

/**
 * The view as a selection of the search's result: written only if the site exists and the live
 * receipt returned it; a repeat hits the primary key and records nothing.
 */
function recordSelection(ctx: DomainContext, searchId: string, domain: string) {
  return ctx.db
    .insert(resultSelections)
    .select(
      ctx.db
        .select({
          searchId: searchReceipts.searchId,
          domain: sql`${domain}::text`.as("domain"),
          synthetic: searchReceipts.synthetic,
          createdAt: sql`now()`.as("created_at"),
          expiresAt: searchReceipts.expiresAt,
        })
        .from(searchReceipts)
        .where(
          and(
            liveReturnedResult(searchId, domain),
            sql`exists (select 1 from ${sites} where ${sites.domain} = ${domain})`,
          ),
        ),
    )
    .onConflictDoNothing()
    .returning({ synthetic: resultSelections.synthetic });
}
