/**
 * Every kind of personal data the service keeps, how long, and what removes it: the one table the
 * privacy page shows and docs/privacy-retention.md repeats (a unit test keeps the two equal). The
 * deadlines are enforced by the daily retention job (src/jobs/retention-purge.ts) through the SQL
 * of db/migrations/0027_receipt_partitions.sql, 0028_personal_data_retention.sql and
 * 0034_compact_receipt_results.sql.
 */

export interface RetentionEntry {
  /** What it is, in words. */
  material: string;
  /** The tables that hold it. */
  tables: string;
  /** What of a person it holds. */
  holds: string;
  /** How long it is kept. */
  kept: string;
  /** What removes it. */
  removedBy: string;
}

const DAY_PARTITIONS = "the daily job: its day's partitions are dropped once that day of expiry is over";
const DAILY_PURGE = "the daily job's purge";

export const RETENTION_POLICY: readonly RetentionEntry[] = [
  {
    material: "Search receipts and their results",
    tables: "search_receipts, search_receipt_results (a view of the results held in each receipt row)",
    holds: "a random search id, surface, synthetic flag, topic label, returned domains and positions, times",
    kept: "30 days after the search",
    removedBy: DAY_PARTITIONS,
  },
  {
    material: "Result selections, action interests, offer disclosures",
    tables: "result_selections, action_interest_receipts, search_offer_disclosures",
    holds: "the search id, a domain, an action type or offer, times",
    kept: "until their search expires (30 days after it)",
    removedBy: DAY_PARTITIONS,
  },
  {
    material: "Daily demand counts",
    tables: "demand_daily, demand_daily_interests",
    holds: "counts per domain, day, surface and topic: no search and no person",
    kept: "31 days after the day",
    removedBy: "the daily job: every expired row at once",
  },
  {
    material: "A ticket's controlled intent",
    tables: "action_ticket_intents",
    holds: "topic, region, budget band, urgency, requirement flags",
    kept: "30 days after the ticket's creation",
    removedBy: DAILY_PURGE,
  },
  {
    material: "Sign-in links",
    tables: "sign_in_tokens",
    holds: "the e-mail address and the link's token as SHA-256",
    kept: "1 day after the link expires (it works for 15 minutes)",
    removedBy: DAILY_PURGE,
  },
  {
    material: "Sessions",
    tables: "sessions",
    holds: "the account and the cookie's token as SHA-256",
    kept: "1 day after sign-out or expiry, whichever comes first",
    removedBy: DAILY_PURGE,
  },
  {
    material: "Score-drop addresses never confirmed",
    tables: "monitor_subscribers (with their monitors)",
    holds: "the e-mail address and the domains it asked to watch",
    kept: "30 days after the registration or the last confirmation mail, whichever is later",
    removedBy: DAILY_PURGE,
  },
  {
    material: "Unsubscribed score-drop monitors",
    tables: "monitors (with their unsubscribe tokens and alerts)",
    holds: "the e-mail address, the domain, the scores and alerts sent",
    kept: "30 days after the unsubscribe",
    removedBy: DAILY_PURGE,
  },
  {
    material: "Score-drop addresses with no monitor left",
    tables: "monitor_subscribers",
    holds: "the e-mail address and when it confirmed",
    kept: "until its last monitor is gone, and at least 30 days after the registration",
    removedBy: DAILY_PURGE,
  },
  {
    material: "Active score-drop monitors",
    tables: "monitor_subscribers, monitors, monitor_tokens, monitor_alerts",
    holds: "the e-mail address, the domains, the scores and alerts sent",
    kept: "while subscribed (one click stops it)",
    removedBy: "the unsubscribe, then the rows above",
  },
  {
    material: "Crawl requests",
    tables: "crawl_requests",
    holds: "a domain, its address and why a crawl was asked (no requester)",
    kept: "30 days after the request",
    removedBy: DAILY_PURGE,
  },
  {
    material: "Rate-limit counters",
    tables: "Redis keys",
    holds: "a client address's request count in the current window",
    kept: "until the window ends",
    removedBy: "Redis expiry",
  },
  {
    material: "Accounts",
    tables: "accounts",
    holds: "the e-mail address",
    kept: "kept: the owner of claims, provider keys and orders",
    removedBy: "never automatically",
  },
  {
    material: "Money records",
    tables:
      "commerce_orders, priority_api_keys, priority_key_usage, stripe_events, action_tickets, action_handoff_receipts, provider_outcome_receipts, exchange_charge_ledger",
    holds: "the buyer's e-mail and notes on orders; ids, versions, hashes, statuses and amounts",
    kept: "kept: what was sold, charged or credited, and why (accounting)",
    removedBy: "never",
  },
];
