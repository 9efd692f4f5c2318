/**
 * POST /provider/outcomes: a provider reports what became of a ticket it received through an
 * attributed action URL. The ticket comes from the signed token; the transition and any ledger
 * row come from ticket-machine.ts; the receipt is signed and stored with the claim-scoped
 * Idempotency-Key, whose unique constraint (with the request fingerprint) decides replay (200)
 * and conflict (409). The ticket row is a compare-and-set guard: of racing outcomes exactly one
 * moves it, so no ticket is charged twice.
 */
import { sql } from "drizzle-orm";
import { postgresErrorCode, sqlBatchRunner } from "../../adapters/db.ts";
import { type AttributionClaims, RECEIPT_SIGNATURE_ALGORITHM, type SignedReceipt } from "../../adapters/signing.ts";
import type { ProviderKeyActor } from "../actor.ts";
import { DomainError } from "../errors.ts";
import { receiptAnswer, type StoredReceiptRow } from "./outcome-receipts.ts";
import { badBearer } from "./resolve-intent.ts";
import { OUTCOME_RECEIPT_TYPE } from "./ticket-constants.ts";
import type { TicketContext } from "./ticket-context.ts";
import { type ChargeStatus, decideOutcome, effectiveStatus, type Outcome } from "./ticket-machine.ts";
import { authorizationLive, chargeStatusOf, type TicketRow } from "./ticket-sql.ts";

export interface RecordOutcomeInput {
  bearer: string;
  outcome: Outcome;
  /** The deprecated compatibility assertion: refused when it is not the token's ticket. */
  ticketId?: string | undefined;
  idempotencyKey: string;
  /** SHA-256 of the RFC 8785 canonical JSON of the request body. */
  requestSha256: string;
}

const REFUSAL_ERRORS = {
  invalid_transition: (status: string, outcome: string) =>
    new DomainError("conflict", "INVALID_TRANSITION", `A ${status} ticket cannot become ${outcome}.`, {
      ticket_status: status,
    }),
  ticket_expired: () =>
    new DomainError(
      "conflict",
      "TICKET_EXPIRED",
      "This ticket's authorization has expired: only a duplicate or invalid credit of a charge is accepted.",
      { ticket_status: "expired" },
    ),
  authorization_revoked: () =>
    new DomainError(
      "conflict",
      "AUTHORIZATION_REVOKED",
      "This ticket's authorization was revoked: only a duplicate or invalid credit of a charge is accepted.",
      { ticket_status: "revoked" },
    ),
};

type OutcomeAnswer = ReturnType<typeof receiptAnswer> & { idempotent_replay: boolean };

/** The receipt already stored under this claim's Idempotency-Key, if any. */
const storedUnderKey = (actor: ProviderKeyActor, input: RecordOutcomeInput) => sql`
    select id, key_id, signed_receipt, signature, request_sha256 from provider_outcome_receipts
    where claim_id = ${actor.claimId} and idempotency_key = ${input.idempotencyKey}`;

/** The exact replay of a stored receipt (same key and body), or the 409 of a key reused with another body. */
function replayOf(row: (StoredReceiptRow & { request_sha256: string }) | undefined, input: RecordOutcomeInput) {
  if (!row) return null;
  if (row.request_sha256 !== input.requestSha256) {
    throw new DomainError(
      "conflict",
      "IDEMPOTENCY_CONFLICT",
      "This Idempotency-Key was already used with a different request body.",
    );
  }
  return { ...receiptAnswer(row), idempotent_replay: true };
}

type LoadedTicket = TicketRow & {
  authorization_live: boolean;
  charge_status: ChargeStatus;
  handoff_receipt_id: string | null;
};

