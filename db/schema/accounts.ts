/**
 * People and their sessions, provider claims of domains, and the keys those claims hold. Every
 * secret (sign-in token, session token, DNS challenge, provider key) is stored as its SHA-256 in
 * lower-case hex only: the raw value is shown once and never kept.
 */
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });
const sha256Hex = (name: string) => text(name);
const isSha256Hex = (column: unknown) => sql`${column} ~ '^[0-9a-f]{64}$'`;

/** A person known by an e-mail address (lower case); created by the first completed sign-in. */
export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull().unique(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [check("accounts_email_lower", sql`${table.email} = lower(${table.email})`)],
);

/** A one-time sign-in link's token: single use, 15 minutes. */
export const signInTokens = pgTable(
  "sign_in_tokens",
  {
    tokenSha256: sha256Hex("token_sha256").primaryKey(),
    email: text("email").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
  },
  (table) => [
    check("sign_in_tokens_hash", isSha256Hex(table.tokenSha256)),
    check("sign_in_tokens_lifetime", sql`${table.expiresAt} <= ${table.createdAt} + interval '15 minutes'`),
    index("sign_in_tokens_email_created").on(table.email, table.createdAt),
  ],
);

/** A signed-in browser: the `svc_session` cookie's token, hashed; ends by expiry or sign-out. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenSha256: sha256Hex("token_sha256").notNull().unique(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    expiresAt: timestamptz("expires_at").notNull(),
    endedAt: timestamptz("ended_at"),
  },
  (table) => [check("sessions_hash", isSha256Hex(table.tokenSha256)), index("sessions_account").on(table.accountId)],
);

export const CLAIM_STATUSES = ["pending", "verified", "revoked"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/**
 * A provider's claim of an indexed domain, proven by a DNS TXT record that must stay published.
 * One live (pending or verified) claim per domain and per account; revoked claims stay as history.
 */
export const providerClaims = pgTable(
  "provider_claims",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    /** The site claimed. No foreign key: the index is rebuilt and truncated freely, claims stay. */
    siteId: uuid("site_id").notNull(),
    domain: text("domain").notNull(),
    verificationMethod: text("verification_method").notNull().default("dns_txt"),
    verificationRecordName: text("verification_record_name").notNull(),
    status: text("status").$type<ClaimStatus>().notNull().default("pending"),
    /** The current challenge value's SHA-256; the value itself was shown once. */
    challengeSha256: sha256Hex("challenge_sha256").notNull(),
    challengeExpiresAt: timestamptz("challenge_expires_at").notNull(),
    verifiedAt: timestamptz("verified_at"),
    verificationLastSucceededAt: timestamptz("verification_last_succeeded_at"),
    verificationLastAttemptedAt: timestamptz("verification_last_attempted_at"),
    verificationConsecutiveFailures: integer("verification_consecutive_failures").notNull().default(0),
    verificationNextCheckAt: timestamptz("verification_next_check_at"),
    revokedAt: timestamptz("revoked_at"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (table) => [
    check("provider_claims_method", sql`${table.verificationMethod} = 'dns_txt'`),
    check("provider_claims_status", sql`${table.status} in ('pending', 'verified', 'revoked')`),
    check("provider_claims_challenge_hash", isSha256Hex(table.challengeSha256)),
    check("provider_claims_failures", sql`${table.verificationConsecutiveFailures} >= 0`),
    check("provider_claims_revoked_at", sql`(${table.status} = 'revoked') = (${table.revokedAt} is not null)`),
    check("provider_claims_verified_at", sql`${table.status} <> 'verified' or ${table.verifiedAt} is not null`),
    uniqueIndex("provider_claims_live_domain").on(table.domain).where(sql`${table.status} <> 'revoked'`),
    uniqueIndex("provider_claims_live_account").on(table.accountId).where(sql`${table.status} <> 'revoked'`),
    index("provider_claims_due").on(table.verificationNextCheckAt).where(sql`${table.status} = 'verified'`),
  ],
);

/** A claim-scoped provider key; int64 ids; rotation revokes every earlier key of the claim. */
export const providerApiKeys = pgTable(
  "provider_api_keys",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    claimId: uuid("claim_id")
      .notNull()
      .references(() => providerClaims.id),
    keySha256: sha256Hex("key_sha256").notNull().unique(),
    /** The key's first characters, safe to show so a person can tell keys apart. */
    keyPrefix: text("key_prefix").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    revokedAt: timestamptz("revoked_at"),
  },
  (table) => [
    check("provider_api_keys_hash", isSha256Hex(table.keySha256)),
    uniqueIndex("provider_api_keys_one_active").on(table.claimId).where(sql`${table.revokedAt} is null`),
  ],
);
