/**
 * GET /provider/pilot-status: where the key's claim stands, its offers with their commercial
 * evidence, and the handoffs observed for them. Everything is read in one read-only,
 * repeatable-read transaction, whose start is `as_of`: the parts cannot disagree. Nothing the
 * interface excludes is read: no credentials, attribution material, receipts, intent, queries,
 * identities or action URLs.
 */
import { sql } from "drizzle-orm";
import { type Database, readOnlySnapshot } from "../../adapters/db.ts";
import type { ProviderKeyActor } from "../actor.ts";
import { DomainError } from "../errors.ts";
import { type AcceptanceEvidence, commercialState, evidenceByOffer } from "../offers/commercial-state.ts";
import { acceptanceEvidenceQuery } from "../offers/manage-offers.ts";
import { COMMERCIAL_TERMS_CONTRACT_VERSION } from "../offers/offer-constants.ts";
import type { OfferRow } from "../offers/offer-record.ts";
import { type ClaimRow, isVerifiedAndFresh } from "./claim-record.ts";
import { pilotRecentEvent, type RecentHandoffRow, recentObservedHandoffsQuery } from "./pilot-recent-handoffs.ts";

export const PILOT_STATUS_EVIDENCE_SCOPE =
  "authenticated_claim_only: this claim's verification state, its offers and their commercial evidence, and handoffs observed for them; provider assertions are not independently audited";

export const PILOT_STATUS_DEFAULT_LIMIT = 25;

const iso = (value: string | Date) => new Date(value).toISOString();

/** The spec's Pilot offer status of one offer. */
function pilotOfferStatus(offer: OfferRow, evidence: AcceptanceEvidence[], now: Date) {
  const state = commercialState(offer, evidence, true, now);
  return {
    offer_id: offer.id,
    status: offer.status,
    version: Number(offer.version),
    name: offer.name,
    action_type: offer.action_type,
    charge_event: offer.charge_event,
    bounty_cents: Number(offer.bounty_cents),
    currency: "usd" as const,
    billing_mode: offer.billing_mode as "terms",
    ...(offer.terms_credit_limit_cents !== null
      ? { terms_credit_limit_cents: Number(offer.terms_credit_limit_cents) }
      : {}),
    ...(offer.terms_period_days !== null ? { terms_period_days: Number(offer.terms_period_days) } : {}),
    commercial_terms_contract_version: COMMERCIAL_TERMS_CONTRACT_VERSION,
    commercial_terms_sha256: offer.commercial_terms_sha256,
    provider_mor_acknowledgement_required: true as const,
    ...state,
  };
}

interface CompanyRow {
  id: string;
  provider_accepted_at: string | Date;
  owner_verified_at: string | Date | null;
}

/** The company acceptance shown: the newest owner-verified one, else the newest. */
function companyFields(rows: CompanyRow[]) {
  const shown = rows.find((row) => row.owner_verified_at !== null) ?? rows[0];
  if (!shown) return { company_owner_verified: false };
  return {
    company_owner_verified: shown.owner_verified_at !== null,
    company_acceptance_id: shown.id,
    company_accepted_at: iso(shown.provider_accepted_at),
    ...(shown.owner_verified_at !== null ? { company_owner_verified_at: iso(shown.owner_verified_at) } : {}),
  };
}

/** The pilot status wrapper of the key's claim; `limit` caps each collection (1 to 100). */
export async function readPilotStatus({
  ctx,
  actor,
  input = { limit: PILOT_STATUS_DEFAULT_LIMIT },
}: {
  ctx: { db: Database; now: Date };
  /** Only the claim is read: a key's actor, or the owner's claim on the console (owner-pilot-status.ts). */
  actor: Pick<ProviderKeyActor, "claimId">;
  input?: { limit: number };
}) {
  const claimId = actor.claimId;
  const handoffs = recentObservedHandoffsQuery(claimId, input.limit);
  const [claims = [], offers = [], evidence = [], company = [], recent = []] = await readOnlySnapshot(ctx.db, [
    sql`select c.*, now() as as_of from provider_claims c where c.id = ${claimId}`,
    sql`select * from provider_offers where claim_id = ${claimId} order by created_at desc, id limit ${input.limit}`,
    acceptanceEvidenceQuery(sql`select id from provider_offers where claim_id = ${claimId}`),
    sql`select e.id, e.provider_accepted_at, v.verified_at as owner_verified_at
      from commercial_acceptance_events e left join acceptance_owner_verifications v on v.acceptance_id = e.id
      where e.provider_claim_id = ${claimId} and e.event_type = 'pilot_company'
      order by e.provider_accepted_at desc, e.id desc`,
    ...(handoffs ? [handoffs] : []),
  ]);
  const row = claims[0] as (ClaimRow & { as_of: string | Date }) | undefined;
  // The key passed its check a moment ago; a claim revoked or gone stale since is unavailable.
  if (!row || !isVerifiedAndFresh(row, ctx.now)) {
    throw new DomainError("not_found", "CLAIM_NOT_FRESH", "The claim of this key is no longer verified and fresh.");
  }
  const byOffer = evidenceByOffer(evidence as unknown as AcceptanceEvidence[]);
  return {
    pilot_status: {
      as_of: iso(row.as_of),
      provider_claim_id: row.id,
      domain: row.domain,
      claim_status: "verified" as const,
      verification_last_succeeded_at: iso(row.verification_last_succeeded_at as string | Date),
      verification_consecutive_failures: Number(row.verification_consecutive_failures),
      ...(row.verification_next_check_at ? { verification_next_check_at: iso(row.verification_next_check_at) } : {}),
      ...companyFields(company as unknown as CompanyRow[]),
      offers: (offers as unknown as OfferRow[]).map((offer) =>
        pilotOfferStatus(offer, byOffer.get(offer.id) ?? [], ctx.now),
      ),
      recent_observed_handoffs: (recent as unknown as RecentHandoffRow[]).slice(0, input.limit).map(pilotRecentEvent),
    },
    evidence_scope: PILOT_STATUS_EVIDENCE_SCOPE,
  };
}
