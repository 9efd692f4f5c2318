/** A claim row as the interface shows it (ProviderClaim), and its OwnershipFreshness. */
import {
  PAID_ACTIONS_STOP_AFTER_CONSECUTIVE_FAILURES,
  PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS,
  RECHECK_INTERVAL_SECONDS,
} from "./claim-constants.ts";

/** A claim row as raw SQL returns it (snake case; timestamps as text or Date). */
export interface ClaimRow {
  id: string;
  account_id: string;
  site_id: string;
  domain: string;
  verification_method: string;
  verification_record_name: string;
  status: "pending" | "verified" | "revoked";
  challenge_sha256: string;
  challenge_expires_at: string | Date;
  verified_at: string | Date | null;
  verification_last_succeeded_at: string | Date | null;
  verification_last_attempted_at: string | Date | null;
  verification_consecutive_failures: number | string;
  verification_next_check_at: string | Date | null;
  revoked_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
}

const iso = (value: string | Date) => new Date(value).toISOString();
const isoOrNull = (value: string | Date | null) => (value === null ? null : iso(value));

/** The ProviderClaim record: every field of the spec, never the challenge hash or a DNS answer. */
export function claimRecord(row: ClaimRow) {
  return {
    id: row.id,
    site_id: row.site_id,
    domain: row.domain,
    verification_method: "dns_txt" as const,
    verification_record_name: row.verification_record_name,
    status: row.status,
    challenge_expires_at: iso(row.challenge_expires_at),
    verified_at: isoOrNull(row.verified_at),
    verification_last_succeeded_at: isoOrNull(row.verification_last_succeeded_at),
    verification_last_attempted_at: isoOrNull(row.verification_last_attempted_at),
    verification_consecutive_failures: Number(row.verification_consecutive_failures),
    verification_next_check_at: isoOrNull(row.verification_next_check_at),
    revoked_at: isoOrNull(row.revoked_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export type ProviderClaimRecord = ReturnType<typeof claimRecord>;

/** The OwnershipFreshness record: the constants of the rules and where this claim stands. */
export function ownershipFreshness(row: ClaimRow) {
  return {
    proof_method: "dns_txt" as const,
    record_must_remain_published: true as const,
    stored_challenge_material: "sha256_hash_only" as const,
    raw_dns_answers_retained: false as const,
    automatic_reverification: true as const,
    recheck_interval_seconds: RECHECK_INTERVAL_SECONDS as typeof RECHECK_INTERVAL_SECONDS,
    paid_actions_stop_after_consecutive_failures:
      PAID_ACTIONS_STOP_AFTER_CONSECUTIVE_FAILURES as typeof PAID_ACTIONS_STOP_AFTER_CONSECUTIVE_FAILURES,
    paid_actions_stop_when_last_success_age_reaches_seconds:
      PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS as typeof PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS,
    last_succeeded_at: isoOrNull(row.verification_last_succeeded_at),
    next_check_at: isoOrNull(row.verification_next_check_at),
    consecutive_failures: Number(row.verification_consecutive_failures),
  };
}

/** Verified, and its last success younger than the paid-action age limit at `now`. */
export function isVerifiedAndFresh(
  row: Pick<ClaimRow, "status" | "verification_last_succeeded_at">,
  now: Date,
): boolean {
  if (row.status !== "verified" || row.verification_last_succeeded_at === null) return false;
  const ageSeconds = (now.getTime() - new Date(row.verification_last_succeeded_at).getTime()) / 1000;
  return ageSeconds < PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS;
}
