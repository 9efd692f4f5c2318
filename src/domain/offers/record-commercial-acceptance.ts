/**
 * POST /provider/commercial-acceptances: a provider-key-authenticated, append-only acceptance
 * event (pilot_company, terms_acceptance, terms_renewal). It is neither the owner's verification
 * nor commercial proof: activation still needs an operator to verify it.
 *
 * Idempotency: the Idempotency-Key is scoped to the claim. The unique (claim, key) with the stored
 * request fingerprint is the guard: the same key with the same body answers the stored acceptance
 * again (200, idempotent_replay true), with another body 409. The write is one INSERT … SELECT
 * whose conditions re-check the claim's freshness, the offer's current version and hash, and the
 * renewal chain, so nothing stale is written even when the offer changes mid-request.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import type { ProviderKeyActor } from "../actor.ts";
import { PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS } from "../claims/claim-constants.ts";
import { DomainError } from "../errors.ts";
import { canonicalSha256 } from "./commercial-terms.ts";
import {
  type AcceptanceEventType,
  COMMERCIAL_TERMS_CONTRACT_VERSION,
  DEFAULT_TERMS_PERIOD_DAYS,
} from "./offer-constants.ts";

export const ACCEPTANCE_EVIDENCE_SCOPE =
  "provider_authenticated_acceptance_only: recorded with this claim's provider key; not owner verification and not commercial proof; an operator verifies it with the owner before any activation";

/** The three exact request shapes (after schema validation). */
export type AcceptanceRequest =
  | { event_type: "pilot_company"; provider_acceptance_reference: string }
  | {
      event_type: "terms_acceptance";
      offer_id: string;
      offer_version: number;
      exact_terms_sha256: string;
      provider_acceptance_reference: string;
    }
  | {
      event_type: "terms_renewal";
      offer_id: string;
      related_acceptance_event_id: string;
      offer_version: number;
      exact_terms_sha256: string;
      provider_acceptance_reference: string;
    };

/** The Commercial acceptance event record. */
export interface AcceptanceRecord {
  id: string;
  provider_claim_id: string;
  provider_api_key_id: number;
  event_type: AcceptanceEventType;
  provider_acceptance_reference: string;
  provider_accepted_at: string;
  created_at: string;
  provider_offer_id?: string;
  related_acceptance_event_id?: string;
  offer_version?: number;
  terms_contract_version?: typeof COMMERCIAL_TERMS_CONTRACT_VERSION;
  exact_terms_sha256?: string;
  valid_until?: string;
}

export interface AcceptanceResponse {
  acceptance: AcceptanceRecord;
  created: boolean;
  idempotent_replay: boolean;
  provider_authenticated: true;
  owner_verification_required: true;
  commercial_proof_created: false;
  evidence_scope: string;
}

const response = (acceptance: AcceptanceRecord, created: boolean): AcceptanceResponse => ({
  acceptance,
  created,
  idempotent_replay: !created,
  provider_authenticated: true,
  owner_verification_required: true,
  commercial_proof_created: false,
  evidence_scope: ACCEPTANCE_EVIDENCE_SCOPE,
});

const offerMismatch = () =>
  new DomainError(
    "conflict",
    "OFFER_MISMATCH",
    "offer_id, offer_version and exact_terms_sha256 must name this claim's offer at its current version and terms hash (a draft or active offer).",
  );
const staleClaim = () =>
  new DomainError(
    "conflict",
    "CLAIM_NOT_FRESH",
    "The claim of this key is no longer verified and fresh: its DNS ownership proof must pass again.",
  );

interface StoredEvent {
  request_sha256: string;
  response_acceptance: AcceptanceRecord;
}

async function findByKey(db: Database, claimId: string, key: string): Promise<StoredEvent | undefined> {
  const result = await db.execute(sql`
    select request_sha256, response_acceptance from commercial_acceptance_events
    where provider_claim_id = ${claimId} and idempotency_key = ${key}`);
  return result.rows[0] as StoredEvent | undefined;
}

function replayOrConflict(stored: StoredEvent, requestSha256: string): { status: 200; body: AcceptanceResponse } {
  if (stored.request_sha256 !== requestSha256) {
    throw new DomainError(
      "conflict",
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was already used by this claim with another request body; use a new key for a new acceptance.",
    );
  }
  return { status: 200, body: response(stored.response_acceptance, false) };
}

const freshClaim = (claimId: string, now: string) => sql`
  exists (select 1 from provider_claims c where c.id = ${claimId} and c.status = 'verified'
    and c.verification_last_succeeded_at > ${now}::timestamptz
      - make_interval(secs => ${PAID_ACTIONS_STOP_WHEN_LAST_SUCCESS_AGE_REACHES_SECONDS}))`;

const currentOffer = (
  claimId: string,
  input: { offer_id: string; offer_version: number; exact_terms_sha256: string },
) => sql`
  exists (select 1 from provider_offers o where o.id = ${input.offer_id} and o.claim_id = ${claimId}
    and o.version = ${input.offer_version} and o.commercial_terms_sha256 = ${input.exact_terms_sha256}
    and o.status in ('draft', 'active') and o.revoked_at is null)`;

