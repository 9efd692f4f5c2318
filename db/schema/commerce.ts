/**
 * Commerce: orders paid through Stripe Checkout (score fixes and the priority key plan), the
 * priority keys they buy, each key's monthly calls, and the Stripe events already handled. A
 * priority key is stored as its SHA-256 only; the raw key was shown once.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

export const ORDER_KINDS = ["score_fix", "priority_key"] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];
export const ORDER_STATUSES = ["pending", "paid", "failed"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * One checkout: what was bought, for whom, at the catalog's price of the moment. `pending` until
 * Stripe confirms payment (webhook or activation), `failed` when the session could not be made.
 */
export const commerceOrders = pgTable(
  "commerce_orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").$type<OrderKind>().notNull(),
    productId: text("product_id").notNull(),
    plan: text("plan"),
    email: text("email").notNull(),
    /** The site a score fix is for (normalised like a submitted URL); null for a key. */
    host: text("host"),
    repoUrl: text("repo_url"),
    /** The buyer's words, kept as given; never rendered into HTML unescaped. */
    notes: text("notes"),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    status: text("status").$type<OrderStatus>().notNull().default("pending"),
    stripeCheckoutSessionId: text("stripe_checkout_session_id").unique(),
    stripeSubscriptionId: text("stripe_subscription_id"),
    /** The subscription's last known Stripe status (priority keys only). */
    subscriptionStatus: text("subscription_status"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    paidAt: timestamptz("paid_at"),
  },
  (table) => [
    check("commerce_orders_kind", sql`${table.kind} in ('score_fix', 'priority_key')`),
    check("commerce_orders_status", sql`${table.status} in ('pending', 'paid', 'failed')`),
    check("commerce_orders_amount", sql`${table.amountCents} > 0`),
    check("commerce_orders_paid_at", sql`(${table.status} = 'paid') = (${table.paidAt} is not null)`),
    check("commerce_orders_host", sql`(${table.kind} = 'score_fix') = (${table.host} is not null)`),
    index("commerce_orders_subscription").on(table.stripeSubscriptionId),
  ],
);

export const PRIORITY_KEY_STATUSES = ["active", "suspended", "canceled", "revoked"] as const;
export type PriorityKeyStatus = (typeof PRIORITY_KEY_STATUSES)[number];

/**
 * A priority key: one per paid order, whatever the number of activations (the unique order id is
 * the guard). It works only while `active`; a cancelled subscription ends it for good.
 */
export const priorityApiKeys = pgTable(
  "priority_api_keys",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => commerceOrders.id),
    keySha256: text("key_sha256").notNull().unique(),
    /** The key's first characters, safe to show so a person can tell keys apart. */
    keyPrefix: text("key_prefix").notNull(),
    plan: text("plan").notNull(),
    stripeSubscriptionId: text("stripe_subscription_id"),
    status: text("status").$type<PriorityKeyStatus>().notNull().default("active"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    /** The last paid renewal invoice Stripe reported. */
    renewedAt: timestamptz("renewed_at"),
    endedAt: timestamptz("ended_at"),
  },
  (table) => [
    check("priority_api_keys_hash", sql`${table.keySha256} ~ '^[0-9a-f]{64}$'`),
    check("priority_api_keys_status", sql`${table.status} in ('active', 'suspended', 'canceled', 'revoked')`),
    check(
      "priority_api_keys_ended_at",
      sql`(${table.status} in ('canceled', 'revoked')) = (${table.endedAt} is not null)`,
    ),
    uniqueIndex("priority_api_keys_order").on(table.orderId),
    index("priority_api_keys_subscription").on(table.stripeSubscriptionId),
  ],
);

/**
 * Calls a priority key spent in one calendar month (UTC): the allocation is taken one call at a
 * time by a conditional upsert, so it can never pass the monthly figure, whatever the concurrency.
 */
export const priorityKeyUsage = pgTable(
  "priority_key_usage",
  {
    keyId: bigint("key_id", { mode: "bigint" })
      .notNull()
      .references(() => priorityApiKeys.id),
    /** The first day of the month, UTC. */
    month: date("month").notNull(),
    calls: integer("calls").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.keyId, table.month] }),
    check("priority_key_usage_calls", sql`${table.calls} between 0 and 50000`),
    check("priority_key_usage_month", sql`extract(day from ${table.month}) = 1`),
  ],
);

/** Each Stripe event handled, once: the event id is the key that makes fulfilment idempotent. Append-only. */
export const stripeEvents = pgTable("stripe_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamptz("received_at").notNull().defaultNow(),
});
