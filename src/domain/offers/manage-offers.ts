/**
 * The owner's offer operations on a session: create a draft, read, list, update a draft (each
 * update a new version with its terms hash) and pause an active offer. Another account's offer is
 * 404, never 403. Every write of an offer also appends its version, in the same statement.
 */
import { type SQL, sql } from "drizzle-orm";
import { type Database, sqlBatchRunner } from "../../adapters/db.ts";
import type { SessionActor } from "../actor.ts";
import { type ClaimRow, isVerifiedAndFresh } from "../claims/claim-record.ts";
import { findOwnedClaim } from "../claims/find-claim.ts";
import { DomainError } from "../errors.ts";
import { type AcceptanceEvidence, commercialState, evidenceByOffer } from "./commercial-state.ts";
import { commercialTermsSha256 } from "./commercial-terms.ts";
import { OFFER_INVENTORY_CAP_PER_CLAIM } from "./offer-constants.ts";
import { assertActionUrlOnDomain, assertPriceCoherent, type OfferInput } from "./offer-input.ts";
import { type OfferRow, ownerOfferRecord } from "./offer-record.ts";

export interface OfferContext {
  db: Database;
  now: Date;
}

type OfferWithClaim = OfferRow & {
  claim_domain: string;
  claim_status: ClaimRow["status"];
  claim_last_succeeded_at: string | Date | null;
};

export const offerNotFound = () => new DomainError("not_found", "OFFER_NOT_FOUND", "No such offer.");
const claimNotVerified = () =>
  new DomainError("conflict", "CLAIM_NOT_VERIFIED", "Offers belong to a verified claim: verify the claim first.");

/** The columns of an offer's terms, in insert order, with their values from the request. */
function termsValues(input: OfferInput, hash: string) {
  return sql.join(
    [
      sql`${input.name}`,
      sql`${input.summary}`,
      sql`${input.action_type}`,
      sql`${input.action_url}`,
      sql`${input.charge_event}`,
      sql`${input.bounty_cents}`,
      sql`${input.currency}`,
      sql`${input.principal_price_mode}`,
      sql`${input.principal_price_cents ?? null}`,
      sql`${input.principal_currency}`,
      sql`${input.billing_mode}`,
      sql`${input.terms_credit_limit_cents ?? null}`,
      sql`${input.terms_period_days ?? null}`,
      sql`${hash}`,
    ],
    sql`, `,
  );
}

const TERMS_COLUMNS = sql.raw(
  "name, summary, action_type, action_url, charge_event, bounty_cents, currency, principal_price_mode, principal_price_cents, principal_currency, billing_mode, terms_credit_limit_cents, terms_period_days, commercial_terms_sha256",
);

/** Appends the version of the offer rows a CTE named `changed` wrote, and selects them. */
const appendVersion = sql`, appended as (
    insert into provider_offer_versions (offer_id, version, ${TERMS_COLUMNS}, created_at)
    select id, version, ${TERMS_COLUMNS}, updated_at from changed
  )
  select * from changed`;

async function termsHash(offerId: string, claim: Pick<ClaimRow, "id" | "domain">, input: OfferInput) {
  return commercialTermsSha256({
    offerId,
    providerClaimId: claim.id,
    providerDomain: claim.domain,
    actionType: input.action_type,
    actionUrl: input.action_url,
    chargeEvent: input.charge_event,
    bountyCents: input.bounty_cents,
    currency: input.currency,
    principalPriceMode: input.principal_price_mode,
    principalPriceCents: input.principal_price_cents ?? null,
    principalCurrency: input.principal_currency,
    billingMode: input.billing_mode,
    termsCreditLimitCents: input.terms_credit_limit_cents ?? null,
    termsPeriodDays: input.terms_period_days ?? null,
  });
}

/** Terms acceptances (and renewals) of the offers `scope` selects, with the owner's verification. */
export function acceptanceEvidenceQuery(offerScope: SQL): SQL {
  return sql`
    select e.id, e.provider_offer_id, e.event_type, e.exact_terms_sha256, e.provider_accepted_at, e.valid_until,
      v.verified_at as owner_verified_at
    from commercial_acceptance_events e
    left join acceptance_owner_verifications v on v.acceptance_id = e.id
    where e.event_type in ('terms_acceptance', 'terms_renewal') and e.provider_offer_id in (${offerScope})`;
}