const renewalChain = (
  claimId: string,
  input: { offer_id: string; related_acceptance_event_id: string; exact_terms_sha256: string },
) => sql`
  exists (select 1 from commercial_acceptance_events r where r.id = ${input.related_acceptance_event_id}
    and r.provider_claim_id = ${claimId} and r.provider_offer_id = ${input.offer_id}
    and r.event_type in ('terms_acceptance', 'terms_renewal') and r.exact_terms_sha256 = ${input.exact_terms_sha256})`;

/** The terms period of the offer the request names, if it is this claim's current offer. */
async function termsPeriodOf(db: Database, claimId: string, input: Extract<AcceptanceRequest, { offer_id: string }>) {
  const result = await db.execute(sql`
    select terms_period_days from provider_offers o where ${currentOffer(claimId, input)} and o.id = ${input.offer_id}`);
  const row = result.rows[0] as { terms_period_days: number | string | null } | undefined;
  if (!row) throw offerMismatch();
  return row.terms_period_days === null ? DEFAULT_TERMS_PERIOD_DAYS : Number(row.terms_period_days);
}

/** Records one acceptance, or answers the stored one again; 201 when new, 200 for a replay. */
export async function recordCommercialAcceptance({
  ctx,
  actor,
  input,
}: {
  ctx: { db: Database; now: Date };
  actor: ProviderKeyActor;
  input: { idempotencyKey: string; request: AcceptanceRequest };
}): Promise<{ status: 200 | 201; body: AcceptanceResponse }> {
  const { request, idempotencyKey } = input;
  const requestSha256 = await canonicalSha256(request);
  const earlier = await findByKey(ctx.db, actor.claimId, idempotencyKey);
  if (earlier) return replayOrConflict(earlier, requestSha256);

  const now = ctx.now.toISOString();
  const acceptance: AcceptanceRecord = {
    id: crypto.randomUUID(),
    provider_claim_id: actor.claimId,
    provider_api_key_id: Number(actor.keyId),
    event_type: request.event_type,
    provider_acceptance_reference: request.provider_acceptance_reference,
    provider_accepted_at: now,
    created_at: now,
  };
  const conditions: SQL[] = [freshClaim(actor.claimId, now)];
  if (request.event_type !== "pilot_company") {
    const periodDays = await termsPeriodOf(ctx.db, actor.claimId, request);
    if (request.event_type === "terms_renewal") {
      const chain = await ctx.db.execute(sql`select 1 where ${renewalChain(actor.claimId, request)}`);
      if (chain.rows.length === 0) {
        throw new DomainError(
          "conflict",
          "RENEWAL_CHAIN_INVALID",
          "related_acceptance_event_id must name an earlier terms_acceptance or terms_renewal of this claim for the same offer and the same exact terms hash.",
        );
      }
      acceptance.related_acceptance_event_id = request.related_acceptance_event_id;
      conditions.push(renewalChain(actor.claimId, request));
    }
    acceptance.provider_offer_id = request.offer_id;
    acceptance.offer_version = request.offer_version;
    acceptance.terms_contract_version = COMMERCIAL_TERMS_CONTRACT_VERSION;
    acceptance.exact_terms_sha256 = request.exact_terms_sha256;
    acceptance.valid_until = new Date(ctx.now.getTime() + periodDays * 86_400_000).toISOString();
    conditions.push(currentOffer(actor.claimId, request));
  }

  const inserted = await ctx.db.execute(sql`
    insert into commercial_acceptance_events (id, provider_claim_id, provider_api_key_id, event_type,
      provider_acceptance_reference, provider_accepted_at, provider_offer_id, related_acceptance_event_id,
      offer_version, terms_contract_version, exact_terms_sha256, valid_until, idempotency_key, request_sha256,
      response_acceptance, created_at)
    select ${acceptance.id}::uuid, ${actor.claimId}::uuid, ${actor.keyId}::bigint, ${acceptance.event_type},
      ${acceptance.provider_acceptance_reference}, ${now}::timestamptz, ${acceptance.provider_offer_id ?? null}::uuid,
      ${acceptance.related_acceptance_event_id ?? null}::uuid, ${acceptance.offer_version ?? null}::integer,
      ${acceptance.terms_contract_version ?? null}::text, ${acceptance.exact_terms_sha256 ?? null}::text,
      ${acceptance.valid_until ?? null}::timestamptz, ${idempotencyKey}, ${requestSha256},
      ${JSON.stringify(acceptance)}::jsonb, ${now}::timestamptz
    where ${sql.join(conditions, sql` and `)}
    on conflict (provider_claim_id, idempotency_key) do nothing
    returning id`);
  if (inserted.rows.length > 0) return { status: 201, body: response(acceptance, true) };

  // Nothing written: a racing request with the same key won, or a condition stopped holding.
  const winner = await findByKey(ctx.db, actor.claimId, idempotencyKey);
  if (winner) return replayOrConflict(winner, requestSha256);
  const fresh = await ctx.db.execute(sql`select 1 where ${freshClaim(actor.claimId, now)}`);
  if (fresh.rows.length === 0) throw staleClaim();
  throw offerMismatch();
}
