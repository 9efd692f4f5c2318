/**
 * Offer rows as raw SQL returns them, and the records built from them: the owner's record (every
 * term, the action URL and the commercial state), and the public record shown beside organic
 * results (what the principal must know: who pays what for which outcome; never the action URL,
 * the provider's credit limit or anything about the account).
 */
import {
  type ChargeEvent,
  COMMERCIAL_TERMS_CONTRACT_VERSION,
  type OfferActionType,
  type OfferStatus,
  type PrincipalPriceMode,
} from "./offer-constants.ts";

/** A provider_offers row (snake case; timestamps as text or Date; int64 amounts may be text). */
export interface OfferRow {
  id: string;
  claim_id: string;
  status: OfferStatus;
  version: number | string;
  name: string;
  summary: string;
  action_type: OfferActionType;
  action_url: string;
  charge_event: ChargeEvent;
  bounty_cents: number | string;
  currency: string;
  principal_price_mode: PrincipalPriceMode;
  principal_price_cents: number | string | null;
  principal_currency: string;
  billing_mode: string;
  terms_credit_limit_cents: number | string | null;
  terms_period_days: number | string | null;
  commercial_terms_sha256: string;
  created_at: string | Date;
  updated_at: string | Date;
  activated_at: string | Date | null;
  paused_at: string | Date | null;
  revoked_at: string | Date | null;
}

const iso = (value: string | Date) => new Date(value).toISOString();
const isoOrNull = (value: string | Date | null) => (value === null ? null : iso(value));
/** An optional member: present with its value, or absent (never null) as in the request. */
const optional = <K extends string, V>(key: K, value: V | null | undefined) =>
  (value === null || value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;
const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

/** The terms every record shows, as the offer request names them. */
function termsOf(row: OfferRow) {
  return {
    action_type: row.action_type,
    charge_event: row.charge_event,
    bounty_cents: Number(row.bounty_cents),
    currency: row.currency as "usd",
    principal_price_mode: row.principal_price_mode,
    ...optional("principal_price_cents", numberOrNull(row.principal_price_cents)),
    principal_currency: row.principal_currency as "usd",
    billing_mode: row.billing_mode as "terms",
  };
}

/** The owner's view of an offer (session endpoints). */
export function ownerOfferRecord(row: OfferRow, domain: string) {
  return {
    id: row.id,
    claim_id: row.claim_id,
    domain,
    status: row.status,
    version: Number(row.version),
    name: row.name,
    summary: row.summary,
    action_url: row.action_url,
    ...termsOf(row),
    ...optional("terms_credit_limit_cents", numberOrNull(row.terms_credit_limit_cents)),
    ...optional("terms_period_days", numberOrNull(row.terms_period_days)),
    commercial_terms_contract_version: COMMERCIAL_TERMS_CONTRACT_VERSION,
    commercial_terms_sha256: row.commercial_terms_sha256,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    activated_at: isoOrNull(row.activated_at),
    paused_at: isoOrNull(row.paused_at),
    revoked_at: isoOrNull(row.revoked_at),
  };
}

export type OwnerOfferRecord = ReturnType<typeof ownerOfferRecord>;

/** Says in words who pays whom for what, so no charge is hidden from the principal. */
export function chargeDisclosure(row: Pick<OfferRow, "bounty_cents" | "charge_event">, providerDomain: string) {
  return `${providerDomain} pays this service ${Number(row.bounty_cents)} USD cents when it reports, authenticated, that the action was ${row.charge_event}. Seeing this offer, preparing a ticket or handing off charges nobody; organic results, their order and scores are unaffected.`;
}

/**
 * The public provider offer (`paid_offers` items): the provider domain, the action, the bounty
 * and the outcome that triggers it, the principal's price, the exact offer version and terms hash.
 */
export function publicOfferRecord(row: OfferRow, providerDomain: string) {
  return {
    offer_id: row.id,
    offer_version: Number(row.version),
    provider_domain: providerDomain,
    name: row.name,
    summary: row.summary,
    ...termsOf(row),
    commercial_terms_contract_version: COMMERCIAL_TERMS_CONTRACT_VERSION,
    commercial_terms_sha256: row.commercial_terms_sha256,
    sponsored: true as const,
    charge_disclosure: chargeDisclosure(row, providerDomain),
    organic_rank_affected: false as const,
  };
}
