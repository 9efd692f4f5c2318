/**
 * Index statistics (GET /stats), over every indexed site, audit-only buckets included and counted
 * apart. Cached for 5 minutes: a full pass over the index is too costly to repeat per request.
 *
 * Shape: sites {total, discovery, audit_only {other, spam}}; signals {<field>: {sites, share}};
 * scores {average, median, distribution [{min, max, sites}] in tens, 90-100 last};
 * freshness {newest_crawl_at, oldest_crawl_at, crawled_within {24h, 7d, 30d}, older_than_30d,
 * failed_last_crawl}; score_version; generated_at.
 */
import { sql } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import type { DomainContext } from "../context.ts";
import { SCORE_VERSION } from "../scoring/agentic-score.ts";
import { SIGNAL_FIELDS, type SignalField } from "../sites/site-fields.ts";

export const STATS_CACHE_SECONDS = 300;

const share = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);
const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

export async function indexStats({ ctx }: { ctx: DomainContext }) {
  const { value } = await ctx.cache.remember("stats:v1", STATS_CACHE_SECONDS, async () => {
    const signalCounts = sql.join(
      SIGNAL_FIELDS.map((field) => sql`count(*) filter (where ${sql.identifier(field)})::int`),
      sql`, `,
    );
    const [summaryResult, bucketResult] = await ctx.db.batch([
      ctx.db.execute(sql`
        select
          count(*)::int as total,
          count(*) filter (where ${sites.category} = 'other')::int as other,
          count(*) filter (where ${sites.category} = 'spam')::int as spam,
          array[${signalCounts}] as signal_counts,
          round(avg(${sites.agenticScore}), 1)::float8 as average,
          percentile_disc(0.5) within group (order by ${sites.agenticScore})::int as median,
          max(${sites.lastCrawledAt}) as newest,
          min(${sites.lastCrawledAt}) as oldest,
          count(*) filter (where ${sites.lastCrawledAt} > now() - interval '1 day')::int as within_day,
          count(*) filter (where ${sites.lastCrawledAt} > now() - interval '7 days')::int as within_week,
          count(*) filter (where ${sites.lastCrawledAt} > now() - interval '30 days')::int as within_month,
          count(*) filter (where ${sites.crawlStatus} <> 'success')::int as failed
        from ${sites}`),
      ctx.db.execute(sql`
        select least(${sites.agenticScore} / 10, 9)::int as bucket, count(*)::int as sites
        from ${sites} group by 1`),
    ]);
    const summary = summaryResult.rows[0] as {
      total: number;
      other: number;
      spam: number;
      signal_counts: number[];
      average: number | null;
      median: number | null;
      newest: string | null;
      oldest: string | null;
      within_day: number;
      within_week: number;
      within_month: number;
      failed: number;
    };
    const buckets = new Map(
      (bucketResult.rows as { bucket: number; sites: number }[]).map((row) => [row.bucket, row.sites]),
    );
    const total = summary.total;
    return {
      sites: {
        total,
        discovery: total - summary.other - summary.spam,
        audit_only: { other: summary.other, spam: summary.spam },
      },
      signals: Object.fromEntries(
        SIGNAL_FIELDS.map((field, index) => {
          const count = Number(summary.signal_counts[index] ?? 0);
          return [field, { sites: count, share: share(count, total) }];
        }),
      ) as Record<SignalField, { sites: number; share: number }>,
      scores: {
        average: summary.average,
        median: summary.median,
        distribution: Array.from({ length: 10 }, (_, bucket) => ({
          min: bucket * 10,
          max: bucket === 9 ? 100 : bucket * 10 + 9,
          sites: buckets.get(bucket) ?? 0,
        })),
      },
      freshness: {
        newest_crawl_at: iso(summary.newest),
        oldest_crawl_at: iso(summary.oldest),
        crawled_within: { "24h": summary.within_day, "7d": summary.within_week, "30d": summary.within_month },
        older_than_30d: total - summary.within_month,
        failed_last_crawl: summary.failed,
      },
      score_version: SCORE_VERSION,
      generated_at: new Date().toISOString(),
    };
  });
  return value;
}

export type IndexStats = Awaited<ReturnType<typeof indexStats>>;
