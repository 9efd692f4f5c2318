/**
 * The provider exchange after a claim is verified: offers and their versions, the provider's
 * commercial acceptances, the owner's verification of them, the operator acts that verified and
 * activated, and which offers were disclosed beside which search. Versions, acceptances,
 * verifications, operator acts and disclosures are append-only: a trigger (migration
 * `offers_guards`) refuses to change them.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import {
  ACCEPTANCE_EVENT_TYPES,
  CHARGE_EVENTS,
  COMMERCIAL_TERMS_CONTRACT_VERSION,
  OFFER_ACTION_TYPES,
  OFFER_LIMITS,
  OFFER_STATUSES,
  OPERATOR_ACTS,
  PRINCIPAL_PRICE_MODES,
} from "../../src/domain/offers/offer-constants.ts";
import { providerApiKeys, providerClaims } from "./accounts.ts";
import { searchReceipts } from "./search-receipts.ts";

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });
const quotedList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(", "));
const isSha256Hex = (column: unknown) => sql`${column} ~ '^[0-9a-f]{64}$'`;
const int64 = (name: string) => bigint(name, { mode: "number" });

/**
 * The offer's terms, shared by the offer (its current version) and each stored version. Amounts
 * are int64 cents; optional terms are null when the provider gave none.
 */
const offerTerms = () => ({
  name: text("name").notNull(),
  summary: text("summary").notNull(),
  actionType: text("action_type").notNull(),
  actionUrl: text("action_url").notNull(),
  chargeEvent: text("charge_event").notNull(),
  bountyCents: int64("bounty_cents").notNull(),
  currency: text("currency").notNull(),
  principalPriceMode: text("principal_price_mode").notNull(),
  principalPriceCents: int64("principal_price_cents"),
  principalCurrency: text("principal_currency").notNull(),
  billingMode: text("billing_mode").notNull(),
  termsCreditLimitCents: int64("terms_credit_limit_cents"),
  termsPeriodDays: integer("terms_period_days"),
  /** SHA-256 of the RFC 8785 canonical JSON of the exact commercial terms (docs/exchange.md). */
  commercialTermsSha256: text("commercial_terms_sha256").notNull(),
});

type TermsColumns = { [K in keyof ReturnType<typeof offerTerms>]: unknown };

const termsChecks = (prefix: string, t: TermsColumns) => [
  check(`${prefix}_name_length`, sql`char_length(${t.name}) between 1 and ${sql.raw(String(OFFER_LIMITS.nameMax))}`),
  check(
    `${prefix}_summary_length`,
    sql`char_length(${t.summary}) between 1 and ${sql.raw(String(OFFER_LIMITS.summaryMax))}`,
  ),
  check(`${prefix}_action_type`, sql`${t.actionType} in (${quotedList(OFFER_ACTION_TYPES)})`),
  check(`${prefix}_action_url_https`, sql`${t.actionUrl} like 'https://%'`),
  check(`${prefix}_charge_event`, sql`${t.chargeEvent} in (${quotedList(CHARGE_EVENTS)})`),
  check(
    `${prefix}_bounty`,
    sql`${t.bountyCents} between ${sql.raw(String(OFFER_LIMITS.bountyCentsMin))} and ${sql.raw(String(OFFER_LIMITS.bountyCentsMax))}`,
  ),
  check(`${prefix}_currency`, sql`${t.currency} = 'usd' and ${t.principalCurrency} = 'usd'`),
  check(`${prefix}_price_mode`, sql`${t.principalPriceMode} in (${quotedList(PRINCIPAL_PRICE_MODES)})`),
  check(
    `${prefix}_price`,
    sql`${t.principalPriceCents} is null or ${t.principalPriceCents} between 0 and ${sql.raw(String(OFFER_LIMITS.principalPriceCentsMax))}`,
  ),
  check(`${prefix}_billing_mode`, sql`${t.billingMode} = 'terms'`),
  check(
    `${prefix}_credit_limit`,
    sql`${t.termsCreditLimitCents} is null or ${t.termsCreditLimitCents} between 1 and ${sql.raw(String(OFFER_LIMITS.termsCreditLimitCentsMax))}`,
  ),
  check(`${prefix}_period`, sql`${t.termsPeriodDays} is null or ${t.termsPeriodDays} between 1 and 90`),
  check(`${prefix}_terms_hash`, isSha256Hex(t.commercialTermsSha256)),
];

