/**
 * The adoption figures (GET /api/v1/stats/adoption and its CSV): the daily rollups of the last
 * `days` days (src/domain/stats/adoption-rollup.ts), over every category ('') or one category.
 * They read `adoption_daily` only (a few thousand rows at most), and are cached 5 minutes per
 * parameter set like the top list: the rollups change once a day.
 */
import { sql } from "drizzle-orm";
import { CHECK_IDS } from "../checklist/checklist-definition.ts";
import type { DomainContext } from "../context.ts";
import type { Category } from "../sites/site-fields.ts";
import { SIGNAL_FIELDS } from "../sites/site-fields.ts";
import { ALL_CATEGORIES, adoptionShare, MCP_ENDPOINT_ITEMS, utcDay } from "./adoption-rollup.ts";

export const ADOPTION_CACHE_SECONDS = 300;
export const ADOPTION_DEFAULT_DAYS = 90;
export const ADOPTION_MAX_DAYS = 365;

/** The CSV's columns, in this order, always. */
export const ADOPTION_CSV_COLUMNS = ["day", "category", "item", "sites", "with_item", "share"] as const;

/** What an item is: a signal, a checklist check, or a class of MCP endpoint health. */
export type AdoptionKind = "signal" | "check" | "mcp_endpoint";

export const ADOPTION_KINDS = ["signal", "check", "mcp_endpoint"] as const satisfies readonly AdoptionKind[];

export interface AdoptionRow {
  day: string;
  category: string;
  item: string;
  kind: AdoptionKind;
  sites: number;
  with_item: number;
  share: number;
}

export interface AdoptionFigures {
  category: string | null;
  days: number;
  from: string | null;
  to: string | null;
  rows: AdoptionRow[];
}

const SIGNALS = new Set<string>(SIGNAL_FIELDS);
const MCP_ITEMS = new Set<string>(MCP_ENDPOINT_ITEMS);
/**
 * Signals first, in the spec's order, then checks in the checklist's order, then MCP endpoint
 * health; unknown items last by name.
 */
const ITEM_ORDER = new Map<string, number>(
  [...SIGNAL_FIELDS, ...CHECK_IDS, ...MCP_ENDPOINT_ITEMS].map((item, index) => [item, index]),
);

/** The kind of a stored item. */
export function kindOf(item: string): AdoptionKind {
  return SIGNALS.has(item) ? "signal" : MCP_ITEMS.has(item) ? "mcp_endpoint" : "check";
}

export function compareItems(a: string, b: string): number {
  const ia = ITEM_ORDER.get(a) ?? Number.MAX_SAFE_INTEGER;
  const ib = ITEM_ORDER.get(b) ?? Number.MAX_SAFE_INTEGER;
  return ia !== ib ? ia - ib : a < b ? -1 : a > b ? 1 : 0;
}

/** Rows ordered by day, then item (signals, then checks, then MCP endpoint health). */
export function toAdoptionRows(
  stored: { day: string; category: string; item: string; sites: number; with_item: number }[],
): AdoptionRow[] {
  return stored
    .map((row) => ({
      day: row.day,
      category: row.category,
      item: row.item,
      kind: kindOf(row.item),
      sites: Number(row.sites),
      with_item: Number(row.with_item),
      share: adoptionShare(Number(row.with_item), Number(row.sites)),
    }))
    .sort((a, b) => (a.day !== b.day ? (a.day < b.day ? -1 : 1) : compareItems(a.item, b.item)));
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The figures as CSV (RFC 4180, CRLF line ends, a header line), columns ADOPTION_CSV_COLUMNS. */
export function adoptionCsv(rows: AdoptionRow[]): string {
  const lines = [ADOPTION_CSV_COLUMNS.join(",")];
  for (const row of rows) lines.push(ADOPTION_CSV_COLUMNS.map((column) => csvField(row[column])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

export async function adoptionFigures({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { days: number; category?: Category };
}): Promise<AdoptionFigures & { cacheHit: boolean }> {
  const category = input.category ?? ALL_CATEGORIES;
  const { value, hit } = await ctx.cache.remember(
    `adoption:v2:${input.days}:${category}`,
    ADOPTION_CACHE_SECONDS,
    async (): Promise<AdoptionFigures> => {
      // The last `days` UTC days, today included (today's rows appear once the day's cron ran).
      const today = utcDay(new Date());
      const result = await ctx.db.execute(sql`
        select day::text as day, category, item, sites, with_item
        from adoption_daily
        where category = ${category} and day <= ${today}::date and day > ${today}::date - ${input.days}::int`);
      const rows = toAdoptionRows(
        result.rows as { day: string; category: string; item: string; sites: number; with_item: number }[],
      );
      return {
        category: input.category ?? null,
        days: input.days,
        from: rows[0]?.day ?? null,
        to: rows.at(-1)?.day ?? null,
        rows,
      };
    },
  );
  return { ...value, cacheHit: hit };
}
