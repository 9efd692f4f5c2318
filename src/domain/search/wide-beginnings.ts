/**
 * Wide beginnings: the word beginnings that get a list of their own in the search index.
 *
 * A query word of 3 or more letters matches every lexeme that begins with its stem. When more
 * than MAX_WORD_TERMS lexemes do, and their postings are more than WIDE_RANGE_LIMIT, the word is
 * neither merged nor read as a range but checked on the sites another list yields
 * (search-plan.ts). That check is cheap for a word most sites have and costly for one a few
 * percent have: a search walks about 1,001 ÷ share entries to fill its window. Brand-like
 * beginnings (`acme`, `terra`, `nova`) are such words, each the start of a hundred domain labels.
 * A registered beginning has the list `b:<beginning>` of every site with a lexeme that begins with
 * it, so a search for it reads one list as short as the word is rare (migration 0026).
 *
 * A search uses the list of a registered beginning for its word's stem when the index has the same
 * lexemes under both: the stem itself, or `ter` and `terr` for `terra` while every lexeme that
 * begins with `ter` begins with `terra` (checked by the search's first step, search-terms.ts).
 *
 * Which beginnings qualify is read off the index alone, never off queries: beginnings of
 * MIN_BEGINNING_LENGTH to MAX_BEGINNING_LENGTH letters that are wide as above, and that no more
 * than MAX_SITE_SHARE of the sites have (sites counted once, not per lexeme) (a commoner word is found quickly enough on any list); of
 * nested ones with the same lexemes, only the longest. The rarest come first, since they cost
 * most to check and least to list, within a budget of POSTINGS_BUDGET_SHARE of the index's
 * postings. `refreshWideBeginnings` registers and
 * unregisters to match: each change is one transaction that holds off writers of `sites` while
 * the list is written or deleted (about 9 seconds for 50,000 sites at 1,000,000).
 */
import { sql } from "drizzle-orm";
import { MAX_BEGINNING_LENGTH, MIN_BEGINNING_LENGTH, searchBeginnings } from "../../../db/schema/search-postings.ts";
import type { Database } from "../../adapters/db.ts";
import { MAX_WORD_TERMS, WIDE_RANGE_LIMIT } from "./search-terms.ts";

/** A beginning more sites than this share have is left to be checked on other lists. */
export const MAX_SITE_SHARE = 0.1;
/** The registered beginnings' lists hold at most this share of the index's postings. */
export const POSTINGS_BUDGET_SHARE = 0.15;
/** At most this many beginnings are registered or unregistered in one refresh. */
export const MAX_CHANGES_PER_REFRESH = 25;
/**
 * The lexemes a site holds under one beginning, at most, as far as counting goes: its domain label
 * spelt and stemmed (`terraflows`, `terraflow`), and a word or two of its name or description. A
 * beginning with more postings than this many times the share's sites is taken as over the share
 * without counting its sites (the count reads every posting of the beginning).
 */
export const MAX_LEXEMES_PER_SITE = 4;

/** A beginning as the index's discovery lists show it. */
export interface BeginningShape {
  beginning: string;
  /** Distinct lexemes that begin with it. */
  lexemes: number;
  /** Postings of those lexemes: the sites that have one, counted once per lexeme. */
  postings: number;
  /**
   * The sites that have one of those lexemes, each once: counted when the beginning could be
   * within MAX_SITE_SHARE (see MAX_LEXEMES_PER_SITE), else its postings, which are at least as many.
   */
  sites: number;
}

export interface IndexSize {
  sites: number;
  postings: number;
}

/**
 * The beginnings to register, rarest first, from the wide beginnings of the index: those the
 * planner would neither merge nor read as a range, held by at most MAX_SITE_SHARE of the sites,
 * within the postings budget.
 */
export function chooseWideBeginnings(shapes: BeginningShape[], size: IndexSize): string[] {
  const wide = shapes.filter(
    (shape) =>
      shape.lexemes > MAX_WORD_TERMS && shape.postings > WIDE_RANGE_LIMIT && shape.sites <= MAX_SITE_SHARE * size.sites,
  );
  // Nested beginnings with as many lexemes have the same ones (`ter`, `terr`, `terra`): one list
  // serves them all (search-terms.ts), the longest, which a new lexeme is least likely to split.
  const sameAsLonger = (shape: BeginningShape) =>
    wide.some(
      (longer) =>
        longer.beginning.length > shape.beginning.length &&
        longer.beginning.startsWith(shape.beginning) &&
        longer.lexemes === shape.lexemes,
    );
  const eligible = wide
    .filter((shape) => !sameAsLonger(shape))
    .sort((a, b) => a.sites - b.sites || (a.beginning < b.beginning ? -1 : 1));
  let budget = POSTINGS_BUDGET_SHARE * size.postings;
  const chosen: string[] = [];
  for (const shape of eligible) {
    // A beginning's list holds each of its sites once.
    if (shape.sites > budget) break;
    budget -= shape.sites;
    chosen.push(shape.beginning);
  }
  return chosen;
}

