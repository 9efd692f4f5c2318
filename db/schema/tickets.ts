/**
 * The agent-to-provider path of the exchange: action tickets, their handoff receipts, the signed
 * outcome receipts providers report, and the charge ledger. Handoffs, outcomes and ledger rows are
 * append-only, and a ticket's bindings never change (migration `tickets_guards`); only its status
 * moves, as src/domain/tickets/ticket-machine.ts decides. No column can hold a query, a network
 * address, a user agent, an identity or contact data: a ticket's intent is closed vocabularies only,
 * kept in its own table for 30 days (`action_ticket_intents`).
 */
import { sql } from "drizzle-orm";
import { bigint, check, foreignKey, index, integer, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import {
  BUDGET_BANDS,
  CONTROLLED_INTENT_RETENTION_DAYS,
  HANDOFF_CONSENT_VERSION,
  HANDOFF_RECEIPT_CONTRACT_VERSION,
  INTENT_DISCLOSURE_CONSENT_VERSION,
  INTENT_TOPICS,
  PRINCIPAL_CONSENT_VERSION,
  REQUIREMENT_FLAGS,
  TICKET_PREPARATION_CONTRACT_VERSION,
  URGENCIES,
} from "../../src/domain/tickets/ticket-constants.ts";
import { CHARGE_EVENTS, CHARGE_STATUSES, OUTCOMES, TICKET_STATUSES } from "../../src/domain/tickets/ticket-machine.ts";
import { providerClaims } from "./accounts.ts";
import { providerOfferVersions } from "./offers.ts";

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });
const quotedList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(", "));
const literal = (value: string) => sql.raw(`'${value}'`);
const isSha256Hex = (column: unknown) => sql`${column} ~ '^[0-9a-f]{64}$'`;
const int64 = (name: string) => bigint(name, { mode: "number" });

/**
 * One prepared action on one offer version disclosed to one committed search receipt. One ticket
 * per (search, offer): the guard behind exact replays and conflicts.
 */
