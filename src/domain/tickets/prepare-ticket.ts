/**
 * POST /action-tickets (svc-action-ticket-preparation-v2): prepares one action on an offer that a
 * committed, live, non-synthetic search receipt disclosed beside its organic results, under the
 * principal-consent v1 attestation and a controlled intent. It returns the signed attribution
 * bearer and the handoff endpoint, never the provider's action URL, and charges nobody.
 */
import { sql } from "drizzle-orm";
import { sqlBatchRunner } from "../../adapters/db.ts";
import { DomainError } from "../errors.ts";
import {
  ATTRIBUTION_URL_PARAMETER,
  CONTROLLED_INTENT_RETENTION_DAYS,
  HANDOFF_CONSENT_VERSION,
  INTENT_DISCLOSURE_CONSENT_VERSION,
  PRINCIPAL_CONSENT_VERSION,
  TICKET_PREPARATION_CONTRACT_VERSION,
} from "./ticket-constants.ts";
import { bearerOf, controlledIntentOf, iso, type TicketContext } from "./ticket-context.ts";
import { effectiveStatus, hasFundedCapacity, OPEN_STATUSES } from "./ticket-machine.ts";
import {
  authorizationLive,
  chargeStatusOf,
  claimFresh,
  evidenceValidUntil,
  INTENT_COLUMNS,
  offerActive,
  type TicketIntentRow,
  type TicketRow,
} from "./ticket-sql.ts";

export interface TicketIntentInput {
  topic: string;
  region_code?: string | undefined;
  budget_band?: string | undefined;
  urgency?: string | undefined;
  requirement_flags: string[];
}

export interface PrepareTicketInput {
  searchId: string;
  offerId: string;
  intent: TicketIntentInput;
  /** SHA-256 of the RFC 8785 canonical JSON of the request: an exact replay has the same one. */
  requestSha256: string;
}

/** Every 409 of tickets and handoffs says so: nobody was charged. */
const notCharged = { principal_charged: false, provider_charged: false };

const sourceUnavailable = () =>
  new DomainError(
    "not_found",
    "TICKET_SOURCE_UNAVAILABLE",
    "No live, non-synthetic search receipt disclosed this offer beside its organic results.",
  );

const REFUSALS = {
  claim: () =>
    new DomainError(
      "conflict",
      "PROVIDER_CLAIM_UNAVAILABLE",
      "The provider's claim of this domain is no longer verified and fresh.",
      notCharged,
    ),
  authorization: () =>
    new DomainError(
      "conflict",
      "AUTHORIZATION_UNAVAILABLE",
      "This offer is no longer active at the version that was disclosed.",
      notCharged,
    ),
  evidence: () =>
    new DomainError(
      "conflict",
      "COMMERCIAL_EVIDENCE_UNAVAILABLE",
      "The offer's exact terms carry no current, owner-verified provider acceptance.",
      notCharged,
    ),
  capacity: () =>
    new DomainError(
      "conflict",
      "FUNDED_CAPACITY_UNAVAILABLE",
      "The offer's credit limit for its terms period is taken by what is charged and what open tickets could still charge.",
      notCharged,
    ),
};

interface EvidenceRow {
  claim_id: string;
  domain: string;
  offer_version: number | string;
  commercial_terms_sha256: string;
  charge_event: string;
  bounty_cents: number | string;
  terms_credit_limit_cents: number | string | null;
  terms_period_days: number | string | null;
  search_expires_at: string | Date;
  claim_fresh: boolean;
  offer_authorized: boolean;
  evidence_valid_until: string | Date | null;
  held_cents: number | string;
}

/** The disclosure of the offer to this live, real receipt, with everything a ticket must satisfy. */
function evidenceQuery(input: PrepareTicketInput, now: string) {
  return sql`
    select o.claim_id, d.domain, d.offer_version, d.commercial_terms_sha256, o.charge_event, o.bounty_cents,
      o.terms_credit_limit_cents, o.terms_period_days, r.expires_at as search_expires_at,
      ${claimFresh(sql`o.claim_id`, now)} as claim_fresh,
      (${offerActive(sql`o.id`, sql`d.offer_version`)} and o.commercial_terms_sha256 = d.commercial_terms_sha256) as offer_authorized,
      ${evidenceValidUntil("o", now)} as evidence_valid_until,
      (select coalesce(sum(case
          when held.charge_status = 'charged' then tt.bounty_cents
          when held.charge_status = 'credited' then 0
          when tt.status in ('created', 'redirected', 'accepted', 'activated') and tt.expires_at > ${now}::timestamptz
            then tt.bounty_cents
          else 0 end), 0)
        from action_tickets tt cross join lateral (select ${chargeStatusOf("tt")} as charge_status) held
        where tt.offer_id = o.id
          and tt.created_at > ${now}::timestamptz - make_interval(days => coalesce(o.terms_period_days, 0))) as held_cents
    from search_offer_disclosures d
    join search_receipts r on r.search_id = d.search_id and r.expires_at = d.expires_at
      and r.expires_at > ${now}::timestamptz and not r.synthetic
    join provider_offers o on o.id = d.offer_id
    where d.search_id = ${input.searchId} and d.offer_id = ${input.offerId}`;
}

