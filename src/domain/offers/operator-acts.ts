/**
 * The service's own acts on the exchange, run by an operator (scripts/operator.ts), never an
 * endpoint: verifying with the owner that a provider acceptance is theirs, and activating a draft
 * whose exact current terms carry such a verified acceptance. Each act writes its audit row (who,
 * what, when) in the same statement as the change, and only when the change happened.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import { PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS } from "../claims/claim-constants.ts";
import { type ClaimRow, isVerifiedAndFresh } from "../claims/claim-record.ts";
import { DomainError } from "../errors.ts";
import { type AcceptanceEvidence, commercialState } from "./commercial-state.ts";
import { acceptanceEvidenceQuery } from "./manage-offers.ts";
import type { OfferRow } from "./offer-record.ts";

export interface OperatorContext {
  db: Database;
  now: Date;
  /** Who acts: recorded with every act. */
  operator: string;
}

/** Refuses an empty or overlong operator name before anything is written. */
export function assertOperatorName(operator: string | undefined): asserts operator is string {
  if (!operator || operator.trim().length === 0 || operator.length > 200) {
    throw new DomainError(
      "invalid",
      "OPERATOR_REQUIRED",
      "Name the operator acting: --by <name> or the OPERATOR environment variable (1 to 200 characters).",
    );
  }
}

/** Records that the owner confirmed this acceptance is theirs; once per acceptance. */
export async function ownerVerifyAcceptance(ctx: OperatorContext, acceptanceId: string) {
  assertOperatorName(ctx.operator);
  const now = ctx.now.toISOString();
  const result = await ctx.db.execute(sql`
    with target as (
      select id, provider_claim_id, event_type, provider_offer_id, offer_version, exact_terms_sha256
      from commercial_acceptance_events where id = ${acceptanceId}
    ), verified as (
      insert into acceptance_owner_verifications (acceptance_id, verified_by, verified_at)
      select id, ${ctx.operator}, ${now} from target
      on conflict (acceptance_id) do nothing
      returning acceptance_id, verified_by, verified_at
    ), audit as (
      insert into operator_acts (act, subject_id, operator, detail, acted_at)
      select 'owner_verify_acceptance', t.id, ${ctx.operator},
        jsonb_build_object('provider_claim_id', t.provider_claim_id, 'event_type', t.event_type,
          'provider_offer_id', t.provider_offer_id, 'offer_version', t.offer_version,
          'exact_terms_sha256', t.exact_terms_sha256),
        ${now}
      from target t join verified v on v.acceptance_id = t.id
      returning id
    )
    select v.*, (select id from audit) as audit_id from verified v`);
  const row = result.rows[0] as
    | { acceptance_id: string; verified_by: string; verified_at: string; audit_id: string }
    | undefined;
  if (row)
    return {
      acceptance_id: row.acceptance_id,
      verified_by: row.verified_by,
      verified_at: new Date(row.verified_at).toISOString(),
      audit_id: String(row.audit_id),
    };
  const existing = await ctx.db.execute(sql`
    select e.id, v.verified_by, v.verified_at from commercial_acceptance_events e
    left join acceptance_owner_verifications v on v.acceptance_id = e.id where e.id = ${acceptanceId}`);
  const found = existing.rows[0] as { verified_by: string | null; verified_at: string | null } | undefined;
  if (!found) throw new DomainError("not_found", "ACCEPTANCE_NOT_FOUND", `No acceptance ${acceptanceId}.`);
  throw new DomainError(
    "conflict",
    "ACCEPTANCE_ALREADY_VERIFIED",
    `Acceptance ${acceptanceId} was already verified by ${found.verified_by} at ${new Date(found.verified_at ?? 0).toISOString()}.`,
  );
}

type OfferWithClaim = OfferRow &
  Pick<ClaimRow, "verification_last_succeeded_at"> & { claim_status: ClaimRow["status"] };

/** Why a draft cannot be activated now, in words; empty when it can. */
function activationObstacles(offer: OfferWithClaim, evidence: AcceptanceEvidence[], now: Date): string[] {
  const claimFresh = isVerifiedAndFresh(
    { status: offer.claim_status, verification_last_succeeded_at: offer.verification_last_succeeded_at },
    now,
  );
  const state = commercialState(offer, evidence, claimFresh, now);
  if (state.activation_ready) return [];
  const reasons: string[] = [];
  if (offer.status !== "draft") reasons.push(`the offer is ${offer.status}, not a draft`);
  if (offer.revoked_at !== null) reasons.push("the offer's claim was revoked");
  if (!claimFresh) reasons.push("the claim is not verified and fresh");
  if (!state.current_terms_owner_verified) {
    reasons.push(
      `no owner-verified, unexpired provider acceptance of the current terms (version ${offer.version}, ${offer.commercial_terms_sha256})`,
    );
  }
  if (offer.terms_credit_limit_cents === null)
    reasons.push("the terms are not capped (terms_credit_limit_cents unset)");
  return reasons;
}

/**
 * Activates a draft when its exact current terms carry an unexpired provider acceptance the owner
 * verified, its terms are capped, and its claim is verified and fresh. The update re-checks all of
 * it, so a change between the read and the write activates nothing.
 */
