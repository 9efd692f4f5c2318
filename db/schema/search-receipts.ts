/**
 * The query-free receipt family: a search with its returned organic results, a detail selection
 * of one of them, and an attested action interest in one of them. By construction no column can hold a
 * query, a network address, a user agent or an identity; every row dies with its search.
 *
 * In the database every table here is partitioned by expires_at, one partition per UTC day of
 * expiry (db/migrations/0027_receipt_partitions.sql, docs/demand.md "Retention"): every key holds
 * expires_at, and the foreign keys declared below exist between each day's partitions (each joins
 * a day's partition to the same day's partition of what it references), which drizzle cannot
 * express; they are declared here on the tables so the keys' columns are documented in one place.
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  pgView,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { DEMAND_TOPICS } from "../../src/domain/demand/topics.ts";
import {
  ACTION_INTEREST_CONFIRMATION_VERSION,
  ACTION_TYPES,
  RECEIPT_LIFETIME_DAYS,
  SEARCH_SURFACES,
} from "../../src/domain/search-receipts/receipt-constants.ts";

const quotedList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(", "));
const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * One search as it was answered: which surface asked, the organic results it returned, and when
 * it stops counting. The results are held compactly in the receipt row (db/migrations/
 * 0034_compact_receipt_results.sql, docs/demand.md "What a receipt costs"): the returned domains
 * in order, the first of them at `first_position`, so result i (0-based) was at position
 * first_position + i. The database keeps the list exact: as many domains as `result_count`, no
 * empty entry, no domain twice. A selection, interest or disclosure must name a domain of this
 * list (a trigger checks it, in the database, where a foreign key to one row per result used to).
 */
export const searchReceipts = pgTable(
  "search_receipts",
  {
    /** 128 random bits, base64url: unguessable, so holding one proves having seen the results. */
    searchId: text("search_id").notNull(),
    surface: text("surface").notNull(),
    /** Tests, monitors and load runs: kept apart from real demand. */
    synthetic: boolean("synthetic").notNull(),
    /** The demand topic the query was classified as (src/domain/demand/topics.ts); never the query. */
    topic: text("topic").notNull(),
    resultCount: smallint("result_count").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    expiresAt: timestamptz("expires_at")
      .notNull()
      .default(sql.raw(`now() + interval '${RECEIPT_LIFETIME_DAYS} days'`)),
    /** The returned organic domains, in order of position. */
    resultDomains: text("result_domains").array().notNull(),
    /** The absolute position (1 = first) of resultDomains[0]: a later page starts further down. */
    firstPosition: integer("first_position").notNull(),
  },
  (table) => [
    // The key includes expires_at, the partition key (daily ranges, docs/demand.md "Retention"):
    // a partitioned table's unique keys must. A search id has one expiry, so it stays one receipt.
    primaryKey({ name: "search_receipts_pk", columns: [table.searchId, table.expiresAt] }),
    check("search_receipts_surface_known", sql`${table.surface} in (${quotedList(SEARCH_SURFACES)})`),
    check("search_receipts_topic_known", sql`${table.topic} in (${quotedList(DEMAND_TOPICS)})`),
    check(
      "search_receipts_lifetime",
      sql`${table.expiresAt} <= ${table.createdAt} + ${sql.raw(`interval '${RECEIPT_LIFETIME_DAYS} days'`)}`,
    ),
    check("search_receipts_first_position_positive", sql`${table.firstPosition} >= 1`),
    check(
      "search_receipts_result_domains_exact",
      sql`cardinality(${table.resultDomains}) = ${table.resultCount} and receipt_domains_exact(${table.resultDomains})`,
    ),
    index("search_receipts_expiry").on(table.expiresAt),
  ],
);

/**
 * The organic results of every receipt, one row per result, as they were stored before they moved
 * into the receipt row: a read-only view over `search_receipts` (updates and deletes through it
 * are refused like the receipt family's). Nothing in the service writes or reads it; it is there
 * for operators and the tests that look at what a search recorded.
 */
export const searchReceiptResults = pgView("search_receipt_results", {
  searchId: text("search_id").notNull(),
  domain: text("domain").notNull(),
  position: integer("position").notNull(),
  surface: text("surface").notNull(),
  topic: text("topic").notNull(),
  synthetic: boolean("synthetic").notNull(),
  createdAt: timestamptz("created_at").notNull(),
  expiresAt: timestamptz("expires_at").notNull(),
}).existing();

/** A detail view of a returned result (GET /site/{domain}?search_id=), at most once per result. */
export const resultSelections = pgTable(
  "result_selections",
  {
    searchId: text("search_id").notNull(),
    domain: text("domain").notNull(),
    synthetic: boolean("synthetic").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (table) => [
    primaryKey({ name: "result_selections_pk", columns: [table.searchId, table.domain, table.expiresAt] }),
    // With the check that the receipt returned the domain (trigger receipt_result_check).
    foreignKey({
      name: "result_selections_receipt_fk",
      columns: [table.searchId, table.expiresAt],
      foreignColumns: [searchReceipts.searchId, searchReceipts.expiresAt],
    }).onDelete("cascade"),
    index("result_selections_domain").on(table.domain),
    index("result_selections_expiry").on(table.expiresAt),
  ],
);

/** An attested principal interest in one action on one returned result (svc-action-interest-v1). */
export const actionInterestReceipts = pgTable(
  "action_interest_receipts",
  {
    id: uuid("id").notNull().defaultRandom(),
    searchId: text("search_id").notNull(),
    domain: text("domain").notNull(),
    actionType: text("action_type").notNull(),
    confirmationVersion: text("confirmation_version").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    /** The source search's own expiry: the interest never outlives it. */
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (table) => [
    primaryKey({ name: "action_interest_receipts_pk", columns: [table.id, table.expiresAt] }),
    // One action per returned result: the guard behind idempotent replays and the 409 (with the
    // search's expiry, the partition key, which is the same for every row of one search).
    unique("action_interest_receipts_one_per_result").on(table.searchId, table.domain, table.expiresAt),
    // With the check that the receipt returned the domain (trigger receipt_result_check).
    foreignKey({
      name: "action_interest_receipts_receipt_fk",
      columns: [table.searchId, table.expiresAt],
      foreignColumns: [searchReceipts.searchId, searchReceipts.expiresAt],
    }).onDelete("cascade"),
    index("action_interest_receipts_domain").on(table.domain),
    index("action_interest_receipts_expiry").on(table.expiresAt),
    check("action_interest_receipts_action_type_known", sql`${table.actionType} in (${quotedList(ACTION_TYPES)})`),
    check(
      "action_interest_receipts_confirmation_version",
      sql`${table.confirmationVersion} = ${sql.raw(`'${ACTION_INTEREST_CONFIRMATION_VERSION}'`)}`,
    ),
  ],
);
