/**
 * What `npm run load` needs for the exchange's hot paths (issue 32): verified provider claims with
 * their keys and an active offer each, and handed-off action tickets with their signed bearers,
 * for `POST /provider/outcomes` and `GET /provider/pilot-status`. They are written straight into
 * the database as the service's own statements leave them (claim verified, key stored as its
 * SHA-256, offer active at version 1 with its version row, ticket redirected with its handoff
 * receipt), and the bearers are signed with the keys the Worker under load is given: setting up
 * hundreds of tickets through searches, ticket requests and handoffs would take longer than the
 * load itself, and those paths are not what is measured here.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type pg from "pg";
import { createSigning, type Signing } from "../src/adapters/signing.ts";
import { newProviderKey } from "../src/domain/claims/provider-keys.ts";
import {
  HANDOFF_CONSENT_VERSION,
  HANDOFF_RECEIPT_CONTRACT_VERSION,
  PRINCIPAL_CONSENT_VERSION,
  TICKET_PREPARATION_CONTRACT_VERSION,
} from "../src/domain/tickets/ticket-constants.ts";
import type { Outcome } from "../src/domain/tickets/ticket-machine.ts";

/** Signing keys for the Worker under load and for the bearers made here (fresh each run). */
export function loadSigningVars(): { ATTRIBUTION_SIGNING_KEYS: string; RECEIPT_SIGNING_KEYS: string } {
  return {
    ATTRIBUTION_SIGNING_KEYS: `load-att-1:${randomBytes(32).toString("base64url")}`,
    RECEIPT_SIGNING_KEYS: `load-rcpt-1:${randomBytes(32).toString("base64url")}`,
  };
}

function signingOf(vars: ReturnType<typeof loadSigningVars>): Signing {
  const ring = (value: string) => {
    const [kid = "", secret = ""] = value.split(/:(.*)/s);
    const key = { kid, secret };
    return { current: key, keys: [key] };
  };
  return createSigning({
    attributionKeys: ring(vars.ATTRIBUTION_SIGNING_KEYS),
    receiptKeys: ring(vars.RECEIPT_SIGNING_KEYS),
    attributionTtlSeconds: 7 * 86_400,
    receiptValiditySeconds: 365 * 86_400,
  });
}

const hex = () => randomBytes(32).toString("hex");

/** A handed-off ticket of a claim, and its bearer. */
export interface LoadTicket {
  providerKey: string;
  bearer: string;
}

export interface ExchangeSetup {
  /** One active provider key per claim. */
  providerKeys: string[];
  tickets: LoadTicket[];
}

/**
 * `claims` verified claims of unclaimed indexed sites (each its own account, key and active offer
 * charging on `converted`), and `tickets` redirected tickets spread over them.
 */
