/** Schemas of the provider setup and key endpoints (the spec's ProviderClaim and its responses). */
import { z } from "@hono/zod-openapi";

export const ClaimIdParamSchema = z.object({
  claim_id: z.uuid({ error: "must be a claim id (a UUID)" }).openapi({ param: { name: "claim_id", in: "path" } }),
});

const nullableDateTime = z.iso.datetime().nullable();

export const ProviderClaimSchema = z
  .object({
    id: z.uuid(),
    site_id: z.uuid(),
    domain: z.string(),
    verification_method: z.literal("dns_txt"),
    verification_record_name: z
      .string()
      .openapi({ description: "TXT record name that stays published while verified" }),
    status: z.enum(["pending", "verified", "revoked"]),
    challenge_expires_at: z.iso.datetime().openapi({ description: "Expiry of a pending one-time challenge only" }),
    verified_at: nullableDateTime,
    verification_last_succeeded_at: nullableDateTime,
    verification_last_attempted_at: nullableDateTime,
    verification_consecutive_failures: z.number().int().min(0),
    verification_next_check_at: nullableDateTime,
    revoked_at: nullableDateTime,
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .openapi("ProviderClaim");

export const OwnershipFreshnessSchema = z
  .object({
    proof_method: z.literal("dns_txt"),
    record_must_remain_published: z.literal(true),
    stored_challenge_material: z.literal("sha256_hash_only"),
    raw_dns_answers_retained: z.literal(false),
    automatic_reverification: z.literal(true),
    recheck_interval_seconds: z.literal(86400),
    paid_actions_stop_after_consecutive_failures: z.literal(3),
    paid_actions_stop_when_last_success_age_reaches_seconds: z.literal(604800),
    last_succeeded_at: nullableDateTime,
    next_check_at: nullableDateTime,
    consecutive_failures: z.number().int().min(0),
  })
  .openapi("OwnershipFreshness");

export const ClaimChallengeResponseSchema = z
  .object({
    claim: ProviderClaimSchema,
    dns_challenge: z.object({
      record_type: z.literal("TXT"),
      record_name: z.string(),
      record_value: z.string().openapi({ description: "Returned once; the full value must stay published" }),
      expires_at: z.iso.datetime(),
      returned_once: z.literal(true),
    }),
    ownership_freshness: OwnershipFreshnessSchema,
    verify_endpoint: z.string(),
  })
  .openapi("ClaimChallengeResponse");

export const ProviderKeyMetadataSchema = z
  .object({
    provider_api_key_id: z.number().int().openapi({ format: "int64" }),
    key_prefix: z.string().openapi({ description: "The key's first characters, to tell keys apart" }),
    claim_id: z.uuid(),
    created_at: z.iso.datetime(),
    header: z.literal("X-SVC-Provider-Key"),
  })
  .openapi("ProviderKeyMetadata");

export const ClaimVerifyResponseSchema = z
  .object({
    claim: ProviderClaimSchema,
    verified: z.literal(true),
    provider_key_returned: z.boolean(),
    ownership_freshness: OwnershipFreshnessSchema,
    provider_key: z
      .string()
      .optional()
      .openapi({ description: "The newly issued key, only when this verification created it" }),
    provider_key_metadata: ProviderKeyMetadataSchema.optional(),
    save_this_key_now: z.boolean().optional(),
    key_endpoint: z.string().optional().openapi({ description: "The rotation endpoint, when no key is returned here" }),
  })
  .openapi("ClaimVerifyResponse");

export const SESSION_SECURITY = [{ humanSession: [] }];
export const PROVIDER_KEY_SECURITY = [{ providerKey: [] }];
