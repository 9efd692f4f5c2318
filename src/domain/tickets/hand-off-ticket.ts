/**
 * POST /action-tickets/handoff: the principal goes to the provider. One atomic statement moves
 * the ticket from created to redirected and records its append-only svc-action-handoff-v1
 * receipt (ticket, offer version, terms hash, consent versions; no query, identity, contact,
 * network address, referrer or user agent), then the attributed action URL is returned with the
 * bearer in it. Charges nobody.
 */
import { sql } from "drizzle-orm";
import { DomainError } from "../errors.ts";
import {
  ATTRIBUTION_URL_PARAMETER,
  HANDOFF_CONSENT_VERSION,
  HANDOFF_RECEIPT_CONTRACT_VERSION,
  INTENT_DISCLOSURE_CONSENT_VERSION,
} from "./ticket-constants.ts";
import { iso, type TicketContext } from "./ticket-context.ts";
import { decideHandoff, effectiveStatus, type TicketStatus } from "./ticket-machine.ts";
import { authorizationLive, evidenceValidUntil, type TicketRow } from "./ticket-sql.ts";

export interface HandOffInput {
  ticketId: string;
  bearer: string;
  /** Whether the principal also consented to controlled-intent disclosure (optional, off by default). */
  disclosureConsent: boolean;
}

interface HandoffRow {
  id: string;
  ticket_id: string;
  offer_id: string;
  offer_version: number | string;
  commercial_terms_sha256: string;
  intent_disclosure_consent_version: string | null;
  observed_at: string | Date;
}

const notCharged = { principal_charged: false, provider_charged: false };

const notFound = () =>
  new DomainError("not_found", "TICKET_NOT_FOUND", "No ticket matches this ticket id and attribution bearer.");
const expired = () =>
  new DomainError("gone", "ATTRIBUTION_EXPIRED", "This ticket's attribution has expired.", notCharged);

function handoffBody(
  row: HandoffRow,
  ticket: TicketRow & { action_url: string; provider_domain: string },
  status: TicketStatus,
  bearer: string,
  replay: boolean,
) {
  // The provider's URL has no query or fragment (an offer rule); the bearer is its only parameter.
  const url = new URL(ticket.action_url);
  url.searchParams.set(ATTRIBUTION_URL_PARAMETER, bearer);
  return {
    handoff_receipt_id: row.id,
    contract_version: HANDOFF_RECEIPT_CONTRACT_VERSION,
    ticket_id: row.ticket_id,
    ticket_status: status,
    offer_id: row.offer_id,
    offer_version: Number(row.offer_version),
    commercial_terms_sha256: row.commercial_terms_sha256,
    handoff_consent_version: HANDOFF_CONSENT_VERSION,
    controlled_intent_disclosure_consent_version: row.intent_disclosure_consent_version as
      | typeof INTENT_DISCLOSURE_CONSENT_VERSION
      | null,
    controlled_intent_disclosed: row.intent_disclosure_consent_version !== null,
    observed_at: iso(row.observed_at),
    provider_domain: ticket.provider_domain,
    provider_action_url: url.toString(),
    attribution_url_parameter: ATTRIBUTION_URL_PARAMETER,
    principal_charged: false as const,
    provider_charged: false as const,
    idempotent_replay: replay,
  };
}

export type HandoffResponse = ReturnType<typeof handoffBody>;

type LoadedTicket = TicketRow & {
  action_url: string;
  provider_domain: string;
  authorization_live: boolean;
  evidence_live: boolean;
  handoff: HandoffRow | null;
};

async function loadTicket(ctx: TicketContext, ticketId: string, now: string): Promise<LoadedTicket | undefined> {
  const result = await ctx.db.execute(sql`
    select t.*, v.action_url, t.domain as provider_domain, ${authorizationLive("t", now)} as authorization_live,
      exists (select 1 from provider_offers o where o.id = t.offer_id and ${evidenceValidUntil("o", now)} is not null)
        as evidence_live,
      (select row_to_json(h) from action_handoff_receipts h where h.ticket_id = t.id) as handoff
    from action_tickets t
    join provider_offer_versions v on v.offer_id = t.offer_id and v.version = t.offer_version
    where t.id = ${ticketId}`);
  return result.rows[0] as LoadedTicket | undefined;
}