const ownedOffersScope = (accountId: string) =>
  sql`select o.id from provider_offers o join provider_claims c on c.id = o.claim_id where c.account_id = ${accountId}`;

/** The owner's records with their commercial state. */
async function withCommercialState(ctx: OfferContext, actor: SessionActor, rows: OfferWithClaim[]) {
  if (rows.length === 0) return [];
  const evidence = await ctx.db.execute(acceptanceEvidenceQuery(ownedOffersScope(actor.accountId)));
  const byOffer = evidenceByOffer(evidence.rows as unknown as AcceptanceEvidence[]);
  return rows.map((row) => ({
    ...ownerOfferRecord(row, row.claim_domain),
    commercial_state: commercialState(
      row,
      byOffer.get(row.id) ?? [],
      isVerifiedAndFresh(
        { status: row.claim_status, verification_last_succeeded_at: row.claim_last_succeeded_at },
        ctx.now,
      ),
      ctx.now,
    ),
  }));
}

const selectOwnedOffers = (accountId: string, where: SQL) => sql`
  select o.*, c.domain as claim_domain, c.status as claim_status,
    c.verification_last_succeeded_at as claim_last_succeeded_at
  from provider_offers o join provider_claims c on c.id = o.claim_id
  where c.account_id = ${accountId} and ${where}
  order by o.created_at desc, o.id`;

async function findOwnedOffer(ctx: OfferContext, actor: SessionActor, offerId: string): Promise<OfferWithClaim> {
  const result = await ctx.db.execute(selectOwnedOffers(actor.accountId, sql`o.id = ${offerId}`));
  const row = result.rows[0] as OfferWithClaim | undefined;
  if (!row) throw offerNotFound();
  return row;
}

/** One owned offer with its commercial state. */
export async function getOffer({
  ctx,
  actor,
  input,
}: {
  ctx: OfferContext;
  actor: SessionActor;
  input: { offerId: string };
}) {
  const [record] = await withCommercialState(ctx, actor, [await findOwnedOffer(ctx, actor, input.offerId)]);
  return record!;
}

/** Every offer of the account's claims (or of one of them), newest first; another account's claim lists nothing. */
export async function listOffers({
  ctx,
  actor,
  input,
}: {
  ctx: OfferContext;
  actor: SessionActor;
  input: { claimId?: string | undefined };
}) {
  const where = input.claimId === undefined ? sql`true` : sql`o.claim_id = ${input.claimId}`;
  const result = await ctx.db.execute(selectOwnedOffers(actor.accountId, where));
  return { offers: await withCommercialState(ctx, actor, result.rows as unknown as OfferWithClaim[]) };
}

/**
 * Creates a draft (version 1) on an owned, verified claim, unless the claim already holds
 * OFFER_INVENTORY_CAP_PER_CLAIM offers (409). The cap is counted under a per-claim advisory lock
 * in the same transaction, so racing creations cannot overshoot it.
 */
