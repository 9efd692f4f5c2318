/** What the action-ticket integration tests share: patterns, the outcome body, the ledger, expired tickets and security credentials. */
import { requestFingerprint } from "../../src/domain/tickets/ticket-context.ts";
import { ageLastSuccess, sessionClient, verifiedClaimThroughApi } from "./accounts.ts";
import { sqlRows } from "./sites.ts";
import { testSigning, ticketRequest } from "./tickets.ts";

export const SHA256 = /^[0-9a-f]{64}$/;
export const BEARER = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;

export interface OutcomeBody {
  receipt_id: string;
  signed_receipt: string;
  signature: string;
  key_id: string;
  receipt: Record<string, unknown>;
  idempotent_replay: boolean;
}

export const ledgerOf = (ticketId: string) =>
  sqlRows<{ entry_type: string; amount_cents: string }>(
    "select entry_type, amount_cents::text from exchange_charge_ledger where ticket_id = $1 order by created_at",
    [ticketId],
  );

/** A ticket row written by SQL whose authorization already ended (the bindings cannot be changed later). */
export async function insertExpiredTicket(
  searchId: string,
  offer: { id: string; version: number; commercial_terms_sha256: string },
  claim: { claimId: string; domain: string },
  status = "created",
) {
  const body = ticketRequest(searchId, offer.id);
  const [row] = await sqlRows<{ id: string; created_at: string; expires_at: string }>(
    `with t as (
       insert into action_tickets (search_id, claim_id, offer_id, offer_version, commercial_terms_sha256, domain,
         charge_event, bounty_cents, contract_version, consent_version, request_sha256, status, created_at, expires_at)
       values ($1, $2, $3, $4, $5, $6, 'converted', 2500, 'svc-action-ticket-preparation-v2', 'principal-consent v1',
         $7, $8, now() - interval '2 hours', now() - interval '1 hour')
       returning id, created_at, expires_at
     ), i as (
       insert into action_ticket_intents (ticket_id, intent_topic, created_at, expires_at)
       select id, 'developer-tools', created_at, created_at + interval '30 days' from t
     )
     select id, created_at::text, expires_at::text from t`,
    [
      searchId,
      claim.claimId,
      offer.id,
      offer.version,
      offer.commercial_terms_sha256,
      claim.domain,
      await requestFingerprint(body),
      status,
    ],
  );
  const bearer = await testSigning().signing.signBearer({
    ticketId: row!.id,
    offerId: offer.id,
    offerVersion: offer.version,
    termsSha256: offer.commercial_terms_sha256,
    issuedAt: Math.floor(new Date(row!.created_at).getTime() / 1000),
    expiresAt: Math.floor(new Date(row!.expires_at).getTime() / 1000),
  });
  return { body, ticketId: row!.id, bearer };
}

/**
 * The four keys of the shared cases: the claim's own (valid), a rotated-away one, another
 * verified claim's, and the key of a claim whose last proof is 604800 s old.
 */
export async function securityCredentials(claim: { claimId: string; key: string; session: { token: string } }) {
  const rotated = await sessionClient(claim.session.token)(`/api/v1/provider/claims/${claim.claimId}/keys/rotate`, {
    method: "POST",
  });
  const valid = ((await rotated.json()) as { provider_key: string }).provider_key;
  const other = await verifiedClaimThroughApi();
  const stale = await verifiedClaimThroughApi();
  await ageLastSuccess(stale.claimId, 604_800);
  return { valid, revoked: claim.key, otherOwner: other.key, stale: stale.key };
}
