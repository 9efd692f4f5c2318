/**
 * Signed outcome receipts: what a stored receipt answers (the exact signed text, its signature
 * and key id), a provider's own receipt by id, and the public verification of a receipt with the
 * current state of its ticket. See docs/exchange-tickets.md for the format anyone can verify.
 */
import { sql } from "drizzle-orm";
import { isDatabaseUnavailable } from "../../adapters/db.ts";
import { RECEIPT_SIGNATURE_ALGORITHM } from "../../adapters/signing.ts";
import type { ProviderKeyActor } from "../actor.ts";
import type { DomainContext } from "../context.ts";
import { DomainError } from "../errors.ts";
import { OUTCOME_RECEIPT_TYPE } from "./ticket-constants.ts";
import type { TicketContext } from "./ticket-context.ts";
import { type ChargeStatus, effectiveStatus, type TicketStatus } from "./ticket-machine.ts";
import { authorizationLive, chargeStatusOf, type TicketRow } from "./ticket-sql.ts";

export interface StoredReceiptRow {
  id: string;
  key_id: string;
  signed_receipt: string;
  signature: string;
}

/** The answer of a stored receipt: the exact canonical text, its signature, and the parsed receipt. */
export function receiptAnswer(row: StoredReceiptRow) {
  return {
    receipt_id: row.id,
    signed_receipt: row.signed_receipt,
    signature: row.signature,
    key_id: row.key_id,
    signature_algorithm: RECEIPT_SIGNATURE_ALGORITHM,
    receipt: JSON.parse(row.signed_receipt) as Record<string, unknown>,
  };
}

export type ReceiptAnswer = ReturnType<typeof receiptAnswer>;

/** One of the provider's own receipts; another provider's is 404, as a missing one is. */
export async function getProviderReceipt({
  ctx,
  actor,
  receiptId,
}: {
  /** No signer needed: the stored signature is served as issued. */
  ctx: DomainContext;
  actor: ProviderKeyActor;
  receiptId: string;
}): Promise<ReceiptAnswer> {
  const result = await ctx.db.execute(sql`
    select id, key_id, signed_receipt, signature from provider_outcome_receipts
    where id = ${receiptId} and claim_id = ${actor.claimId}`);
  const row = result.rows[0] as StoredReceiptRow | undefined;
  if (!row)
    throw new DomainError("not_found", "RECEIPT_NOT_FOUND", "No outcome receipt with this id for this provider.");
  return receiptAnswer(row);
}

export type TimeStatus = "current" | "expired" | "not_yet_valid" | "invalid_time";

/** Where `now` stands in the receipt's validity window; invalid_time when the window is unreadable. */
export function timeStatusOf(receipt: Record<string, unknown>, now: Date): TimeStatus {
  const from = readTime(receipt.valid_from);
  const until = readTime(receipt.valid_until);
  if (from === null || until === null || until <= from) return "invalid_time";
  if (now.getTime() < from) return "not_yet_valid";
  if (now.getTime() >= until) return "expired";
  return "current";
}

function readTime(value: unknown): number | null {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(value)) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * POST /action-receipts/verify: whether the signature is ours over these exact bytes, where the
 * validity window stands, and (for a validly signed receipt) its ticket's state now.
 */
export async function verifyOutcomeReceipt({
  ctx,
  input,
}: {
  ctx: TicketContext;
  input: { signedReceipt: string; signature: string };
}) {
  const { signing } = ctx;
  let receipt: unknown;
  try {
    receipt = JSON.parse(input.signedReceipt);
  } catch {
    receipt = null;
  }
  if (receipt === null || typeof receipt !== "object" || Array.isArray(receipt)) {
    throw new DomainError(
      "invalid",
      "INVALID_SIGNED_RECEIPT",
      "signed_receipt must be the exact canonical JSON object the service returned.",
      { errors: [{ location: "body", field: "signed_receipt", message: "not a JSON object" }] },
    );
  }
  const fields = receipt as Record<string, unknown>;
  const keyId = typeof fields.key_id === "string" ? fields.key_id : "";
  const signatureValid =
    fields.receipt_type === OUTCOME_RECEIPT_TYPE &&
    (await signing.verifyReceipt(input.signedReceipt, input.signature, keyId));
  const timeStatus = timeStatusOf(fields, ctx.now);
  const state =
    signatureValid && typeof fields.receipt_id === "string" && UUID.test(fields.receipt_id)
      ? await currentState(ctx, fields.receipt_id)
      : ({ status: "not_found" } as const);
  return {
    signature_valid: signatureValid,
    within_validity_window: timeStatus === "current",
    time_status: timeStatus,
    receipt: fields,
    current_state_available: state.status === "current",
    current_state_status: state.status,
    current_state: state.status === "current" ? state.state : null,
  };
}

type CurrentState =
  | { status: "current"; state: PublicReceiptState }
  | { status: "not_found" }
  | { status: "unavailable" };

interface PublicReceiptState {
  receipt_id: string;
  ticket_id: string;
  ticket_status: TicketStatus;
  charge_status: ChargeStatus;
  latest_outcome_receipt_id: string | null;
  receipt_is_latest: boolean;
  as_of: string;
}

async function currentState(ctx: TicketContext, receiptId: string): Promise<CurrentState> {
  const now = ctx.now.toISOString();
  try {
    const result = await ctx.db.execute(sql`
      select r.id as receipt_id, t.*, ${chargeStatusOf("t")} as charge_status,
        ${authorizationLive("t", now)} as authorization_live
      from provider_outcome_receipts r join action_tickets t on t.id = r.ticket_id
      where r.id = ${receiptId}`);
    const row = result.rows[0] as
      | (TicketRow & { receipt_id: string; charge_status: ChargeStatus; authorization_live: boolean })
      | undefined;
    if (!row) return { status: "not_found" };
    return {
      status: "current",
      state: {
        receipt_id: row.receipt_id,
        ticket_id: row.id,
        ticket_status: effectiveStatus({
          stored: row.status,
          expiresAt: new Date(row.expires_at),
          now: ctx.now,
          authorizationLive: row.authorization_live,
        }),
        charge_status: row.charge_status,
        latest_outcome_receipt_id: row.last_outcome_receipt_id,
        receipt_is_latest: row.last_outcome_receipt_id === row.receipt_id,
        as_of: now,
      },
    };
  } catch (error) {
    // The signature check needs no database: answer it, and say the state could not be read.
    if (!isDatabaseUnavailable(error)) console.error("receipt state unavailable", String(error));
    return { status: "unavailable" };
  }
}