/**
 * A provider's offer: its current version's terms and its status. Only drafts change (each change
 * a new version); activation is an operator act; an active offer can be paused; revoking the claim
 * pauses it and marks it revoked for good.
 */
export const providerOffers = pgTable(
  "provider_offers",
  {
    id: uuid("id").primaryKey(),
    claimId: uuid("claim_id")
      .notNull()
      .references(() => providerClaims.id),
    status: text("status").notNull().default("draft"),
    version: integer("version").notNull().default(1),
    ...offerTerms(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
    activatedAt: timestamptz("activated_at"),
    pausedAt: timestamptz("paused_at"),
    /** Set when the claim was revoked: the offer can never be shown or activated again. */
    revokedAt: timestamptz("revoked_at"),
  },
  (table) => [
    check("provider_offers_status", sql`${table.status} in (${quotedList(OFFER_STATUSES)})`),
    check("provider_offers_version", sql`${table.version} >= 1`),
    check("provider_offers_active_since", sql`${table.status} <> 'active' or ${table.activatedAt} is not null`),
    check("provider_offers_revoked_not_active", sql`${table.revokedAt} is null or ${table.status} <> 'active'`),
    ...termsChecks("provider_offers", table),
    index("provider_offers_claim").on(table.claimId, table.createdAt),
    index("provider_offers_active_claim").on(table.claimId).where(sql`${table.status} = 'active'`),
  ],
);

/** Every version an offer ever had, with its terms hash: what tickets and acceptances bind to. */
export const providerOfferVersions = pgTable(
  "provider_offer_versions",
  {
    offerId: uuid("offer_id")
      .notNull()
      .references(() => providerOffers.id),
    version: integer("version").notNull(),
    ...offerTerms(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: "provider_offer_versions_pk", columns: [table.offerId, table.version] }),
    check("provider_offer_versions_version", sql`${table.version} >= 1`),
    ...termsChecks("provider_offer_versions", table),
  ],
);

/**
 * A provider-key-authenticated commercial acceptance (pilot_company, terms_acceptance,
 * terms_renewal). Neither owner verification nor commercial proof. The Idempotency-Key is scoped
 * to the claim: the unique (claim, key) with the stored request fingerprint decides replay (same
 * fingerprint: the stored response) and conflict (another fingerprint: 409).
 */
export const commercialAcceptanceEvents = pgTable(
  "commercial_acceptance_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    providerClaimId: uuid("provider_claim_id")
      .notNull()
      .references(() => providerClaims.id),
    providerApiKeyId: bigint("provider_api_key_id", { mode: "bigint" })
      .notNull()
      .references(() => providerApiKeys.id),
    eventType: text("event_type").notNull(),
    providerAcceptanceReference: text("provider_acceptance_reference").notNull(),
    providerAcceptedAt: timestamptz("provider_accepted_at").notNull().defaultNow(),
    providerOfferId: uuid("provider_offer_id"),
    relatedAcceptanceEventId: uuid("related_acceptance_event_id"),
    offerVersion: integer("offer_version"),
    termsContractVersion: text("terms_contract_version"),
    exactTermsSha256: text("exact_terms_sha256"),
    validUntil: timestamptz("valid_until"),
    idempotencyKey: text("idempotency_key").notNull(),
    /** SHA-256 of the RFC 8785 canonical JSON of the request body: tells a replay from a conflict. */
    requestSha256: text("request_sha256").notNull(),
    /** The acceptance record as first answered; a replay answers it again. */
    responseAcceptance: jsonb("response_acceptance").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    unique("commercial_acceptance_events_idempotency").on(table.providerClaimId, table.idempotencyKey),
    foreignKey({
      name: "commercial_acceptance_events_offer_version_fk",
      columns: [table.providerOfferId, table.offerVersion],
      foreignColumns: [providerOfferVersions.offerId, providerOfferVersions.version],
    }),
    foreignKey({
      name: "commercial_acceptance_events_related_fk",
      columns: [table.relatedAcceptanceEventId],
      foreignColumns: [table.id],
    }),
    check("commercial_acceptance_events_type", sql`${table.eventType} in (${quotedList(ACCEPTANCE_EVENT_TYPES)})`),
    check(
      "commercial_acceptance_events_reference",
      sql`${table.providerAcceptanceReference} ~ '^[A-Za-z0-9][A-Za-z0-9._:/-]{7,199}$'`,
    ),
    check("commercial_acceptance_events_request_hash", isSha256Hex(table.requestSha256)),
    check(
      "commercial_acceptance_events_shape",
      sql`case ${table.eventType}
        when 'pilot_company' then ${table.providerOfferId} is null and ${table.offerVersion} is null
          and ${table.exactTermsSha256} is null and ${table.relatedAcceptanceEventId} is null
          and ${table.termsContractVersion} is null and ${table.validUntil} is null
        when 'terms_acceptance' then ${table.providerOfferId} is not null and ${table.offerVersion} is not null
          and ${table.relatedAcceptanceEventId} is null and ${table.validUntil} is not null
          and ${table.termsContractVersion} = '${sql.raw(COMMERCIAL_TERMS_CONTRACT_VERSION)}'
          and ${table.exactTermsSha256} ~ '^[0-9a-f]{64}$'
        else ${table.providerOfferId} is not null and ${table.offerVersion} is not null
          and ${table.relatedAcceptanceEventId} is not null and ${table.validUntil} is not null
          and ${table.termsContractVersion} = '${sql.raw(COMMERCIAL_TERMS_CONTRACT_VERSION)}'
          and ${table.exactTermsSha256} ~ '^[0-9a-f]{64}$'
        end`,
    ),
    index("commercial_acceptance_events_offer").on(table.providerOfferId, table.createdAt),
    index("commercial_acceptance_events_claim").on(table.providerClaimId, table.createdAt),
  ],
);

