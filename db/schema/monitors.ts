/**
 * Score-drop monitors (docs/monitors.md): the addresses that asked for alerts and whether they
 * confirmed, one monitor per (address, domain) with the score it was last compared against, the
 * unsubscribe tokens each monitor's mails carried, and one row per alert (monitor, drop crawl) —
 * the key that makes an alert go out once. Tokens are stored as their SHA-256 only.
 */
import { sql } from "drizzle-orm";
import {
  check,
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

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });
const isSha256Hex = (column: unknown) => sql`${column} ~ '^[0-9a-f]{64}$'`;

/** An address that registered a monitor; alerts go to it only once it confirmed (consent first). */
export const monitorSubscribers = pgTable(
  "monitor_subscribers",
  {
    email: text("email").primaryKey(),
    /** The latest confirmation link's token (hashed); an earlier one stops working when it is replaced. */
    confirmTokenSha256: text("confirm_token_sha256").unique(),
    confirmationSentAt: timestamptz("confirmation_sent_at"),
    confirmedAt: timestamptz("confirmed_at"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    check("monitor_subscribers_email_lower", sql`${table.email} = lower(${table.email})`),
    check(
      "monitor_subscribers_token_hash",
      sql`${table.confirmTokenSha256} is null or ${isSha256Hex(table.confirmTokenSha256)}`,
    ),
  ],
);

/**
 * One address watching one domain. The baseline is the score and present signals of the crawl it
 * was last compared with (null until the domain has a first score); unsubscribed_at ends it.
 */
export const monitors = pgTable(
  "monitors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email")
      .notNull()
      .references(() => monitorSubscribers.email, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    unsubscribedAt: timestamptz("unsubscribed_at"),
    baselineScore: smallint("baseline_score"),
    /** The signal fields (has_llms_txt, …) present at the baseline crawl. */
    baselineSignals: text("baseline_signals").array(),
    /** site_score_history.recorded_at of the baseline crawl. */
    baselineRecordedAt: timestamptz("baseline_recorded_at"),
  },
  (table) => [
    unique("monitors_email_domain").on(table.email, table.domain),
    index("monitors_domain").on(table.domain),
    check(
      "monitors_baseline_whole",
      sql`(${table.baselineScore} is null) = (${table.baselineRecordedAt} is null) and (${table.baselineScore} is null) = (${table.baselineSignals} is null)`,
    ),
  ],
);

/** An unsubscribe link's token (hashed): one per registration answer and one per mail sent. */
export const monitorTokens = pgTable(
  "monitor_tokens",
  {
    tokenSha256: text("token_sha256").primaryKey(),
    monitorId: uuid("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    check("monitor_tokens_hash", isSha256Hex(table.tokenSha256)),
    index("monitor_tokens_monitor").on(table.monitorId),
  ],
);

/**
 * One drop of one monitor's domain, keyed by the crawl that showed it: inserted (ON CONFLICT DO
 * NOTHING) before any mail is sent, claimed for a while by the run that sends it, and marked sent.
 */
export const monitorAlerts = pgTable(
  "monitor_alerts",
  {
    monitorId: uuid("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    /** site_score_history.recorded_at of the crawl that showed the drop. */
    crawlRecordedAt: timestamptz("crawl_recorded_at").notNull(),
    previousScore: smallint("previous_score").notNull(),
    score: smallint("score").notNull(),
    lostSignals: text("lost_signals").array().notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    /** A run that claimed the alert sends it until then; after that another run may. */
    claimedUntil: timestamptz("claimed_until"),
    sentAt: timestamptz("sent_at"),
    mailId: text("mail_id"),
    lastError: text("last_error"),
  },
  (table) => [
    primaryKey({ name: "monitor_alerts_pk", columns: [table.monitorId, table.crawlRecordedAt] }),
    index("monitor_alerts_unsent").on(table.createdAt).where(sql`${table.sentAt} is null`),
  ],
);
