/**
 * POST /provider/action-tickets/resolve (svc-provider-controlled-intent-resolver-v1): the
 * provider exchanges the bearer it received through the attributed action URL for the ticket's
 * controlled intent. Only the ticket's own claim, only after an observed handoff that carried the
 * disclosure consent, only while the ticket's authorization runs. Free; proves nothing; returns
 * nothing beyond the closed vocabularies and opaque binding metadata.
 */
import { sql } from "drizzle-orm";
import type { ProviderKeyActor } from "../actor.ts";
import { DomainError } from "../errors.ts";
import { INTENT_RESOLVER_CONTRACT_VERSION } from "./ticket-constants.ts";
import { controlledIntentOf, type TicketContext } from "./ticket-context.ts";
import { authorizationLive, INTENT_COLUMNS, type TicketIntentRow, type TicketRow } from "./ticket-sql.ts";

/** Statuses past an observed handoff in which intent may still be resolved. */
const RESOLVABLE = ["redirected", "accepted", "activated", "converted"];

export const badBearer = () =>
  new DomainError(
    "invalid",
    "INVALID_ATTRIBUTION_TOKEN",
    "The attribution token is malformed or not signed by this service.",
  );

/**
 * The controlled-intent bundle, or 404 (wrong claim, no consent, ineligible, or the intent already
 * purged after its 30-day retention: indistinguishable).
 */
export async function resolveIntent({
  ctx,
  actor,
  input,
}: {
  ctx: TicketContext;
  actor: ProviderKeyActor;
  input: { bearer: string };
}) {
  const { signing } = ctx;
  const verified = await signing.verifyBearer(input.bearer, ctx.now);
  if (verified.status === "invalid") throw badBearer();
  if (verified.status === "expired") {
    throw new DomainError("gone", "ATTRIBUTION_EXPIRED", "This attribution token has expired.");
  }
  const { claims } = verified;
  const now = ctx.now.toISOString();
  const result = await ctx.db.execute(sql`
    select t.*, ${INTENT_COLUMNS}, h.id as handoff_receipt_id
    from action_tickets t
    join action_handoff_receipts h on h.ticket_id = t.id and h.intent_disclosure_consent_version is not null
    join action_ticket_intents i on i.ticket_id = t.id and i.expires_at > ${now}::timestamptz
    where t.id = ${claims.ticketId} and t.claim_id = ${actor.claimId} and t.offer_id = ${claims.offerId}
      and t.offer_version = ${claims.offerVersion} and t.commercial_terms_sha256 = ${claims.termsSha256}
      and t.status in (${sql.join(
        RESOLVABLE.map((status) => sql`${status}`),
        sql`, `,
      )}) and t.expires_at > ${now}::timestamptz and ${authorizationLive("t", now)}`);
  const row = result.rows[0] as (TicketRow & TicketIntentRow & { handoff_receipt_id: string }) | undefined;
  if (!row) {
    throw new DomainError(
      "not_found",
      "CONTROLLED_INTENT_UNAVAILABLE",
      "No controlled intent is available to this provider for this token.",
    );
  }
  return {
    contract_version: INTENT_RESOLVER_CONTRACT_VERSION,
    controlled_intent: controlledIntentOf(row),
    binding: {
      ticket_id: row.id,
      offer_id: row.offer_id,
      offer_version: Number(row.offer_version),
      commercial_terms_sha256: row.commercial_terms_sha256,
      handoff_receipt_id: row.handoff_receipt_id,
    },
  };
}

export type ControlledIntentResolution = Awaited<ReturnType<typeof resolveIntent>>;