function refusalOf(row: EvidenceRow): DomainError | null {
  if (!row.claim_fresh) return REFUSALS.claim();
  if (!row.offer_authorized) return REFUSALS.authorization();
  if (row.evidence_valid_until === null) return REFUSALS.evidence();
  const funded = hasFundedCapacity({
    limitCents: row.terms_credit_limit_cents === null ? null : Number(row.terms_credit_limit_cents),
    periodDays: row.terms_period_days === null ? null : Number(row.terms_period_days),
    heldCents: Number(row.held_cents),
    bountyCents: Number(row.bounty_cents),
  });
  return funded ? null : REFUSALS.capacity();
}

/** The preparation response: the bearer and where to hand off; never the provider's action URL. */
async function ticketBody(ctx: TicketContext, row: TicketRow & TicketIntentRow, live: boolean, replay: boolean) {
  const { signing } = ctx;
  return {
    ticket_id: row.id,
    contract_version: TICKET_PREPARATION_CONTRACT_VERSION,
    ticket_status: effectiveStatus({
      stored: row.status,
      expiresAt: new Date(row.expires_at),
      now: ctx.now,
      authorizationLive: live,
    }),
    search_id: row.search_id,
    offer_id: row.offer_id,
    offer_version: Number(row.offer_version),
    commercial_terms_sha256: row.commercial_terms_sha256,
    provider_domain: row.domain,
    charge_event: row.charge_event,
    bounty_cents: Number(row.bounty_cents),
    currency: "usd" as const,
    consent_version: PRINCIPAL_CONSENT_VERSION,
    controlled_intent: controlledIntentOf(row),
    attribution_bearer: await bearerOf(signing, row),
    attribution_url_parameter: ATTRIBUTION_URL_PARAMETER,
    created_at: iso(row.created_at),
    expires_at: iso(row.expires_at),
    handoff_endpoint: `${ctx.origin}/api/v1/action-tickets/handoff`,
    handoff_method: "POST" as const,
    handoff_consent_version: HANDOFF_CONSENT_VERSION,
    controlled_intent_disclosure_consent_version: INTENT_DISCLOSURE_CONSENT_VERSION,
    controlled_intent_disclosure_default: false as const,
    principal_charged: false as const,
    provider_charged: false as const,
    idempotent_replay: replay,
  };
}

export type PreparedTicket = Awaited<ReturnType<typeof ticketBody>>;

async function findTicket(ctx: TicketContext, input: PrepareTicketInput, now: string) {
  const result = await ctx.db.execute(sql`
    select t.*, ${INTENT_COLUMNS}, ${authorizationLive("t", now)} as authorization_live
    from action_tickets t left join action_ticket_intents i on i.ticket_id = t.id
    where t.search_id = ${input.searchId} and t.offer_id = ${input.offerId}`);
  return result.rows[0] as (TicketRow & Nullable<TicketIntentRow> & { authorization_live: boolean }) | undefined;
}

/** An earlier ticket of this search and offer: its exact replay, or why it cannot be replayed. */
async function replay(
  ctx: TicketContext,
  input: PrepareTicketInput,
  row: TicketRow & Nullable<TicketIntentRow> & { authorization_live: boolean },
) {
  if (row.request_sha256 !== input.requestSha256) {
    throw new DomainError(
      "conflict",
      "TICKET_CONFLICT",
      "This search already prepared a different ticket for this offer.",
      notCharged,
    );
  }
  // A ticket expires no later than its intent (the bearer lives at most the intent's 30 days), so a
  // purged intent only ever belongs to an expired ticket: both answer 410.
  if (ctx.now.getTime() >= new Date(row.expires_at).getTime() || !hasIntent(row)) {
    throw new DomainError("gone", "TICKET_AUTHORIZATION_EXPIRED", "This ticket's authorization has expired.", {
      ...notCharged,
      expired_at: iso(row.expires_at),
    });
  }
  if (row.status === "revoked" || (OPEN_STATUSES.includes(row.status) && !row.authorization_live)) {
    throw new DomainError("conflict", "AUTHORIZATION_REVOKED", "This ticket's authorization was revoked.", notCharged);
  }
  return { created: false, ticket: await ticketBody(ctx, row, row.authorization_live, true) };
}

