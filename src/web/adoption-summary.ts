/**
 * What the /state page shows of the adoption figures (src/domain/stats/adoption-figures.ts): one
 * series per item over the days, its latest figures and its change since the first day shown,
 * in the order a reader asks for. Pure functions over the same rows GET /api/v1/stats/adoption
 * answers, so the page and the JSON cannot disagree.
 */
import { CHECKS, type CheckId } from "../domain/checklist/checklist-definition.ts";
import { MCP_ENDPOINT_HEALTH, MCP_ENDPOINT_HEALTH_LABELS } from "../domain/signals/mcp-health.ts";
import type { SignalField } from "../domain/sites/site-fields.ts";
import { type AdoptionKind, type AdoptionRow, compareItems } from "../domain/stats/adoption-figures.ts";
import { MCP_ENDPOINT_ITEMS } from "../domain/stats/adoption-rollup.ts";
import { SIGNAL_LABELS } from "./signal-guide.ts";

/** The orders of the latest figures: the index's own order, or the largest first. */
export const STATE_SORTS = ["item", "share", "change", "sites"] as const;
export type StateSort = (typeof STATE_SORTS)[number];

export const STATE_SORT_LABELS: Record<StateSort, string> = {
  item: "signals, then checks",
  share: "share, highest first",
  change: "change, largest rise first",
  sites: "sites counted, most first",
};

/** One item's figures over the days shown. */
export interface AdoptionSeries {
  item: string;
  kind: AdoptionKind;
  label: string;
  /** The check's category (discoverability, content, …); "signal" or "mcp endpoint" otherwise. */
  group: string;
  points: AdoptionRow[];
  /** The row of the latest day. */
  latest: AdoptionRow;
  /** The row of the first day shown. */
  first: AdoptionRow;
  /** latest.share − first.share, to 4 decimals. */
  change: number;
}

/** A person's name for an item. */
export function itemLabel(item: string): string {
  if (item in SIGNAL_LABELS) return SIGNAL_LABELS[item as SignalField];
  if (item in CHECKS) return CHECKS[item as CheckId].title;
  const health = MCP_ENDPOINT_HEALTH[MCP_ENDPOINT_ITEMS.indexOf(item as (typeof MCP_ENDPOINT_ITEMS)[number])];
  if (health) return `Endpoint ${MCP_ENDPOINT_HEALTH_LABELS[health]}`;
  return item;
}

function groupOf(item: string, kind: AdoptionKind): string {
  if (kind === "signal") return "signal";
  if (kind === "mcp_endpoint") return "mcp endpoint";
  return item in CHECKS ? CHECKS[item as CheckId].category : "other";
}

/**
 * The series of every item that has a row on the latest day, in the index's order (signals,
 * checks, MCP endpoint health); rows come as the JSON gives them (by day, then item).
 */
export function adoptionSeries(rows: readonly AdoptionRow[]): { latestDay: string | null; series: AdoptionSeries[] } {
  const latestDay = rows.reduce<string | null>((last, row) => (last === null || row.day > last ? row.day : last), null);
  if (latestDay === null) return { latestDay, series: [] };
  const byItem = new Map<string, AdoptionRow[]>();
  for (const row of rows) {
    const points = byItem.get(row.item);
    if (points) points.push(row);
    else byItem.set(row.item, [row]);
  }
  const series: AdoptionSeries[] = [];
  for (const [item, points] of byItem) {
    points.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
    const latest = points.at(-1)!;
    if (latest.day !== latestDay) continue;
    const first = points[0]!;
    series.push({
      item,
      kind: latest.kind,
      label: itemLabel(item),
      group: groupOf(item, latest.kind),
      points,
      latest,
      first,
      change: Math.round((latest.share - first.share) * 10_000) / 10_000,
    });
  }
  series.sort((a, b) => compareItems(a.item, b.item));
  return { latestDay, series };
}

/** The series in the order asked for; equal values keep the index's order. */
export function sortSeries(series: readonly AdoptionSeries[], sort: StateSort): AdoptionSeries[] {
  const value = (entry: AdoptionSeries): number =>
    sort === "share"
      ? entry.latest.share
      : sort === "change"
        ? entry.change
        : sort === "sites"
          ? entry.latest.sites
          : 0;
  return [...series].sort((a, b) => value(b) - value(a) || compareItems(a.item, b.item));
}

/** A share as a percentage with two decimals: exactly the 4-decimal share of the JSON. */
export function formatShare(share: number): string {
  return `${(share * 100).toFixed(2)} %`;
}

/** A change of share in percentage points, signed. */
export function formatChange(change: number): string {
  const points = (change * 100).toFixed(2);
  return change > 0 ? `+${points} pp` : change < 0 ? `−${points.slice(1)} pp` : "0.00 pp";
}

/** The points of a series a chart's table lists: the first day of each month, and the last day. */
export function monthlyPoints(points: readonly AdoptionRow[]): AdoptionRow[] {
  const chosen = points.filter(
    (point, index) => index === 0 || point.day.slice(0, 7) !== points[index - 1]!.day.slice(0, 7),
  );
  const last = points.at(-1);
  if (last && chosen.at(-1) !== last) chosen.push(last);
  return chosen;
}
