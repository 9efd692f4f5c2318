import { sql } from "drizzle-orm";
import { bigint, boolean, check, integer, pgTable, smallint, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The search index: one row per searchable term of each site, so that every term's sites can be
 * read in impact order, then organic order (impact descending, agentic_score descending,
 * organic_tiebreak, site_key), straight from one btree (migration 0040). Terms are
 * namespaced: `w:<lexeme>` (a word of name, description or domain), `t:<tag>`,
 * `c:<category>:<signal bits>` (migration 0024), `p:<signal bits>` (which of the four filterable
 * signals the site has, 0-15) and `b:<beginning>` (a wide beginning's sites, migration 0026).
 *
 * Written only by the trigger `sites_search_postings` on `sites` (migration 0005), in the same
 * statement as the site, so it is never out of step. The list index
 * `search_postings_list (audit, term, impact desc, agentic_score desc, organic_tiebreak, site_key) include (...)`,
 * the "C" collation of `term`, and the helper functions are in that migration: drizzle-kit has no
 * syntax for them.
 */
export const searchPostings = pgTable("search_postings", {
  // The 8-byte columns first, then the narrower ones, then the variable ones: a row has no
  // alignment padding between them (migration 0025).
  organicTiebreak: bigint("organic_tiebreak", { mode: "bigint" }).notNull(),
  /**
   * A 256-bit Bloom signature of the site's words (their 3- to 6-letter prefixes) and tags, in
   * four parts: it rules out most sites that lack another word or tag of the query before any of
   * them is read in full.
   */
  signature0: bigint("signature_0", { mode: "bigint" }).notNull(),
  signature1: bigint("signature_1", { mode: "bigint" }).notNull(),
  signature2: bigint("signature_2", { mode: "bigint" }).notNull(),
  signature3: bigint("signature_3", { mode: "bigint" }).notNull(),
  /** sites.site_key of the site. */
  siteKey: integer("site_key").notNull(),
  agenticScore: smallint("agentic_score").notNull(),
  /** has_structured_api 8, has_mcp_server 4, has_openapi 2, has_llms_txt 1. */
  signalBits: smallint("signal_bits").notNull(),
  /** The site is in an audit-only bucket (other, spam): its lists are apart from discovery's. */
  audit: boolean("audit").notNull(),
  term: text("term").notNull(),
  category: text("category").notNull(),
  /**
   * Where the site carries the term, for its relevance tier (migration 0035): 1 its name, 2 its
   * tags or domain, 4 its description's opening sentence (the weights A, B and C of
   * `sites.tier_vector`); for a beginning's list, those of every lexeme of the site it holds; 0
   * for the other lists and for a word of the rest of the description.
   */
  tierFields: smallint("tier_fields").notNull().default(0),
  /**
   * The site's query-independent BM25F weight for a word's term, 0-1000 (migration 0040,
   * docs/discovery.md "Ranking"); for a beginning's list the highest of its lexemes'; 0 for the
   * other lists. The list index reads each list in impact order, then organic order.
   */
  impact: smallint("impact").notNull().default(0),
});

/** The shortest and longest beginning that can have a list of its own. */
export const MIN_BEGINNING_LENGTH = 3;
export const MAX_BEGINNING_LENGTH = 8;

/**
 * Wide beginnings: word beginnings that so many lexemes share that a search for one would merge
 * too many lists, and with too many postings to read as one range (src/domain/search/
 * wide-beginnings.ts). Each has a list of its own, `b:<beginning>`, of every site with a lexeme
 * that begins with it. Inserting or deleting a row writes or deletes that list in the same
 * transaction, holding off writers of `sites` meanwhile (trigger `search_beginnings_lists`,
 * migration 0026); a row is never updated.
 */
export const searchBeginnings = pgTable(
  "search_beginnings",
  {
    beginning: text("beginning").primaryKey(),
    registeredAt: timestamp("registered_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "search_beginnings_length",
      sql`char_length(${table.beginning}) between ${sql.raw(String(MIN_BEGINNING_LENGTH))} and ${sql.raw(String(MAX_BEGINNING_LENGTH))}`,
    ),
  ],
);