export async function createOffer({
  ctx,
  actor,
  input,
}: {
  ctx: OfferContext;
  actor: SessionActor;
  input: OfferInput & { claim_id: string };
}) {
  const claim = await findOwnedClaim(ctx, actor, input.claim_id);
  if (claim.status !== "verified") throw claimNotVerified();
  assertActionUrlOnDomain(input.action_url, claim.domain);
  assertPriceCoherent(input);
  const offerId = crypto.randomUUID();
  const hash = await termsHash(offerId, claim, input);
  const now = ctx.now.toISOString();
  const [, inserted = []] = await sqlBatchRunner(ctx.db)([
    sql`select pg_advisory_xact_lock(hashtextextended(${`provider_offers:${claim.id}`}, 0))`,
    sql`with changed as (
      insert into provider_offers (id, claim_id, status, version, ${TERMS_COLUMNS}, created_at, updated_at)
      select ${offerId}, c.id, 'draft', 1, ${termsValues(input, hash)}, ${now}, ${now}
      from provider_claims c
      where c.id = ${claim.id} and c.account_id = ${actor.accountId} and c.status = 'verified'
        and (select count(*) from provider_offers where claim_id = ${claim.id}) < ${OFFER_INVENTORY_CAP_PER_CLAIM}
      returning *
    )${appendVersion}`,
  ]);
  const row = inserted[0] as OfferRow | undefined;
  if (!row) {
    const current = await findOwnedClaim(ctx, actor, input.claim_id);
    if (current.status !== "verified") throw claimNotVerified();
    throw new DomainError(
      "conflict",
      "OFFER_LIMIT_REACHED",
      `A claim holds at most ${OFFER_INVENTORY_CAP_PER_CLAIM} offers, whatever their status.`,
      { offer_inventory_cap: OFFER_INVENTORY_CAP_PER_CLAIM },
    );
  }
  return getOffer({ ctx, actor, input: { offerId: row.id } });
}

/**
 * Replaces a draft's terms with the request's, as its next version (a new terms hash when the
 * commercial terms changed). Only drafts of verified claims change; an update racing another one
 * answers 409 rather than silently overwrite it.
 */
export async function updateOffer({
  ctx,
  actor,
  input,
}: {
  ctx: OfferContext;
  actor: SessionActor;
  input: OfferInput & { offerId: string };
}) {
  const offer = await findOwnedOffer(ctx, actor, input.offerId);
  if (input.claim_id !== undefined && input.claim_id !== offer.claim_id) {
    throw new DomainError("invalid", "VALIDATION_FAILED", "claim_id cannot change: an offer stays with its claim.", {
      errors: [{ location: "body", field: "claim_id", message: "must be the offer's own claim (or left out)" }],
    });
  }
  if (offer.status !== "draft" || offer.revoked_at !== null) {
    throw new DomainError("conflict", "OFFER_NOT_DRAFT", `Only drafts are updatable; this offer is ${offer.status}.`);
  }
  if (offer.claim_status !== "verified") throw claimNotVerified();
  assertActionUrlOnDomain(input.action_url, offer.claim_domain);
  assertPriceCoherent(input);
  const hash = await termsHash(offer.id, { id: offer.claim_id, domain: offer.claim_domain }, input);
  const result = await ctx.db.execute(sql`
    with changed as (
      update provider_offers o set (${TERMS_COLUMNS}) = (${termsValues(input, hash)}),
        version = o.version + 1, updated_at = ${ctx.now.toISOString()}
      from provider_claims c
      where o.id = ${offer.id} and o.version = ${Number(offer.version)} and o.status = 'draft' and o.revoked_at is null
        and c.id = o.claim_id and c.account_id = ${actor.accountId} and c.status = 'verified'
      returning o.*
    )${appendVersion}`);
  if (result.rows.length === 0) {
    throw new DomainError(
      "conflict",
      "OFFER_CHANGED",
      "The offer changed while this update was made (another update, an activation or a revocation); read it again.",
    );
  }
  return getOffer({ ctx, actor, input: { offerId: offer.id } });
}

/** Pauses an active offer at once (it leaves search results); pausing a paused offer changes nothing. */
export async function pauseOffer({
  ctx,
  actor,
  input,
}: {
  ctx: OfferContext;
  actor: SessionActor;
  input: { offerId: string };
}) {
  const now = ctx.now.toISOString();
  const result = await ctx.db.execute(sql`
    update provider_offers o set status = 'paused', paused_at = ${now}, updated_at = ${now}
    from provider_claims c
    where o.id = ${input.offerId} and o.status = 'active' and c.id = o.claim_id and c.account_id = ${actor.accountId}
    returning o.id`);
  if (result.rows.length === 0) {
    const offer = await findOwnedOffer(ctx, actor, input.offerId);
    if (offer.status !== "paused") {
      throw new DomainError(
        "conflict",
        "OFFER_NOT_ACTIVE",
        `Only an active offer can be paused; this offer is ${offer.status}.`,
      );
    }
  }
  return getOffer({ ctx, actor, input });
}