/**
 * The owner's verification of one acceptance (the service's act, by operator command): who and
 * when. At most one per acceptance.
 */
export const acceptanceOwnerVerifications = pgTable(
  "acceptance_owner_verifications",
  {
    acceptanceId: uuid("acceptance_id")
      .primaryKey()
      .references(() => commercialAcceptanceEvents.id),
    verifiedBy: text("verified_by").notNull(),
    verifiedAt: timestamptz("verified_at").notNull().defaultNow(),
  },
  (table) => [check("acceptance_owner_verifications_by", sql`char_length(${table.verifiedBy}) between 1 and 200`)],
);

/** Every operator act: what was done to which record, by whom, when. */
export const operatorActs = pgTable(
  "operator_acts",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    act: text("act").notNull(),
    subjectId: uuid("subject_id").notNull(),
    operator: text("operator").notNull(),
    detail: jsonb("detail").notNull().default(sql`'{}'::jsonb`),
    actedAt: timestamptz("acted_at").notNull().defaultNow(),
  },
  (table) => [
    check("operator_acts_act", sql`${table.act} in (${quotedList(OPERATOR_ACTS)})`),
    check("operator_acts_operator", sql`char_length(${table.operator}) between 1 and 200`),
    index("operator_acts_subject").on(table.subjectId, table.actedAt),
  ],
);

/**
 * Which offer (version and terms hash) was disclosed beside which search, for which returned
 * organic domain: the evidence an action ticket needs. Dies with its search receipt.
 */
export const searchOfferDisclosures = pgTable(
  "search_offer_disclosures",
  {
    searchId: text("search_id").notNull(),
    offerId: uuid("offer_id").notNull(),
    offerVersion: integer("offer_version").notNull(),
    commercialTermsSha256: text("commercial_terms_sha256").notNull(),
    domain: text("domain").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    /** The search's expiry (the partition key of the receipt family): the disclosure dies with it. */
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (table) => [
    primaryKey({ name: "search_offer_disclosures_pk", columns: [table.searchId, table.offerId, table.expiresAt] }),
    // With the check that the receipt returned the domain (trigger receipt_result_check).
    foreignKey({
      name: "search_offer_disclosures_receipt_fk",
      columns: [table.searchId, table.expiresAt],
      foreignColumns: [searchReceipts.searchId, searchReceipts.expiresAt],
    }).onDelete("cascade"),
    foreignKey({
      name: "search_offer_disclosures_offer_version_fk",
      columns: [table.offerId, table.offerVersion],
      foreignColumns: [providerOfferVersions.offerId, providerOfferVersions.version],
    }),
    index("search_offer_disclosures_offer").on(table.offerId),
  ],
);
