/**
 * POST /provider/claims: a pending claim of an indexed domain with a fresh DNS challenge, shown
 * once. One live (pending or verified) claim per domain and per account, guarded by the
 * database's unique indexes; a pending claim whose challenge expired no longer counts and is
 * retired (marked revoked) in the same transaction, so nobody can hold a domain by never verifying.
 */
import { sql } from "drizzle-orm";
import { sqlBatchRunner } from "../../adapters/db.ts";
import { newSecret } from "../accounts/secrets.ts";
import type { SessionActor } from "../actor.ts";
import { refuseNonPublicDomain } from "../crawling/crawl-target.ts";
import { DomainError } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import { normalizeDomain } from "../sites/domain-name.ts";
import { CHALLENGE_LIFETIME_SECONDS, verificationRecordName } from "./claim-constants.ts";
import { type ClaimContext, claimLinks } from "./claim-context.ts";
import { type ClaimRow, claimRecord, ownershipFreshness } from "./claim-record.ts";

/** The claim challenge response: the value is returned here once and never stored. */
export function challengeResponse(row: ClaimRow, challengeValue: string, origin: string) {
  return {
    claim: claimRecord(row),
    dns_challenge: {
      record_type: "TXT" as const,
      record_name: row.verification_record_name,
      record_value: challengeValue,
      expires_at: new Date(row.challenge_expires_at).toISOString(),
      returned_once: true as const,
    },
    ownership_freshness: ownershipFreshness(row),
    verify_endpoint: claimLinks(origin, row.id).verify,
  };
}

export type ClaimChallengeResponse = ReturnType<typeof challengeResponse>;

/** A fresh challenge value and its hash. */
export async function newChallenge(): Promise<{ value: string; sha256: string }> {
  const value = newSecret("challenge");
  return { value, sha256: await sha256Hex(value) };
}

export async function createClaim({
  ctx,
  actor,
  input,
}: {
  /** allowPrivate: FETCH_ALLOW_PRIVATE, which lifts the non-public name rule as for URLs. */
  ctx: Pick<ClaimContext, "db" | "origin" | "now"> & { allowPrivate: boolean };
  actor: SessionActor;
  input: { domain: string };
}): Promise<ClaimChallengeResponse> {
  const domain = normalizeDomain(input.domain);
  if (!domain)
    throw new DomainError(
      "invalid",
      "INVALID_DOMAIN",
      "domain must be a host name such as example.com, without a scheme.",
    );
  refuseNonPublicDomain(domain, ctx.allowPrivate);
  const challenge = await newChallenge();
  const now = ctx.now.toISOString();
  const [, inserted = [], state = []] = await sqlBatchRunner(ctx.db)([
    sql`update provider_claims set status = 'revoked', revoked_at = ${now}, updated_at = ${now}
        where status = 'pending' and challenge_expires_at <= ${now}
          and (domain = ${domain} or account_id = ${actor.accountId})`,
    sql`insert into provider_claims (account_id, site_id, domain, verification_record_name, challenge_sha256, challenge_expires_at, created_at, updated_at)
        select ${actor.accountId}, s.id, s.domain, ${verificationRecordName(domain)}, ${challenge.sha256},
               ${now}::timestamptz + make_interval(secs => ${CHALLENGE_LIFETIME_SECONDS}), ${now}, ${now}
        from sites s where s.domain = ${domain}
        on conflict do nothing
        returning *`,
    sql`select exists (select 1 from sites where domain = ${domain}) as indexed,
               exists (select 1 from provider_claims where account_id = ${actor.accountId} and status <> 'revoked'
                       and domain <> ${domain}) as account_has_other,
               exists (select 1 from provider_claims where domain = ${domain} and status <> 'revoked') as domain_claimed`,
  ]);
  const row = inserted[0] as ClaimRow | undefined;
  if (row) return challengeResponse(row, challenge.value, ctx.origin);
  const { indexed, account_has_other } = (state[0] ?? {}) as { indexed?: boolean; account_has_other?: boolean };
  if (!indexed) {
    throw new DomainError(
      "not_found",
      "DOMAIN_NOT_INDEXED",
      `${domain} is not in the index: submit it (POST /submit) and claim it once it has been crawled.`,
    );
  }
  if (account_has_other) {
    throw new DomainError(
      "conflict",
      "ACCOUNT_ALREADY_HAS_CLAIM",
      "This account already has a live claim: revoke it before claiming another domain.",
    );
  }
  throw new DomainError("conflict", "DOMAIN_ALREADY_CLAIMED", `${domain} already has a live claim.`);
}
