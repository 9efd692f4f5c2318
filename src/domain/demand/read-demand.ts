/**
 * GET /provider/demand: how the key's own claim domain fares in organic discovery, as
 * privacy-thresholded aggregates. Nothing leaves the database below a day-by-surface-by-topic
 * count, and nothing of those counts leaves this module unless the rules of publication.ts allow
 * it. Synthetic and expired receipts are never counted; the caller cannot name another domain.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import type { ProviderKeyActor } from "../actor.ts";
import { type ClaimRow, isVerifiedAndFresh } from "../claims/claim-record.ts";
import { DomainError } from "../errors.ts";
import { ACTION_TYPES, type ActionType } from "../search-receipts/receipt-constants.ts";
import {
  ACTION_INTEREST_COHORT,
  ACTION_INTEREST_RECEIPT_THRESHOLD,
  ACTION_TYPE_RECEIPT_THRESHOLD,
  DEMAND_MAX_DAYS,
  DEMAND_RETENTION_DAYS,
  DEMAND_SURFACES,
  type DemandSurface,
  RESULT_SELECTION_RECEIPT_THRESHOLD,
  TOPIC_RECEIPT_THRESHOLD,
} from "./demand-constants.ts";
import { type FamilyRow, publishedInWindow, visibleAfterRemainder, windowCount } from "./publication.ts";
import { DEMAND_TOPICS, type DemandTopic } from "./topics.ts";

export const DEMAND_EVIDENCE_SCOPE =
  "authenticated_claim_domain_only: aggregate counts of retained, non-synthetic receipts that returned this claim's domain; no individual receipt, query, identity or search id";

/** Today's UTC date, by the database's clock (the batch's now()). */
const TODAY = sql.raw("(now() at time zone 'UTC')::date");

/** One grouping-set row: exactly one of surface and topic is set. */
interface DailyRow {
  day: number;
  surface: string | null;
  topic: string | null;
  results: number;
  position_sum: number | string;
  selections: number;
}
/** One grouping-set row: exactly one of surface, topic and action_type is set. */
interface InterestRow {
  day: number;
  surface: string | null;
  topic: string | null;
  action_type: string | null;
  interests: number;
}

/** One figure's counts per lookback day. */
class Series {
  readonly days = new Array<number>(DEMAND_MAX_DAYS).fill(0);
  add(day: number, count: number) {
    this.days[day] = (this.days[day] ?? 0) + count;
  }
}

/** Series by key, made on first use. */
class SeriesMap<K> extends Map<K, Series> {
  of(key: K): Series {
    let series = this.get(key);
    if (!series) {
      series = new Series();
      this.set(key, series);
    }
    return series;
  }
  days(key: K): readonly number[] {
    return this.get(key)?.days ?? [];
  }
}

/** The day series a demand answer is computed from (all windows at once, for rule 1). */
interface DemandSeries {
  results: SeriesMap<string>;
  positions: SeriesMap<string>;
  selections: SeriesMap<string>;
  interests: SeriesMap<string>;
}

// Keys of the series maps: the whole domain, one surface, one topic, one action type.
const ALL = "all";
const surfaceKey = (surface: string) => `surface:${surface}`;
const topicKey = (topic: string) => `topic:${topic}`;
const actionKey = (actionType: string) => `action:${actionType}`;

/**
 * The series from the grouping-set rows: a row names exactly one of surface, topic or action
 * type; the whole domain's figures are the sum of its surface rows.
 */
function collect(daily: DailyRow[], interests: InterestRow[]): DemandSeries {
  const series: DemandSeries = {
    results: new SeriesMap(),
    positions: new SeriesMap(),
    selections: new SeriesMap(),
    interests: new SeriesMap(),
  };
  for (const row of daily) {
    const keys = row.surface !== null ? [ALL, surfaceKey(row.surface)] : [topicKey(row.topic as string)];
    for (const key of keys) {
      series.results.of(key).add(row.day, Number(row.results));
      series.positions.of(key).add(row.day, Number(row.position_sum));
      series.selections.of(key).add(row.day, Number(row.selections));
    }
  }
  for (const row of interests) {
    const keys =
      row.surface !== null
        ? [ALL, surfaceKey(row.surface)]
        : row.topic !== null
          ? [topicKey(row.topic)]
          : [actionKey(row.action_type as string)];
    for (const key of keys) series.interests.of(key).add(row.day, Number(row.interests));
  }
  return series;
}

const rate = (count: number | null, of: number) => (count === null || of === 0 ? null : round(count / of, 4));
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The demand answer for a window of `days`, from the day series: thresholds, rule 1 for every
 * thresholded figure, rule 2 for every family of rows under a published total.
 */