/** Records the outcome; `created` is false for an exact replay of the same key and body. */
export async function recordOutcome({
  ctx,
  actor,
  input,
}: {
  ctx: TicketContext;
  actor: ProviderKeyActor;
  input: RecordOutcomeInput;
}): Promise<{ created: boolean; answer: OutcomeAnswer }> {
  const claims = await ticketClaimsOf(ctx, input);
  // A race lost to a concurrent outcome of the same ticket is decided again on the new state.
  for (let attempt = 0; attempt < 3; attempt++) {
    // Both reads in one round trip; a replay is answered before the ticket is looked at.
    const [keyRows = [], ticketRows = []] = await sqlBatchRunner(ctx.db)([
      storedUnderKey(actor, input),
      ticketOfToken(ctx, actor, claims),
    ]);
    const replayed = replayOf(keyRows[0] as (StoredReceiptRow & { request_sha256: string }) | undefined, input);
    if (replayed) return { created: false, answer: replayed };
    const ticket = ticketRows[0] as LoadedTicket | undefined;
    if (!ticket) {
      throw new DomainError(
        "not_found",
        "TICKET_NOT_FOUND",
        "No ticket of this provider matches the attribution token.",
      );
    }
    const step = decideStep(ctx, ticket, input.outcome);
    const receiptId = crypto.randomUUID();
    const signed = await signOutcomeReceipt(ctx, ticket, step, receiptId, input.outcome);
    let rows: Record<string, unknown>[][];
    try {
      rows = await sqlBatchRunner(ctx.db)(outcomeWrites(ctx, actor, input, ticket, step, receiptId, signed));
    } catch (error) {
      // The same key won by a concurrent request (with this body: replay; another: 409), or the
      // ledger's one-charge-per-ticket guard: decide again on what is now stored.
      if (postgresErrorCode(error) === "23505") continue;
      throw error;
    }
    const stored = rows[1]?.[0] as StoredReceiptRow | undefined;
    if (stored) return { created: true, answer: { ...receiptAnswer(stored), idempotent_replay: false } };
  }
  throw new DomainError(
    "conflict",
    "OUTCOME_RACE",
    "Other outcomes of this ticket kept arriving at the same time; retry with the same Idempotency-Key.",
  );
}

/** The ticket the signed token names (expired tokens too: a credit of a charge crosses expiry). */
async function ticketClaimsOf(ctx: TicketContext, input: RecordOutcomeInput): Promise<AttributionClaims> {
  const verified = await ctx.signing.verifyBearer(input.bearer, ctx.now);
  if (verified.status === "invalid") throw badBearer();
  const { claims } = verified;
  if (input.ticketId !== undefined && input.ticketId !== claims.ticketId) {
    throw new DomainError(
      "invalid",
      "TICKET_ID_MISMATCH",
      "ticket_id is deprecated and, when sent, must be the attribution token's own ticket.",
      { errors: [{ location: "body", field: "ticket_id", message: "not the token's ticket" }] },
    );
  }
  return claims;
}

/** This provider's ticket for the token's exact offer version and terms, as stored now. */
function ticketOfToken(ctx: TicketContext, actor: ProviderKeyActor, claims: AttributionClaims) {
  const now = ctx.now.toISOString();
  return sql`
    select t.*, ${authorizationLive("t", now)} as authorization_live, ${chargeStatusOf("t")} as charge_status,
      (select h.id from action_handoff_receipts h where h.ticket_id = t.id) as handoff_receipt_id
    from action_tickets t
    where t.id = ${claims.ticketId} and t.claim_id = ${actor.claimId} and t.offer_id = ${claims.offerId}
      and t.offer_version = ${claims.offerVersion} and t.commercial_terms_sha256 = ${claims.termsSha256}`;
}

interface OutcomeStep {
  /** The ticket's status before this outcome (expiry and revocation applied). */
  status: ReturnType<typeof effectiveStatus>;
  bountyCents: number;
  decision: Extract<ReturnType<typeof decideOutcome>, { ok: true }>;
}

/** The transition table's answer for this outcome, or the 409 that refuses it. */
function decideStep(ctx: TicketContext, ticket: LoadedTicket, outcome: Outcome): OutcomeStep {
  const status = effectiveStatus({
    stored: ticket.status,
    expiresAt: new Date(ticket.expires_at),
    now: ctx.now,
    authorizationLive: ticket.authorization_live,
  });
  const bountyCents = Number(ticket.bounty_cents);
  const decision = decideOutcome(
    { status, charge: ticket.charge_status, chargeEvent: ticket.charge_event, bountyCents },
    outcome,
  );
  if (!decision.ok) {
    throw decision.reason === "invalid_transition"
      ? REFUSAL_ERRORS.invalid_transition(status, outcome)
      : REFUSAL_ERRORS[decision.reason]();
  }
  return { status, bountyCents, decision };
}

