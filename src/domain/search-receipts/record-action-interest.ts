/**
 * POST /action-interests: a private, query-free receipt that the caller's principal is interested
 * in one action on one exact returned organic result. It contacts no provider, creates no ticket
 * or charge, changes no rank or score, and dies with its source search.
 */
import { and, eq, gt, not, sql } from "drizzle-orm";
import { actionInterestReceipts, searchReceipts } from "../../../db/schema/search-receipts.ts";
import type { DomainContext } from "../context.ts";
import { DomainError } from "../errors.ts";
import { normalizeDomain } from "../sites/domain-name.ts";
import { liveReturnedResult } from "./live-result.ts";
import { ACTION_INTEREST_CONFIRMATION_VERSION, type ActionType } from "./receipt-constants.ts";

export interface ActionInterestInput {
  searchId: string;
  domain: string;
  actionType: ActionType;
}

type ReceiptRow = typeof actionInterestReceipts.$inferSelect;

// Missing, stale, synthetic and not-returned are one answer: none of them may be told apart.
const sourceUnavailable = () =>
  new DomainError(
    "not_found",
    "ACTION_INTEREST_SOURCE_UNAVAILABLE",
    "No live, non-synthetic search receipt returned this domain.",
  );

function receiptBody(row: ReceiptRow) {
  return {
    receipt_id: row.id,
    search_id: row.searchId,
    domain: row.domain,
    action_type: row.actionType as ActionType,
    caller_attests_principal_interest: true as const,
    confirmation_version: ACTION_INTEREST_CONFIRMATION_VERSION,
    recorded_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    provider_contacted: false as const,
    ticket_created: false as const,
    charge_created: false as const,
    commercial_proof: false as const,
    organic_rank_affected: false as const,
  };
}

export type ActionInterestReceipt = ReturnType<typeof receiptBody>;

/** Records the receipt; `created` is false for an exact replay of an earlier one. */
export async function recordActionInterest({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: ActionInterestInput;
}): Promise<{ created: boolean; receipt: ActionInterestReceipt }> {
  const domain = normalizeDomain(input.domain);
  if (!domain) throw sourceUnavailable();

  // One round trip: the insert, then the receipt as stored, in one batch. The insert is the one
  // statement that decides: the receipt exists only if the live, real search returned this domain,
  // and the unique (search_id, domain) constraint settles racing requests. The read after it, a
  // statement of its own, sees what the insert met (a racing insert is waited for and committed
  // by then), so an exact replay is answered without a second trip.
  const [inserted, stored] = await ctx.db.batch([
    ctx.db
      .insert(actionInterestReceipts)
      .select(
        ctx.db
          .select({
            id: sql`gen_random_uuid()`.as("id"),
            searchId: searchReceipts.searchId,
            domain: sql`${domain}::text`.as("domain"),
            actionType: sql`${input.actionType}`.as("action_type"),
            confirmationVersion: sql`${ACTION_INTEREST_CONFIRMATION_VERSION}`.as("confirmation_version"),
            createdAt: sql`now()`.as("created_at"),
            expiresAt: searchReceipts.expiresAt,
          })
          .from(searchReceipts)
          .where(and(liveReturnedResult(input.searchId, domain), not(searchReceipts.synthetic))),
      )
      // The unique key carries the search's expiry (the partition key); one search has one expiry.
      .onConflictDoNothing({
        target: [actionInterestReceipts.searchId, actionInterestReceipts.domain, actionInterestReceipts.expiresAt],
      })
      .returning(),
    ctx.db
      .select()
      .from(actionInterestReceipts)
      .where(
        and(
          eq(actionInterestReceipts.searchId, input.searchId),
          eq(actionInterestReceipts.domain, domain),
          gt(actionInterestReceipts.expiresAt, sql`now()`),
        ),
      ),
  ]);
  const created = inserted[0];
  if (created) return { created: true, receipt: receiptBody(created) };

  const existing = stored[0];
  if (!existing) throw sourceUnavailable();
  if (existing.actionType !== input.actionType) {
    throw new DomainError(
      "conflict",
      "ACTION_INTEREST_CONFLICT",
      `This result already recorded a different action (${existing.actionType}).`,
    );
  }
  return { created: false, receipt: receiptBody(existing) };
}
