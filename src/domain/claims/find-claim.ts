import { sql } from "drizzle-orm";
import type { SessionActor } from "../actor.ts";
import { DomainError } from "../errors.ts";
import type { ClaimContext } from "./claim-context.ts";
import type { ClaimRow } from "./claim-record.ts";

export const claimNotFound = () => new DomainError("not_found", "CLAIM_NOT_FOUND", "No such claim.");

/** The claim if it is the actor's; another account's claim is indistinguishable from none (404). */
export async function findOwnedClaim(
  ctx: Pick<ClaimContext, "db">,
  actor: SessionActor,
  claimId: string,
): Promise<ClaimRow> {
  const result = await ctx.db.execute(
    sql`select * from provider_claims where id = ${claimId} and account_id = ${actor.accountId}`,
  );
  const row = result.rows[0] as ClaimRow | undefined;
  if (!row) throw claimNotFound();
  return row;
}