/** Records the handoff and returns the attributed URL; `created` is false for an exact replay. */
export async function handOffTicket({
  ctx,
  input,
}: {
  ctx: TicketContext;
  input: HandOffInput;
}): Promise<{ created: boolean; handoff: HandoffResponse }> {
  const now = ctx.now.toISOString();
  const ticket = await bearersTicket(ctx, input, now);
  const disclosureVersion = input.disclosureConsent ? INTENT_DISCLOSURE_CONSENT_VERSION : null;
  const early = settle(ctx, ticket, input, disclosureVersion);
  if (early) return early;

  const row = await moveAndRecord(ctx, input.ticketId, disclosureVersion, now);
  if (row) return { created: true, handoff: handoffBody(row, ticket, "redirected", input.bearer, false) };

  // Nothing written: a concurrent handoff won (replay it) or the state moved on (say why).
  const reloaded = await loadTicket(ctx, input.ticketId, now);
  if (!reloaded) throw notFound();
  const settled = settle(ctx, reloaded, input, disclosureVersion);
  if (settled) return settled;
  throw new DomainError("conflict", "TICKET_NOT_ELIGIBLE", "This ticket cannot be handed off now.", notCharged);
}

/** The ticket the bearer names, for its exact offer version and terms (404 otherwise; 410 expired). */
async function bearersTicket(ctx: TicketContext, input: HandOffInput, now: string): Promise<LoadedTicket> {
  const verified = await ctx.signing.verifyBearer(input.bearer, ctx.now);
  if (verified.status === "invalid" || verified.claims.ticketId !== input.ticketId) throw notFound();
  const ticket = await loadTicket(ctx, input.ticketId, now);
  if (
    !ticket ||
    Number(ticket.offer_version) !== verified.claims.offerVersion ||
    ticket.commercial_terms_sha256 !== verified.claims.termsSha256 ||
    ticket.offer_id !== verified.claims.offerId
  ) {
    throw notFound();
  }
  if (verified.status === "expired") throw expired();
  return ticket;
}

/**
 * What the stored state already decides: the replay of an earlier handoff with the same consent,
 * or the refusal (expired, revoked, not eligible, no current commercial evidence); null when the
 * ticket may move now.
 */
function settle(
  ctx: TicketContext,
  loaded: LoadedTicket,
  input: HandOffInput,
  disclosureVersion: string | null,
): { created: false; handoff: HandoffResponse } | null {
  const status = effectiveStatus({
    stored: loaded.status,
    expiresAt: new Date(loaded.expires_at),
    now: ctx.now,
    authorizationLive: loaded.authorization_live,
  });
  if (status === "expired") throw expired();
  if (status === "revoked") {
    throw new DomainError("conflict", "AUTHORIZATION_REVOKED", "This ticket's authorization was revoked.", notCharged);
  }
  if (loaded.handoff) {
    if (loaded.handoff.intent_disclosure_consent_version !== disclosureVersion) {
      throw new DomainError(
        "conflict",
        "HANDOFF_CONFLICT",
        "This ticket was already handed off with a different controlled-intent disclosure consent.",
        notCharged,
      );
    }
    return { created: false, handoff: handoffBody(loaded.handoff, loaded, status, input.bearer, true) };
  }
  if (!decideHandoff(status).ok) {
    throw new DomainError(
      "conflict",
      "TICKET_NOT_ELIGIBLE",
      `This ticket is ${status}: it cannot be handed off.`,
      notCharged,
    );
  }
  if (!loaded.evidence_live) {
    throw new DomainError(
      "conflict",
      "COMMERCIAL_EVIDENCE_UNAVAILABLE",
      "The offer's exact terms carry no current, owner-verified provider acceptance.",
      notCharged,
    );
  }
  return null;
}

/**
 * One statement: the ticket moves from created only while every condition still holds, and the
 * receipt exists only if it moved; the unique ticket_id settles any race that slips through.
 */
async function moveAndRecord(
  ctx: TicketContext,
  ticketId: string,
  disclosureVersion: string | null,
  now: string,
): Promise<HandoffRow | undefined> {
  const result = await ctx.db.execute(sql`
    with moved as (
      update action_tickets t set status = 'redirected', status_changed_at = ${now}::timestamptz
      where t.id = ${ticketId} and t.status = 'created' and t.expires_at > ${now}::timestamptz
        and ${authorizationLive("t", now)}
        and exists (select 1 from provider_offers o where o.id = t.offer_id and ${evidenceValidUntil("o", now)} is not null)
      returning t.*
    )
    insert into action_handoff_receipts (ticket_id, claim_id, offer_id, offer_version, commercial_terms_sha256,
      contract_version, handoff_consent_version, intent_disclosure_consent_version, observed_at)
    select id, claim_id, offer_id, offer_version, commercial_terms_sha256, ${HANDOFF_RECEIPT_CONTRACT_VERSION},
      ${HANDOFF_CONSENT_VERSION}, ${disclosureVersion}, ${now}::timestamptz
    from moved
    returning *`);
  return result.rows[0] as HandoffRow | undefined;
}