export async function setUpExchange(
  client: pg.Client,
  vars: ReturnType<typeof loadSigningVars>,
  { claims, tickets }: { claims: number; tickets: number },
): Promise<ExchangeSetup> {
  const signing = signingOf(vars);
  const { rows: sites } = await client.query<{ id: string; domain: string }>(
    `select s.id, s.domain from sites s
     where not exists (select 1 from provider_claims c where c.domain = s.domain and c.status <> 'revoked')
     order by s.domain limit $1`,
    [claims],
  );
  if (sites.length < claims) throw new Error(`only ${sites.length} unclaimed sites for ${claims} claims`);
  const offers: { claimId: string; offerId: string; termsSha256: string; providerKey: string }[] = [];
  for (const site of sites) {
    const key = await newProviderKey();
    const offerId = randomUUID();
    const termsSha256 = hex();
    const { rows } = await client.query<{ id: string }>(
      `with account as (
         insert into accounts (email) values ($1) returning id
       ), claim as (
         insert into provider_claims (account_id, site_id, domain, verification_record_name, status, challenge_sha256,
           challenge_expires_at, verified_at, verification_last_succeeded_at)
         select account.id, $2, $3, '_agent-readiness-challenge.' || $3, 'verified', $4,
           now() + interval '7 days', now(), now()
         from account returning id
       ), key as (
         insert into provider_api_keys (claim_id, key_sha256, key_prefix) select id, $5, $6 from claim
       ), offer as (
         insert into provider_offers (id, claim_id, status, version, activated_at, name, summary, action_type,
           action_url, charge_event, bounty_cents, currency, principal_price_mode, principal_currency, billing_mode,
           terms_credit_limit_cents, terms_period_days, commercial_terms_sha256)
         select $7, id, 'active', 1, now(), 'Book a demo', 'A 30-minute demo with an engineer.', 'demo',
           'https://www.' || $3 || '/demo', 'converted', 2500, 'usd', 'free', 'usd', 'terms', 100000, 30, $8
         from claim returning *
       ), version as (
         insert into provider_offer_versions (offer_id, version, name, summary, action_type, action_url, charge_event,
           bounty_cents, currency, principal_price_mode, principal_currency, billing_mode, terms_credit_limit_cents,
           terms_period_days, commercial_terms_sha256)
         select id, version, name, summary, action_type, action_url, charge_event, bounty_cents, currency,
           principal_price_mode, principal_currency, billing_mode, terms_credit_limit_cents, terms_period_days,
           commercial_terms_sha256
         from offer
       )
       select id from claim`,
      [
        `load-${randomUUID()}@load.invalid`,
        site.id,
        site.domain,
        hex(),
        key.keySha256,
        key.keyPrefix,
        offerId,
        termsSha256,
      ],
    );
    offers.push({ claimId: rows[0]?.id as string, offerId, termsSha256, providerKey: key.key });
  }

  const made: LoadTicket[] = [];
  const expiresAt = Math.floor(Date.now() / 1000) + 6 * 86_400;
  for (let i = 0; i < tickets; i++) {
    const offer = offers[i % offers.length] as (typeof offers)[number];
    const { rows } = await client.query<{ id: string; issued_at: string }>(
      `with ticket as (
         insert into action_tickets (search_id, claim_id, offer_id, offer_version, commercial_terms_sha256, domain,
           charge_event, bounty_cents, contract_version, consent_version, request_sha256, status, status_changed_at,
           created_at, expires_at)
         select $1, o.claim_id, o.id, 1, o.commercial_terms_sha256, c.domain, o.charge_event, o.bounty_cents,
           $2, $3, $4, 'redirected', now(), now(), to_timestamp($5)
         from provider_offers o join provider_claims c on c.id = o.claim_id where o.id = $6
         returning *
       ), handoff as (
         insert into action_handoff_receipts (ticket_id, claim_id, offer_id, offer_version, commercial_terms_sha256,
           contract_version, handoff_consent_version, observed_at)
         select id, claim_id, offer_id, offer_version, commercial_terms_sha256, $7, $8, now() from ticket
       )
       select id, extract(epoch from created_at)::bigint as issued_at from ticket`,
      [
        `load-${randomUUID()}`,
        TICKET_PREPARATION_CONTRACT_VERSION,
        PRINCIPAL_CONSENT_VERSION,
        hex(),
        expiresAt,
        offer.offerId,
        HANDOFF_RECEIPT_CONTRACT_VERSION,
        HANDOFF_CONSENT_VERSION,
      ],
    );
    const ticket = rows[0] as { id: string; issued_at: string };
    const bearer = await signing.signBearer({
      ticketId: ticket.id,
      offerId: offer.offerId,
      offerVersion: 1,
      termsSha256: offer.termsSha256,
      issuedAt: Number(ticket.issued_at),
      expiresAt,
    });
    made.push({ providerKey: offer.providerKey, bearer });
  }
  return { providerKeys: offers.map((offer) => offer.providerKey), tickets: made };
}

/**
 * The outcomes a ticket takes in turn: each a legal step of the transition table
 * (docs/exchange-tickets.md), the third charging the bounty and the fourth crediting it.
 */
export const OUTCOME_STEPS: readonly Outcome[] = ["accepted", "activated", "converted", "duplicate"];

/**
 * Hands out tickets so that no two outcomes of one ticket are in flight together: a ticket goes
 * back to the pool only once its outcome is answered, and leaves it for good after its last step.
 */
export class TicketPool {
  private readonly ready: { ticket: LoadTicket; step: number }[];
  private warned = false;

  constructor(tickets: LoadTicket[]) {
    this.ready = tickets.map((ticket) => ({ ticket, step: 0 }));
  }

  /** The next ticket and outcome, and a callback for when it is answered; null when none is left. */
  take(): { ticket: LoadTicket; outcome: Outcome; answered: () => void } | null {
    const entry = this.ready.shift();
    if (!entry) {
      if (!this.warned) console.warn("[load] every ticket took all its outcomes: raise LOAD_TICKETS");
      this.warned = true;
      return null;
    }
    return {
      ticket: entry.ticket,
      outcome: OUTCOME_STEPS[entry.step] as Outcome,
      answered: () => {
        if (entry.step + 1 < OUTCOME_STEPS.length) this.ready.push({ ticket: entry.ticket, step: entry.step + 1 });
      },
    };
  }
}
