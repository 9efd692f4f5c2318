/**
 * The query-free receipt family: a search's returned organic results, a detail selection of one
 * of them, and an attested action interest in one of them. By construction no column can hold a
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

/** One search as it was answered: which surface asked, and when it stops counting. */
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
    index("search_receipts_expiry").on(table.expiresAt),
  ],
);

/**
 * The organic results a search returned, with their absolute positions (1 = first). The search's
 * surface, topic, synthetic flag and times are repeated on each result (written in the same
 * transaction, so equal to the receipt's): the trigger that keeps the daily demand rows reads
 * them from the inserted rows alone, and the purge's guard finds each row's own expiry.
 */
export const searchReceiptResults = pgTable(
  "search_receipt_results",
  {
    searchId: text("search_id").notNull(),
    domain: text("domain").notNull(),
    position: integer("position").notNull(),
    surface: text("surface").notNull(),
    topic: text("topic").notNull(),
    synthetic: boolean("synthetic").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    expiresAt: timestamptz("expires_at")
      .notNull()
      .default(sql.raw(`now() + interval '${RECEIPT_LIFETIME_DAYS} days'`)),
  },
  (table) => [
    primaryKey({ name: "search_receipt_results_pk", columns: [table.searchId, table.domain, table.expiresAt] }),
    unique("search_receipt_results_position").on(table.searchId, table.position, table.expiresAt),
    foreignKey({
      name: "search_receipt_results_receipt_fk",
      columns: [table.searchId, table.expiresAt],
      foreignColumns: [searchReceipts.searchId, searchReceipts.expiresAt],
    }).onDelete("cascade"),
    check("search_receipt_results_position_positive", sql`${table.position} >= 1`),
    index("search_receipt_results_domain").on(table.domain),
  ],
);

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
    foreignKey({
      name: "result_selections_result_fk",
      columns: [table.searchId, table.domain, table.expiresAt],
      foreignColumns: [searchReceiptResults.searchId, searchReceiptResults.domain, searchReceiptResults.expiresAt],
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
    foreignKey({
      name: "action_interest_receipts_result_fk",
      columns: [table.searchId, table.domain, table.expiresAt],
      foreignColumns: [searchReceiptResults.searchId, searchReceiptResults.domain, searchReceiptResults.expiresAt],
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
