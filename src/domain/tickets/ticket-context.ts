/**
 * What ticket operations run against, and the pieces several of them share: the signing
 * capability (503 without it), the bearer of a stored ticket, and the ticket's public intent.
 */
import canonicalize from "canonicalize";
import type { Signing } from "../../adapters/signing.ts";
import type { DomainContext } from "../context.ts";
import { DomainError } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import type { BUDGET_BANDS, INTENT_TOPICS, REQUIREMENT_FLAGS, URGENCIES } from "./ticket-constants.ts";
import type { TicketIntentRow, TicketRow } from "./ticket-sql.ts";

export interface TicketContext extends DomainContext {
  /** Present: a ticket operation runs only once `requireSigning` has passed (in its route). */
  signing: Signing;
  now: Date;
}

/**
 * The one place signing is required: a route calls it first, before any quota is spent or
 * anything read, and from then on its context is a TicketContext. Without a signer the answer is
 * 503 SIGNING_UNAVAILABLE, never an unsigned answer.
 */
export function requireSigning<Context extends { signing?: Signing | undefined }>(
  ctx: Context,
): asserts ctx is Context & { signing: Signing } {
  if (!ctx.signing) {
    throw new DomainError(
      "unavailable",
      "SIGNING_UNAVAILABLE",
      "Signed provider actions are not configured on this service; nothing was written.",
    );
  }
}

export const iso = (value: string | Date) => new Date(value).toISOString();
const seconds = (value: string | Date) => Math.floor(new Date(value).getTime() / 1000);

/** The ticket's bearer, rebuilt from its stored snapshot (deterministic for the current key). */
export function bearerOf(signing: Signing, row: TicketRow): Promise<string> {
  return signing.signBearer({
    ticketId: row.id,
    offerId: row.offer_id,
    offerVersion: Number(row.offer_version),
    termsSha256: row.commercial_terms_sha256,
    issuedAt: seconds(row.created_at),
    expiresAt: seconds(row.expires_at),
  });
}

/** Postgres text[] arrives parsed, or as its literal `{a,b}` through some drivers. */
export function flagsOf(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, "");
  return inner === "" ? [] : inner.split(",");
}

/** The controlled intent exactly as the closed vocabularies hold it (absent members are null). */
export function controlledIntentOf(row: TicketIntentRow) {
  return {
    // The database's checks hold each column to its vocabulary.
    topic: row.intent_topic as (typeof INTENT_TOPICS)[number],
    region_code: row.intent_region_code,
    budget_band: row.intent_budget_band as (typeof BUDGET_BANDS)[number] | null,
    urgency: row.intent_urgency as (typeof URGENCIES)[number] | null,
    requirement_flags: flagsOf(row.intent_requirement_flags) as (typeof REQUIREMENT_FLAGS)[number][],
  };
}

/** SHA-256 (hex) of a request body's RFC 8785 canonical JSON: equal for exact replays, whatever the key order. */
export async function requestFingerprint(body: unknown): Promise<string> {
  return sha256Hex(canonicalize(body) ?? "null");
}