export async function activateOffer(ctx: OperatorContext, offerId: string) {
  assertOperatorName(ctx.operator);
  const offers = await ctx.db.execute(sql`
    select o.*, c.status as claim_status, c.verification_last_succeeded_at
    from provider_offers o join provider_claims c on c.id = o.claim_id where o.id = ${offerId}`);
  const offer = offers.rows[0] as OfferWithClaim | undefined;
  if (!offer) throw new DomainError("not_found", "OFFER_NOT_FOUND", `No offer ${offerId}.`);
  const evidence = (await ctx.db.execute(acceptanceEvidenceQuery(sql`${offerId}::uuid`)))
    .rows as unknown as AcceptanceEvidence[];
  const obstacles = activationObstacles(offer, evidence, ctx.now);
  if (obstacles.length > 0) {
    throw new DomainError(
      "conflict",
      "OFFER_NOT_ACTIVATABLE",
      `Offer ${offerId} cannot be activated: ${obstacles.join("; ")}.`,
    );
  }
  const now = ctx.now.toISOString();
  const result = await ctx.db.execute(sql`
    with evidence as (
      select e.id from commercial_acceptance_events e
      join acceptance_owner_verifications v on v.acceptance_id = e.id
      join provider_offers o on o.id = e.provider_offer_id
      where o.id = ${offerId} and e.exact_terms_sha256 = o.commercial_terms_sha256
        and e.event_type in ('terms_acceptance', 'terms_renewal') and e.valid_until > ${now}::timestamptz
      order by e.provider_accepted_at desc, e.id desc limit 1
    ), activated as (
      update provider_offers o set status = 'active', activated_at = ${now}, updated_at = ${now}
      from provider_claims c
      where o.id = ${offerId} and o.status = 'draft' and o.revoked_at is null and o.terms_credit_limit_cents is not null
        and c.id = o.claim_id and c.status = 'verified'
        and c.verification_last_succeeded_at > ${now}::timestamptz
          - make_interval(secs => ${PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS})
        and exists (select 1 from evidence)
      returning o.id, o.version, o.commercial_terms_sha256
    ), audit as (
      insert into operator_acts (act, subject_id, operator, detail, acted_at)
      select 'activate_offer', a.id, ${ctx.operator},
        jsonb_build_object('offer_version', a.version, 'commercial_terms_sha256', a.commercial_terms_sha256,
          'acceptance_id', (select id from evidence)),
        ${now}
      from activated a
      returning id
    )
    select a.*, (select id from evidence) as acceptance_id, (select id from audit) as audit_id from activated a`);
  const row = result.rows[0] as
    | { id: string; version: number; commercial_terms_sha256: string; acceptance_id: string; audit_id: string }
    | undefined;
  if (!row) {
    throw new DomainError(
      "conflict",
      "OFFER_NOT_ACTIVATABLE",
      `Offer ${offerId} changed while it was being activated; nothing was activated.`,
    );
  }
  return {
    offer_id: row.id,
    status: "active" as const,
    version: Number(row.version),
    commercial_terms_sha256: row.commercial_terms_sha256,
    acceptance_id: row.acceptance_id,
    activated_by: ctx.operator,
    activated_at: now,
    audit_id: String(row.audit_id),
  };
}

/** What waits for an operator: acceptances not yet owner-verified, and drafts ready to activate. */
export async function listPending(ctx: Pick<OperatorContext, "db" | "now">) {
  const [acceptances, drafts] = await Promise.all([
    ctx.db.execute(sql`
      select e.id, e.event_type, c.domain, e.provider_claim_id, e.provider_offer_id, e.offer_version,
        e.exact_terms_sha256, e.provider_acceptance_reference, e.provider_accepted_at, e.valid_until
      from commercial_acceptance_events e
      join provider_claims c on c.id = e.provider_claim_id
      left join acceptance_owner_verifications v on v.acceptance_id = e.id
      where v.acceptance_id is null and c.status <> 'revoked'
      order by e.provider_accepted_at, e.id`),
    ctx.db.execute(sql`
      select o.*, c.domain, c.status as claim_status, c.verification_last_succeeded_at
      from provider_offers o join provider_claims c on c.id = o.claim_id
      where o.status = 'draft' and o.revoked_at is null and c.status = 'verified'
      order by o.created_at, o.id`),
  ]);
  const draftRows = drafts.rows as unknown as (OfferWithClaim & { domain: string })[];
  const evidence =
    draftRows.length === 0
      ? []
      : ((
          await ctx.db.execute(
            acceptanceEvidenceQuery(
              sql`select o.id from provider_offers o where o.status = 'draft' and o.revoked_at is null`,
            ),
          )
        ).rows as unknown as AcceptanceEvidence[]);
  const ready = draftRows.filter(
    (offer) =>
      activationObstacles(
        offer,
        evidence.filter((event) => event.provider_offer_id === offer.id),
        ctx.now,
      ).length === 0,
  );
  const iso = (value: unknown) => (value === null ? null : new Date(value as string).toISOString());
  return {
    acceptances_awaiting_owner_verification: (acceptances.rows as Record<string, unknown>[]).map((row) => ({
      acceptance_id: row.id as string,
      event_type: row.event_type as string,
      domain: row.domain as string,
      provider_claim_id: row.provider_claim_id as string,
      provider_offer_id: (row.provider_offer_id as string | null) ?? null,
      offer_version: row.offer_version === null ? null : Number(row.offer_version),
      exact_terms_sha256: (row.exact_terms_sha256 as string | null) ?? null,
      provider_acceptance_reference: row.provider_acceptance_reference as string,
      provider_accepted_at: iso(row.provider_accepted_at),
      valid_until: iso(row.valid_until),
    })),
    offers_ready_to_activate: ready.map((offer) => ({
      offer_id: offer.id,
      domain: offer.domain,
      version: Number(offer.version),
      commercial_terms_sha256: offer.commercial_terms_sha256,
      name: offer.name,
    })),
  };
}
