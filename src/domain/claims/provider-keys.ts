/**
 * Provider keys: claim-scoped, prefixed, 256-bit, stored as SHA-256 with int64 ids; returned once.
 * A key works only while its claim is verified and fresh.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import type { ProviderKeyVerification } from "../accounts/credentials.ts";
import { newSecret } from "../accounts/secrets.ts";
import { sha256Hex } from "../sha256.ts";
import { type ClaimRow, isVerifiedAndFresh } from "./claim-record.ts";

/** How many characters of a key are kept in the clear to tell keys apart (the prefix and 4 more). */
const SHOWN_KEY_CHARACTERS = 10;

export interface NewProviderKey {
  key: string;
  keySha256: string;
  keyPrefix: string;
}

export async function newProviderKey(): Promise<NewProviderKey> {
  const key = newSecret("providerKey");
  return { key, keySha256: await sha256Hex(key), keyPrefix: key.slice(0, SHOWN_KEY_CHARACTERS) };
}

export interface IssuedKeyRow {
  id: string | number;
  key_prefix: string;
  created_at: string | Date;
}

/** The metadata shown beside a newly issued key (never the hash). */
export function providerKeyMetadata(row: IssuedKeyRow, claimId: string) {
  return {
    provider_api_key_id: Number(row.id),
    key_prefix: row.key_prefix,
    claim_id: claimId,
    created_at: new Date(row.created_at).toISOString(),
    header: "X-SVC-Provider-Key" as const,
  };
}

/**
 * The state of a presented key: active with its actor while its claim is verified and fresh at
 * `now`; claim_not_fresh for an active key of a claim past the age limit; invalid otherwise.
 */
export async function verifyProviderKey(
  ctx: { db: Database },
  key: string,
  now: Date = new Date(),
): Promise<ProviderKeyVerification> {
  const keySha256 = await sha256Hex(key);
  const result = await ctx.db.execute(sql`
    select k.id as key_id, c.id as claim_id, c.account_id, c.domain, c.status, c.verification_last_succeeded_at
    from provider_api_keys k join provider_claims c on c.id = k.claim_id
    where k.key_sha256 = ${keySha256} and k.revoked_at is null`);
  const row = result.rows[0] as
    | (Pick<ClaimRow, "status" | "verification_last_succeeded_at" | "domain" | "account_id"> & {
        key_id: string;
        claim_id: string;
      })
    | undefined;
  if (row?.status !== "verified") return { status: "invalid" };
  if (!isVerifiedAndFresh(row, now)) return { status: "claim_not_fresh" };
  return {
    status: "active",
    actor: {
      kind: "provider_key",
      keyId: String(row.key_id),
      claimId: row.claim_id,
      accountId: row.account_id,
      domain: row.domain,
    },
  };
}