export function demandFromSeries(series: DemandSeries, domain: string, days: number) {
  const window = readWindow(series, days);
  const totals = windowTotals(window);
  return {
    domain,
    days,
    retention_days: DEMAND_RETENTION_DAYS,
    action_interest_cohort: ACTION_INTEREST_COHORT,
    topic_receipt_threshold: TOPIC_RECEIPT_THRESHOLD,
    result_selection_receipt_threshold: RESULT_SELECTION_RECEIPT_THRESHOLD,
    action_interest_receipt_threshold: ACTION_INTEREST_RECEIPT_THRESHOLD,
    synthetic_excluded: true as const,
    summary: summaryOf(window, totals),
    surfaces: surfaceRows(window, totals),
    demand_topics: topicRows(window, totals),
    action_types: actionTypeRows(window, totals),
  };
}

/** The readers of one window over the series: raw counts, rule-1 figures, families and positions. */
function readWindow(series: DemandSeries, days: number) {
  const counted = (map: SeriesMap<string>, key: string) => windowCount(map.days(key), days);
  const published = (map: SeriesMap<string>, key: string, threshold: number) =>
    publishedInWindow(map.days(key), threshold, days, DEMAND_MAX_DAYS);
  const averagePosition = (key: string) => {
    const results = counted(series.results, key);
    return results === 0 ? 0 : round(counted(series.positions, key) / results, 2);
  };
  /** Rule 1 for each row of a family, then rule 2 against the family's total. */
  const family = <K>(
    keys: readonly K[],
    keyOf: (key: K) => string,
    map: SeriesMap<string>,
    total: number | null,
    threshold: number,
  ) => {
    const rows: FamilyRow<K>[] = keys.map((key) => ({ key, value: published(map, keyOf(key), threshold) }));
    const visible = visibleAfterRemainder(total, rows, threshold);
    return new Map(rows.map((row) => [row.key, visible.has(row.key) ? row.value : null]));
  };
  return { series, counted, published, averagePosition, family };
}

type Window = ReturnType<typeof readWindow>;

/** The totals each family is checked against: organic returns (always shown), selections and interests. */
function windowTotals({ series, counted, published }: Window) {
  return {
    organic: counted(series.results, ALL),
    selections: published(series.selections, ALL, RESULT_SELECTION_RECEIPT_THRESHOLD),
    interests: published(series.interests, ALL, ACTION_INTEREST_RECEIPT_THRESHOLD),
  };
}

type Totals = ReturnType<typeof windowTotals>;

/** The whole domain's figures, with rates only where both counts are published. */
function summaryOf({ averagePosition }: Window, { organic, selections, interests }: Totals) {
  return {
    organic_results_returned: organic,
    // A receipt returns a domain at most once, so the domain's receipts are its returns.
    search_receipts: organic,
    average_organic_position: averagePosition(ALL),
    result_selections: selections,
    result_selection_rate: rate(selections, organic),
    result_selection_suppressed: selections === null,
    action_interest_receipts: interests,
    action_interest_rate: rate(interests, organic),
    action_interest_suppressed: interests === null,
  };
}

/** A row per surface: returns always, selections and interests as the family rules leave them. */
function surfaceRows({ series, counted, family }: Window, totals: Totals) {
  const surfaceSelections = family(
    DEMAND_SURFACES,
    surfaceKey,
    series.selections,
    totals.selections,
    RESULT_SELECTION_RECEIPT_THRESHOLD,
  );
  const surfaceInterests = family(
    DEMAND_SURFACES,
    surfaceKey,
    series.interests,
    totals.interests,
    ACTION_INTEREST_RECEIPT_THRESHOLD,
  );
  return DEMAND_SURFACES.map((surface: DemandSurface) => {
    const selected = surfaceSelections.get(surface) ?? null;
    const interested = surfaceInterests.get(surface) ?? null;
    return {
      surface,
      organic_results_returned: counted(series.results, surfaceKey(surface)),
      result_selections: selected,
      result_selection_suppressed: selected === null,
      action_interest_receipts: interested,
      action_interest_suppressed: interested === null,
    };
  });
}

