/**
 * Demand for the provider console. A console session holds no provider key, and the console must
 * not mint or keep one (keys are shown once and stored hashed). So the console asks the same
 * domain read a key would, for the claim a key of it would act for: the signed-in owner's own
 * claim, found by owner (another account's claim is 404), with readDemand's own rule that the
 * claim is verified and fresh (404 CLAIM_NOT_FRESH otherwise), exactly as for a key.
 */
import type { SessionActor } from "../actor.ts";
import type { ClaimContext } from "../claims/claim-context.ts";
import { findOwnedClaim } from "../claims/find-claim.ts";
import { readDemand } from "./read-demand.ts";

/** The demand of the owner's claim domain over the last `days` × 24 hours. */
export async function readOwnerDemand({
  ctx,
  actor,
  input,
}: {
  ctx: Pick<ClaimContext, "db" | "now">;
  actor: SessionActor;
  input: { claimId: string; days: number };
}) {
  const claim = await findOwnedClaim(ctx, actor, input.claimId);
  return readDemand({ ctx, actor: { claimId: claim.id, domain: claim.domain }, days: input.days });
}
