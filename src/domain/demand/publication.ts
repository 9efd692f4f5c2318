/**
 * What a demand answer may publish: the thresholds and the no-differencing rule (docs/demand.md,
 * "The no-differencing rule"). Pure functions over day series, so every case is unit tested.
 *
 * A series is one figure's count per UTC day of lookback: series[0] counts today so far,
 * series[d] the day d days before, up to DEMAND_MAX_DAYS. The window `days = k` covers
 * series[0..k-1]; windows are nested, so two windows of one figure differ by whole older days.
 *
 * Rule 1 (windows): a thresholded figure is published for window k only if its count reaches
 * the threshold and, compared with every larger window in which it is published, it is equal or
 * smaller by at least the threshold. Decided from the largest window down (30, the default,
 * first), so any two published values of one figure differ by 0 or by >= the threshold: the
 * difference of two windows never isolates fewer receipts than the threshold.
 *
 * Rule 2 (summary minus rows): within one answer, a family of rows that splits a published
 * total (topics, surfaces, action types) leaves the hidden remainder, total minus the visible
 * rows, at 0 or at >= the threshold: while it is between, the smallest visible row (the later
 * one on a tie) is hidden too.
 */

/** Sum of the first `days` entries: the figure's count over that window. */
export function windowCount(series: readonly number[], days: number): number {
  let total = 0;
  for (let day = 0; day < days && day < series.length; day++) total += series[day] ?? 0;
  return total;
}

/**
 * Rule 1: the figure's published value for window `days` (1 to maxDays), or null when it is
 * suppressed there.
 */
export function publishedInWindow(
  series: readonly number[],
  threshold: number,
  days: number,
  maxDays: number,
): number | null {
  let lastPublished: number | null = null;
  // The largest window's count, then each smaller one by taking its oldest day away.
  let count = windowCount(series, maxDays);
  for (let window = maxDays; window >= days; window--) {
    if (window < maxDays) count -= series[window] ?? 0;
    let published: number | null = null;
    if (count >= threshold) {
      if (lastPublished === null || lastPublished === count || lastPublished - count >= threshold) {
        published = count;
        lastPublished = count;
      }
    }
    if (window === days) return published;
  }
  return null;
}

export interface FamilyRow<K> {
  key: K;
  /** The row's value after rule 1, null when already suppressed. */
  value: number | null;
}

/**
 * Rule 2: the keys of the rows that stay visible given the published total (null: the total is
 * suppressed, so nothing can be subtracted from it and rows keep their rule-1 visibility).
 * `rows` come in their display order; that order breaks ties.
 */
export function visibleAfterRemainder<K>(
  total: number | null,
  rows: readonly FamilyRow<K>[],
  threshold: number,
): Set<K> {
  const visible = rows.filter((row): row is { key: K; value: number } => row.value !== null);
  if (total !== null) {
    for (;;) {
      const remainder = total - visible.reduce((sum, row) => sum + row.value, 0);
      if (remainder <= 0 || remainder >= threshold || visible.length === 0) break;
      let smallest = 0;
      for (let index = 1; index < visible.length; index++) {
        if ((visible[index]?.value ?? 0) <= (visible[smallest]?.value ?? 0)) smallest = index;
      }
      visible.splice(smallest, 1);
    }
  }
  return new Set(visible.map((row) => row.key));
}