/** The topics whose receipts may be shown, most receipts first, each with its own family-ruled figures. */
function topicRows({ series, averagePosition, family }: Window, totals: Totals) {
  // Topics: a row exists only when its receipts are published (rule 1) and survive rule 2
  // against the summary's receipts, which are always reported.
  const topicReceipts = family(DEMAND_TOPICS, topicKey, series.results, totals.organic, TOPIC_RECEIPT_THRESHOLD);
  const shownTopics = DEMAND_TOPICS.filter((topic) => topicReceipts.get(topic) !== null);
  const topicSelections = family(
    shownTopics,
    topicKey,
    series.selections,
    totals.selections,
    RESULT_SELECTION_RECEIPT_THRESHOLD,
  );
  const topicInterests = family(
    shownTopics,
    topicKey,
    series.interests,
    totals.interests,
    ACTION_INTEREST_RECEIPT_THRESHOLD,
  );
  return shownTopics
    .map((topic: DemandTopic) => {
      const selected = topicSelections.get(topic) ?? null;
      const interested = topicInterests.get(topic) ?? null;
      return {
        topic,
        search_receipts: topicReceipts.get(topic) as number,
        average_organic_position: averagePosition(topicKey(topic)),
        result_selections: selected,
        result_selection_suppressed: selected === null,
        action_interest_receipts: interested,
        action_interest_suppressed: interested === null,
      };
    })
    .sort((a, b) => b.search_receipts - a.search_receipts);
}

/** The action types whose interest receipts may be shown, most first. */
function actionTypeRows({ series, family }: Window, totals: Totals) {
  const actionCounts = family(
    ACTION_TYPES,
    actionKey,
    series.interests,
    totals.interests,
    ACTION_TYPE_RECEIPT_THRESHOLD,
  );
  return ACTION_TYPES.filter((actionType) => actionCounts.get(actionType) !== null)
    .map((actionType: ActionType) => ({
      action_type: actionType,
      receipt_count: actionCounts.get(actionType) as number,
    }))
    .sort((a, b) => b.receipt_count - a.receipt_count);
}

export type DemandAnalytics = ReturnType<typeof demandFromSeries>;

/**
 * The two queries demand is computed from, for one domain: its daily rows (returned results,
 * positions, selections) and its daily interests, for the UTC days today and the 29 before, as
 * lookback days (0 = today). Run them in one batch: one transaction, one snapshot, one now().
 * A window of whole UTC days never holds an expired row: the oldest day it can reach, today - 29,
 * began after now - 30 days, so every receipt of it is still live.
 */
export function demandQueries(domain: string): [SQL, SQL] {
  // Grouping sets: the rules need each day's series per surface and per topic, never per
  // surface and topic at once, so the database sums the cells first (at most 30 x (3 + 26) rows).
  return [
    sql`
      select (${TODAY} - d.day)::int as day, d.surface, d.topic, sum(d.results)::int as results,
             sum(d.position_sum)::bigint as position_sum, sum(d.selections)::int as selections
        from demand_daily d
       where d.domain = ${domain} and d.day between ${TODAY} - ${DEMAND_MAX_DAYS - 1}::int and ${TODAY}
       group by grouping sets ((d.day, d.surface), (d.day, d.topic))`,
    sql`
      select (${TODAY} - d.day)::int as day, d.surface, d.topic, d.action_type, sum(d.interests)::int as interests
        from demand_daily_interests d
       where d.domain = ${domain} and d.day between ${TODAY} - ${DEMAND_MAX_DAYS - 1}::int and ${TODAY}
       group by grouping sets ((d.day, d.surface), (d.day, d.topic), (d.day, d.action_type))`,
  ];
}

/** `demandQueries` as statements of a batch. */
export function demandStatements(db: Database, domain: string) {
  const [daily, interests] = demandQueries(domain);
  return [db.execute(daily), db.execute(interests)] as const;
}

type StatementResult = { rows: unknown[] };

/** The answer for a window from the rows of `demandStatements`. */
export function demandFromRows(
  [daily, interests]: readonly [StatementResult, StatementResult],
  domain: string,
  days: number,
): DemandAnalytics {
  return demandFromSeries(collect(daily.rows as DailyRow[], interests.rows as InterestRow[]), domain, days);
}

/** Reads the window's demand of the key's claim domain; 404 when the claim stopped being fresh. */
export async function readDemand({
  ctx,
  actor,
  days,
}: {
  ctx: { db: Database; now: Date };
  /** Only the claim is read: a key's actor, or the owner's claim on the console (owner-demand.ts). */
  actor: Pick<ProviderKeyActor, "claimId" | "domain">;
  days: number;
}): Promise<{ demand: DemandAnalytics; evidence_scope: string }> {
  const domain = actor.domain;
  // One batch, one transaction: the claim and every count see the same snapshot and now().
  const [claimResult, ...rows] = await ctx.db.batch([
    ctx.db.execute(sql`select * from provider_claims where id = ${actor.claimId}`),
    ...demandStatements(ctx.db, domain),
  ]);
  const claim = claimResult.rows[0] as ClaimRow | undefined;
  if (!claim || claim.domain !== domain || !isVerifiedAndFresh(claim, ctx.now)) {
    throw new DomainError("not_found", "CLAIM_NOT_FRESH", "The claim of this key is no longer verified and fresh.");
  }
  return { demand: demandFromRows(rows, domain, days), evidence_scope: DEMAND_EVIDENCE_SCOPE };
}
