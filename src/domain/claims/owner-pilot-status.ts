/**
 * Pilot status for the provider console. The API answers it to a provider key; a console session
 * holds none, and the console must not mint or keep one (keys are shown once and stored hashed).
 * So the console asks the same domain read for the claim a key of it would act for: the
 * signed-in owner's own claim, found by owner (another account's claim is 404), with the read's
 * own rule that the claim is verified and fresh (404 CLAIM_NOT_FRESH otherwise), as for a key.
 */
import type { SessionActor } from "../actor.ts";
import type { ClaimContext } from "./claim-context.ts";
import { findOwnedClaim } from "./find-claim.ts";
import { readPilotStatus } from "./pilot-status.ts";

/** The pilot status of the owner's claim, each collection capped at `limit`. */
export async function readOwnerPilotStatus({
  ctx,
  actor,
  input,
}: {
  ctx: Pick<ClaimContext, "db" | "now">;
  actor: SessionActor;
  input: { claimId: string; limit: number };
}) {
  const claim = await findOwnedClaim(ctx, actor, input.claimId);
  return readPilotStatus({ ctx, actor: { claimId: claim.id }, input: { limit: input.limit } });
}

export type OwnerPilotStatus = Awaited<ReturnType<typeof readOwnerPilotStatus>>;
