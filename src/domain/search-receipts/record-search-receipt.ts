import { type SQL, sql } from "drizzle-orm";
import { searchReceipts } from "../../../db/schema/search-receipts.ts";
import { type Database, isDatabaseUnavailable, type SqlRow } from "../../adapters/db.ts";
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
  /** The id to record it under (a fresh one when not given). */
  searchId?: string;
}

export type SearchReceipt =
  | {
      recorded: true;
      searchId: string;
      synthetic: boolean;
      expiresAt: Date;
      /** The rows of the `alongside` statement, when it committed with the receipt. */
      alongside?: SqlRow[];
    }
  | { recorded: false };

/**
 * The insert of one receipt, returning its expiry. `domains` is the list itself or a text[]
 * expression (the search's own page, when the receipt rides in its second step: run-search.ts).
 */
function insertReceipt(
  db: Database,
  searchId: string,
  input: Omit<SearchReceiptInput, "domains"> & { domains: string[] | SQL },
) {
  const { domains } = input;
  // One row: the returned domains are held in order in the receipt itself (first at
  // firstPosition), not one row each (db/migrations/0034_compact_receipt_results.sql).
  return db
    .insert(searchReceipts)
    .values({
      searchId,
      surface: input.surface,
      synthetic: input.synthetic,
      topic: input.topic,
      resultCount: Array.isArray(domains) ? domains.length : sql`cardinality(${domains})`,
      resultDomains: domains,
      firstPosition: input.firstPosition,
    })
    .returning({ expiresAt: searchReceipts.expiresAt });
}

/**
 * The receipt as a statement that takes its domains from SQL (`domains`, a text[] expression),
 * for a data-modifying CTE of the search's own statement; its row is `{expires_at}`.
 */
export function searchReceiptInsertSql(
  db: Database,
  searchId: string,
  input: Omit<SearchReceiptInput, "domains">,
  domains: SQL,
): SQL {
  return insertReceipt(db, searchId, { ...input, domains }).getSQL();
}

/** The receipt from the row of `searchReceiptInsertSql` (and its companions' rows). */
export function receiptFromRow(searchId: string, synthetic: boolean, row: SqlRow, alongside?: SqlRow[]): SearchReceipt {
  return {
    recorded: true,
    searchId,
    synthetic,
    expiresAt: new Date(row.expires_at as string),
    ...(alongside ? { alongside } : {}),
  };
}

/**
 * Records the query-free receipt of one answered search: the receipt with its returned results,
 * one row. It never fails the search: if the write does not commit, the answer says so
 * (`recorded: false`) and nothing can later be bound to it.
 *
 * `alongside` names a statement that must commit with the receipt or not at all (the disclosure
 * of offers): it runs last in the same transaction, so it sees the receipt's rows, and the whole
 * write stays one round trip. If Postgres refuses that transaction, the receipt is written again
 * without it (same search id), so a failing companion never costs the receipt; if the database is
 * unavailable, nothing is retried.
 */
export async function recordSearchReceipt({
  ctx,
  input,
  alongside,
}: {
  ctx: DomainContext;
  input: SearchReceiptInput;
  alongside?: (searchId: string) => SQL;
}): Promise<SearchReceipt> {
  const { searchId = newSearchId() } = input;
  const write = async (withAlongside: boolean) => {
    const companion = withAlongside && alongside ? ctx.db.execute(alongside(searchId)) : undefined;
    const results = await ctx.db.batch([insertReceipt(ctx.db, searchId, input), ...(companion ? [companion] : [])]);
    const inserted = results[0] as { expiresAt: Date }[];
    const companionRows = companion ? ((results.at(-1) as { rows: SqlRow[] }).rows ?? []) : undefined;
    return { expiresAt: inserted[0]?.expiresAt, companionRows };
  };
  try {
    let written: Awaited<ReturnType<typeof write>>;
    try {
      written = await write(true);
    } catch (error) {
      if (!alongside || isDatabaseUnavailable(error)) throw error;
      console.error("search receipt's companion statement refused; recording the receipt alone", String(error));
      written = await write(false);
    }
    if (!written.expiresAt) return { recorded: false };
    return {
      recorded: true,
      searchId,
      synthetic: input.synthetic,
      expiresAt: written.expiresAt,
      alongside: written.companionRows,
    };
  } catch (error) {
    console.error("search receipt not recorded", String(error));
    return { recorded: false };
  }
}
