/** The numbers of provider claims and their ownership freshness (the spec's OwnershipFreshness). */

/** After a successful check, the next one is due this much later. */
export const RECHECK_INTERVAL_SECONDS = 86_400;
/** The third consecutive failed check revokes the claim. */
export const PAID_ACTIONS_STOP_AFTER_CONSECUTIVE_FAILURES = 3;
/** Eligibility for paid actions ends at this age of the last success, even before a revocation. */
export const PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS = 604_800;
/**
 * How soon a failed check of a verified claim is retried, after the first and the second
 * consecutive failure: earlier than the daily interval, yet far enough apart that a DNS outage of
 * a few hours does not revoke a claim (the third failure comes 18 h after the first).
 */
export const FAILURE_RETRY_SECONDS = [6 * 3600, 12 * 3600] as const;
/** A pending claim's challenge must be verified within this time; a later claim of the domain replaces it. */
export const CHALLENGE_LIFETIME_SECONDS = 7 * 24 * 3600;
/** The label under the domain where the TXT record is published. */
export const CHALLENGE_RECORD_LABEL = "_agent-readiness-challenge";
/** How many due claims one run of the recheck job handles. */
export const RECHECK_BATCH_SIZE = 200;
/** A claim taken by a recheck run is left alone by other runs for this long. */
export const RECHECK_LEASE_SECONDS = 15 * 60;

export const verificationRecordName = (domain: string) => `${CHALLENGE_RECORD_LABEL}.${domain}`;