export const actionTickets = pgTable(
  "action_tickets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The committed search receipt that disclosed the offer (no foreign key: receipts are purged, tickets stay). */
    searchId: text("search_id").notNull(),
    claimId: uuid("claim_id")
      .notNull()
      .references(() => providerClaims.id),
    offerId: uuid("offer_id").notNull(),
    offerVersion: integer("offer_version").notNull(),
    commercialTermsSha256: text("commercial_terms_sha256").notNull(),
    domain: text("domain").notNull(),
    chargeEvent: text("charge_event").notNull(),
    bountyCents: int64("bounty_cents").notNull(),
    contractVersion: text("contract_version").notNull(),
    consentVersion: text("consent_version").notNull(),
    /** SHA-256 of the RFC 8785 canonical JSON of the request: tells an exact replay from a conflict. */
    requestSha256: text("request_sha256").notNull(),
    status: text("status").notNull().default("created"),
    statusChangedAt: timestamptz("status_changed_at").notNull().defaultNow(),
    /** The outcome receipt that last moved the status: the compare-and-set guard of outcomes. */
    lastOutcomeReceiptId: uuid("last_outcome_receipt_id"),
    revokedAt: timestamptz("revoked_at"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (table) => [
    unique("action_tickets_one_per_search_offer").on(table.searchId, table.offerId),
    foreignKey({
      name: "action_tickets_offer_version_fk",
      columns: [table.offerId, table.offerVersion],
      foreignColumns: [providerOfferVersions.offerId, providerOfferVersions.version],
    }),
    check("action_tickets_terms_hash", isSha256Hex(table.commercialTermsSha256)),
    check("action_tickets_request_hash", isSha256Hex(table.requestSha256)),
    check("action_tickets_charge_event", sql`${table.chargeEvent} in (${quotedList(CHARGE_EVENTS)})`),
    check("action_tickets_bounty", sql`${table.bountyCents} >= 1`),
    check("action_tickets_contract", sql`${table.contractVersion} = ${literal(TICKET_PREPARATION_CONTRACT_VERSION)}`),
    check("action_tickets_consent", sql`${table.consentVersion} = ${literal(PRINCIPAL_CONSENT_VERSION)}`),
    check("action_tickets_status", sql`${table.status} in (${quotedList(TICKET_STATUSES)})`),
    check("action_tickets_lifetime", sql`${table.expiresAt} > ${table.createdAt}`),
    // A revoked ticket says when; a credit may later settle it as duplicate or invalid, keeping the time.
    check("action_tickets_revoked_at", sql`${table.status} <> 'revoked' or ${table.revokedAt} is not null`),
    index("action_tickets_offer_created").on(table.offerId, table.createdAt),
    index("action_tickets_claim_changed").on(table.claimId, table.statusChangedAt),
  ],
);

/**
 * A ticket's controlled intent (closed vocabularies only), kept apart from the ticket because it
 * describes the principal, not the money: the ticket, its handoff, outcomes and ledger are kept,
 * the intent only for the demand retention (30 days after the ticket's creation), after which the
 * retention purge deletes it (docs/exchange-tickets.md, "Retention"). Append-only: written in the
 * same statement as its ticket, never changed (migration `ticket_intents_guards`).
 */
export const actionTicketIntents = pgTable(
  "action_ticket_intents",
  {
    ticketId: uuid("ticket_id")
      .primaryKey()
      .references(() => actionTickets.id),
    intentTopic: text("intent_topic").notNull(),
    intentRegionCode: text("intent_region_code"),
    intentBudgetBand: text("intent_budget_band"),
    intentUrgency: text("intent_urgency"),
    intentRequirementFlags: text("intent_requirement_flags").array().notNull().default(sql`'{}'::text[]`),
    /** The ticket's creation time. */
    createdAt: timestamptz("created_at").notNull(),
    /** When the retention purge may delete the row: exactly the retention after the ticket's creation. */
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (table) => [
    check("action_ticket_intents_topic", sql`${table.intentTopic} in (${quotedList(INTENT_TOPICS)})`),
    check(
      "action_ticket_intents_region",
      sql`${table.intentRegionCode} is null or ${table.intentRegionCode} ~ '^[A-Z]{2}$'`,
    ),
    check(
      "action_ticket_intents_budget_band",
      sql`${table.intentBudgetBand} is null or ${table.intentBudgetBand} in (${quotedList(BUDGET_BANDS)})`,
    ),
    check(
      "action_ticket_intents_urgency",
      sql`${table.intentUrgency} is null or ${table.intentUrgency} in (${quotedList(URGENCIES)})`,
    ),
    check(
      "action_ticket_intents_requirement_flags",
      sql`${table.intentRequirementFlags} <@ array[${quotedList(REQUIREMENT_FLAGS)}]::text[]`,
    ),
    check(
      "action_ticket_intents_retention",
      sql`${table.expiresAt} = ${table.createdAt} + make_interval(days => ${sql.raw(String(CONTROLLED_INTENT_RETENTION_DAYS))})`,
    ),
    index("action_ticket_intents_expires").on(table.expiresAt),
  ],
);

/** The observed handoff of a ticket (svc-action-handoff-v1): at most one per ticket. */
export const actionHandoffReceipts = pgTable(
  "action_handoff_receipts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => actionTickets.id),
    claimId: uuid("claim_id").notNull(),
    offerId: uuid("offer_id").notNull(),
    offerVersion: integer("offer_version").notNull(),
    commercialTermsSha256: text("commercial_terms_sha256").notNull(),
    contractVersion: text("contract_version").notNull(),
    handoffConsentVersion: text("handoff_consent_version").notNull(),
    /** The optional controlled-intent disclosure consent; null when the principal declined it. */
    intentDisclosureConsentVersion: text("intent_disclosure_consent_version"),
    observedAt: timestamptz("observed_at").notNull().defaultNow(),
  },
  (table) => [
    unique("action_handoff_receipts_one_per_ticket").on(table.ticketId),
    check("action_handoff_receipts_terms_hash", isSha256Hex(table.commercialTermsSha256)),
    check(
      "action_handoff_receipts_contract",
      sql`${table.contractVersion} = ${literal(HANDOFF_RECEIPT_CONTRACT_VERSION)}`,
    ),
    check("action_handoff_receipts_consent", sql`${table.handoffConsentVersion} = ${literal(HANDOFF_CONSENT_VERSION)}`),
    check(
      "action_handoff_receipts_disclosure_consent",
      sql`${table.intentDisclosureConsentVersion} is null or ${table.intentDisclosureConsentVersion} = ${literal(INTENT_DISCLOSURE_CONSENT_VERSION)}`,
    ),
    index("action_handoff_receipts_claim_observed").on(table.claimId, table.observedAt),
  ],
);

/**
 * A provider-reported outcome and its signed receipt, exactly as first answered. The
 * Idempotency-Key is scoped to the claim: the unique (claim, key) with the request fingerprint
 * decides replay (200) and conflict (409).
 */
export const providerOutcomeReceipts = pgTable(
  "provider_outcome_receipts",
  {
    id: uuid("id").primaryKey(),
    claimId: uuid("claim_id")
      .notNull()
      .references(() => providerClaims.id),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => actionTickets.id),
    idempotencyKey: text("idempotency_key").notNull(),
    requestSha256: text("request_sha256").notNull(),
    outcome: text("outcome").notNull(),
    previousStatus: text("previous_status").notNull(),
    ticketStatus: text("ticket_status").notNull(),
    chargeStatus: text("charge_status").notNull(),
    billedCents: int64("billed_cents").notNull(),
    keyId: text("key_id").notNull(),
    /** The exact canonical JSON that was signed, and its HMAC-SHA256 (unpadded base64url). */
    signedReceipt: text("signed_receipt").notNull(),
    signature: text("signature").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    unique("provider_outcome_receipts_idempotency").on(table.claimId, table.idempotencyKey),
    check("provider_outcome_receipts_request_hash", isSha256Hex(table.requestSha256)),
    check("provider_outcome_receipts_outcome", sql`${table.outcome} in (${quotedList(OUTCOMES)})`),
    check("provider_outcome_receipts_status", sql`${table.ticketStatus} = ${table.outcome}`),
    check("provider_outcome_receipts_charge_status", sql`${table.chargeStatus} in (${quotedList(CHARGE_STATUSES)})`),
    check("provider_outcome_receipts_billed", sql`${table.billedCents} >= 0`),
    check("provider_outcome_receipts_signature", sql`${table.signature} ~ '^[A-Za-z0-9_-]{43}$'`),
    index("provider_outcome_receipts_ticket").on(table.ticketId, table.createdAt),
  ],
);