/** The signed outcome receipt (RFC 8785 JSON, HMAC-SHA256) for this step. */
function signOutcomeReceipt(
  ctx: TicketContext,
  ticket: LoadedTicket,
  { status, bountyCents, decision }: OutcomeStep,
  receiptId: string,
  outcome: Outcome,
) {
  const { signing } = ctx;
  const now = ctx.now.toISOString();
  return signing.signReceipt({
    receipt_type: OUTCOME_RECEIPT_TYPE,
    receipt_id: receiptId,
    key_id: signing.receiptKeyId,
    signature_algorithm: RECEIPT_SIGNATURE_ALGORITHM,
    issued_at: now,
    valid_from: now,
    valid_until: new Date(ctx.now.getTime() + signing.receiptValiditySeconds * 1000).toISOString(),
    provider_claim_id: ticket.claim_id,
    provider_domain: ticket.domain,
    ticket_id: ticket.id,
    offer_id: ticket.offer_id,
    offer_version: Number(ticket.offer_version),
    commercial_terms_sha256: ticket.commercial_terms_sha256,
    handoff_receipt_id: ticket.handoff_receipt_id,
    outcome,
    previous_status: status,
    ticket_status: decision.next,
    charge_event: ticket.charge_event,
    bounty_cents: bountyCents,
    currency: "usd",
    ledger_entry: decision.ledger?.entry ?? null,
    ledger_amount_cents: decision.ledger?.amountCents ?? 0,
    charge_status: decision.charge,
    billed_cents: decision.billedCents,
  });
}

/**
 * One batch: move the ticket (compare-and-set on its status and last receipt), then store the
 * receipt and any ledger row only if this request's move is the one that happened. The second
 * statement returns the stored receipt.
 */
function outcomeWrites(
  ctx: TicketContext,
  actor: ProviderKeyActor,
  input: RecordOutcomeInput,
  ticket: LoadedTicket,
  { status, decision }: OutcomeStep,
  receiptId: string,
  signed: SignedReceipt,
) {
  const now = ctx.now.toISOString();
  // A positive step re-checks, in the statement that takes it, that the authorization still
  // runs; a credit needs only the compare-and-set.
  const stillAuthorized =
    decision.ledger?.entry === "credit" || input.outcome === "duplicate" || input.outcome === "invalid"
      ? sql`true`
      : sql`(t.expires_at > ${now}::timestamptz and ${authorizationLive("t", now)})`;
  const moved = sql`exists (select 1 from action_tickets m where m.id = ${ticket.id} and m.last_outcome_receipt_id = ${receiptId})`;
  const statements = [
    sql`update action_tickets t set status = ${decision.next}, status_changed_at = ${now}::timestamptz,
        last_outcome_receipt_id = ${receiptId}
      where t.id = ${ticket.id} and t.status = ${ticket.status}
        and t.last_outcome_receipt_id is not distinct from ${ticket.last_outcome_receipt_id}::uuid
        and ${stillAuthorized}`,
    sql`insert into provider_outcome_receipts (id, claim_id, ticket_id, idempotency_key, request_sha256, outcome,
        previous_status, ticket_status, charge_status, billed_cents, key_id, signed_receipt, signature, created_at)
      select ${receiptId}, ${actor.claimId}, ${ticket.id}, ${input.idempotencyKey}, ${input.requestSha256},
        ${input.outcome}, ${status}, ${decision.next}, ${decision.charge}, ${decision.billedCents},
        ${signed.keyId}, ${signed.signedReceipt}, ${signed.signature}, ${now}::timestamptz
      where ${moved}
      returning id, key_id, signed_receipt, signature`,
  ];
  if (decision.ledger) {
    statements.push(sql`insert into exchange_charge_ledger (entry_type, ticket_id, claim_id, offer_id, amount_cents,
        outcome_receipt_id, charge_entry_id, created_at)
      select ${decision.ledger.entry}, ${ticket.id}, ${ticket.claim_id}, ${ticket.offer_id},
        ${decision.ledger.amountCents}, ${receiptId},
        ${
          decision.ledger.entry === "credit"
            ? sql`(select c.id from exchange_charge_ledger c where c.ticket_id = ${ticket.id} and c.entry_type = 'charge')`
            : sql`null::uuid`
        }, ${now}::timestamptz
      where ${moved}`);
  }
  return statements;
}