type Nullable<T> = { [K in keyof T]: T[K] | null };

function hasIntent<T extends Nullable<TicketIntentRow>>(row: T): row is T & TicketIntentRow {
  return row.intent_topic !== null && row.intent_requirement_flags !== null;
}

/** Prepares the ticket; `created` is false for an exact replay (its bearer rebuilt from the snapshot). */
export async function prepareTicket({
  ctx,
  input,
}: {
  ctx: TicketContext;
  input: PrepareTicketInput;
}): Promise<{ created: boolean; ticket: PreparedTicket }> {
  const { signing } = ctx;
  const now = ctx.now.toISOString();
  const existing = await findTicket(ctx, input, now);
  if (existing) return replay(ctx, input, existing);

  const [evidence] = (await ctx.db.execute(evidenceQuery(input, now))).rows as unknown as EvidenceRow[];
  if (!evidence) throw sourceUnavailable();
  const refusal = refusalOf(evidence);
  if (refusal) throw refusal;

  const intent = input.intent;
  const ttl = signing.attributionTtlSeconds;
  // One transaction: the offer's capacity lock first, so that the insert's own capacity check (a
  // fresh snapshot, after the lock) sees every ticket an earlier holder committed; then the insert,
  // which repeats every condition and lets the unique (search, offer) settle identical races. The
  // ticket's controlled intent goes into its own table (kept 30 days) in the same statement.
  const [, inserted = []] = await sqlBatchRunner(ctx.db)([
    sql`select pg_advisory_xact_lock(hashtextextended(${`action-ticket-capacity:${input.offerId}`}, 0))`,
    sql`
      with ticket as (
        insert into action_tickets (search_id, claim_id, offer_id, offer_version, commercial_terms_sha256, domain,
          charge_event, bounty_cents, contract_version, consent_version, request_sha256, status, status_changed_at,
          created_at, expires_at)
        select ${input.searchId}, e.claim_id, ${input.offerId}, e.offer_version, e.commercial_terms_sha256, e.domain,
          e.charge_event, e.bounty_cents, ${TICKET_PREPARATION_CONTRACT_VERSION}, ${PRINCIPAL_CONSENT_VERSION},
          ${input.requestSha256}, 'created', ${now}::timestamptz, ${now}::timestamptz,
          least(${now}::timestamptz + make_interval(secs => ${ttl}), e.search_expires_at, e.evidence_valid_until)
        from (${evidenceQuery(input, now)}) e
        where e.claim_fresh and e.offer_authorized and e.evidence_valid_until is not null
          and e.terms_credit_limit_cents is not null and e.terms_period_days is not null
          and e.held_cents + e.bounty_cents <= e.terms_credit_limit_cents
        on conflict on constraint action_tickets_one_per_search_offer do nothing
        returning *
      ), i as (
        insert into action_ticket_intents (ticket_id, intent_topic, intent_region_code, intent_budget_band,
          intent_urgency, intent_requirement_flags, created_at, expires_at)
        select ticket.id, ${intent.topic}, ${intent.region_code ?? null}, ${intent.budget_band ?? null},
          ${intent.urgency ?? null}, ${`{${intent.requirement_flags.join(",")}}`}::text[], ticket.created_at,
          ticket.created_at + make_interval(days => ${CONTROLLED_INTENT_RETENTION_DAYS})
        from ticket
        returning *
      )
      select ticket.*, ${INTENT_COLUMNS} from ticket join i on i.ticket_id = ticket.id`,
  ]);
  const row = inserted[0] as unknown as (TicketRow & TicketIntentRow) | undefined;
  if (row) return { created: true, ticket: await ticketBody(ctx, row, true, false) };

  // Nothing written: an identical request won the race (replay it), or the state moved on.
  const raced = await findTicket(ctx, input, now);
  if (raced) return replay(ctx, input, raced);
  const [again] = (await ctx.db.execute(evidenceQuery(input, now))).rows as unknown as EvidenceRow[];
  if (!again) throw sourceUnavailable();
  throw refusalOf(again) ?? REFUSALS.capacity();
}