/**
 * The money: one row per charge of a ticket's bounty and per credit of that charge, never a
 * mutable counter. At most one charge and one credit per ticket; a credit names its charge.
 */
export const exchangeChargeLedger = pgTable(
  "exchange_charge_ledger",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    entryType: text("entry_type").notNull(),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => actionTickets.id),
    claimId: uuid("claim_id").notNull(),
    offerId: uuid("offer_id").notNull(),
    amountCents: int64("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    outcomeReceiptId: uuid("outcome_receipt_id")
      .notNull()
      .references(() => providerOutcomeReceipts.id),
    chargeEntryId: uuid("charge_entry_id"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    unique("exchange_charge_ledger_one_per_ticket").on(table.ticketId, table.entryType),
    unique("exchange_charge_ledger_one_per_receipt").on(table.outcomeReceiptId),
    unique("exchange_charge_ledger_one_credit_per_charge").on(table.chargeEntryId),
    foreignKey({
      name: "exchange_charge_ledger_charge_fk",
      columns: [table.chargeEntryId],
      foreignColumns: [table.id],
    }),
    check("exchange_charge_ledger_entry_type", sql`${table.entryType} in ('charge', 'credit')`),
    check("exchange_charge_ledger_amount", sql`${table.amountCents} >= 1`),
    check("exchange_charge_ledger_currency", sql`${table.currency} = 'usd'`),
    check(
      "exchange_charge_ledger_credit_names_charge",
      sql`(${table.entryType} = 'credit') = (${table.chargeEntryId} is not null)`,
    ),
    index("exchange_charge_ledger_offer").on(table.offerId, table.createdAt),
  ],
);