/**
 * The index's beginnings that have more than `moreLexemesThan` lexemes (MAX_WORD_TERMS) and more
 * than `morePostingsThan` postings (WIDE_RANGE_LIMIT), from one pass over the word postings of the
 * discovery lists.
 */
export async function wideBeginningShapes(
  db: Database,
  { moreLexemesThan = MAX_WORD_TERMS, morePostingsThan = WIDE_RANGE_LIMIT } = {},
): Promise<{ shapes: BeginningShape[]; size: IndexSize }> {
  const shapes = await db.execute(sql`
    with lexemes as (
      select substr(term, 3) as lexeme, count(*) as postings
      from search_postings
      where audit = false and term >= 'w:' and term < 'w;'
      group by term
    )
    select left(l.lexeme, n.length) as beginning, count(*)::int as lexemes, sum(l.postings)::int8 as postings
    from lexemes l
    cross join lateral generate_series(${MIN_BEGINNING_LENGTH}::int, least(char_length(l.lexeme), ${MAX_BEGINNING_LENGTH}::int)) as n(length)
    group by 1
    having count(*) > ${moreLexemesThan} and sum(l.postings) > ${morePostingsThan}
    order by 1`);
  const size = await db.execute(sql`
    select (select count(*) from sites)::int8 as sites, (select count(*) from search_postings)::int8 as postings`);
  const indexSize = { sites: Number(size.rows[0]?.sites ?? 0), postings: Number(size.rows[0]?.postings ?? 0) };
  // A site is counted once per lexeme in the postings (a domain label spelt and stemmed is two),
  // so the share is read off the sites themselves, for the beginnings that could be within it.
  const countable = shapes.rows
    .filter((row) => Number(row.postings) <= MAX_LEXEMES_PER_SITE * MAX_SITE_SHARE * indexSize.sites)
    .map((row) => String(row.beginning));
  const counted = countable.length
    ? await db.execute(sql`
        select b.beginning, (
          select count(distinct p.site_key) from search_postings p
          where p.audit = false and p.term >= 'w:' || b.beginning and p.term < 'w:' || b.beginning || U&'\\+10FFFF'
        )::int8 as sites
        from unnest(${sql.param(countable)}::text[]) as b(beginning)`)
    : { rows: [] };
  const sitesOf = new Map(counted.rows.map((row) => [String(row.beginning), Number(row.sites)]));
  return {
    shapes: shapes.rows.map((row) => ({
      beginning: String(row.beginning),
      lexemes: Number(row.lexemes),
      postings: Number(row.postings),
      sites: sitesOf.get(String(row.beginning)) ?? Number(row.postings),
    })),
    size: indexSize,
  };
}

export interface RefreshSummary {
  /** The beginnings the index calls for now. */
  chosen: string[];
  registered: string[];
  unregistered: string[];
  /** Changes left for the next refresh (beyond MAX_CHANGES_PER_REFRESH). */
  deferred: number;
}

/**
 * Registers the chosen beginnings and unregisters the rest, up to `maxChanges`, unregistering
 * first so the budget holds throughout, then refreshes the index statistics. Each change is its
 * own transaction (one statement, whose trigger writes or deletes the list); with `dryRun`
 * nothing is written.
 */
export async function refreshWideBeginnings(
  db: Database,
  {
    dryRun = false,
    maxChanges = MAX_CHANGES_PER_REFRESH,
    index,
  }: {
    dryRun?: boolean;
    maxChanges?: number;
    /** The index's shapes, when already read. */
    index?: { shapes: BeginningShape[]; size: IndexSize };
  } = {},
): Promise<RefreshSummary> {
  const { shapes, size } = index ?? (await wideBeginningShapes(db));
  const chosen = chooseWideBeginnings(shapes, size);
  const current = (await db.select({ beginning: searchBeginnings.beginning }).from(searchBeginnings)).map(
    (row) => row.beginning,
  );
  const changes = [
    ...current.filter((beginning) => !chosen.includes(beginning)).map((beginning) => ({ beginning, register: false })),
    ...chosen.filter((beginning) => !current.includes(beginning)).map((beginning) => ({ beginning, register: true })),
  ];
  const made = changes.slice(0, Math.max(0, maxChanges));
  if (!dryRun) {
    for (const { beginning, register } of made) {
      if (register) await db.insert(searchBeginnings).values({ beginning }).onConflictDoNothing();
      else await db.delete(searchBeginnings).where(sql`${searchBeginnings.beginning} = ${beginning}`);
    }
    // Searches choose their driver by the lists' lengths in the statistics: new lists need theirs.
    if (made.length) await db.execute(sql`analyze search_postings, search_beginnings`);
  }
  return {
    chosen,
    registered: made.filter((change) => change.register).map((change) => change.beginning),
    unregistered: made.filter((change) => !change.register).map((change) => change.beginning),
    deferred: changes.length - made.length,
  };
}
