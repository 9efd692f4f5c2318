/**
 * The provider group: claims and keys on a session, and the provider-key endpoints; it owns the
 * ownership recheck and the daily retention purge.
 */

import { withSigning } from "../../http/middleware/signing.ts";
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import { recheckClaimsTask } from "../../jobs/recheck-claims.ts";
import { retentionPurgeTask } from "../../jobs/retention-purge.ts";
import type { GroupDefinition } from "../group-definition.ts";
import { registerCreateClaim } from "./create-claim.ts";
import { registerCreateOffer } from "./create-offer.ts";
import { registerDemand } from "./demand.ts";
import { registerGetOffer } from "./get-offer.ts";
import { registerGetProviderReceipt } from "./get-provider-receipt.ts";
import { registerListClaims } from "./list-claims.ts";
import { registerListOffers } from "./list-offers.ts";
import { registerPauseOffer } from "./pause-offer.ts";
import { registerPilotStatus } from "./pilot-status.ts";
import { registerRecordCommercialAcceptance } from "./record-commercial-acceptance.ts";
import { registerRecordOutcome } from "./record-outcome.ts";
import { registerResolveControlledIntent } from "./resolve-controlled-intent.ts";
import { registerRevokeClaim } from "./revoke-claim.ts";
import { registerRotateClaimChallenge } from "./rotate-claim-challenge.ts";
import { registerRotateProviderKey } from "./rotate-provider-key.ts";
import { registerUpdateOffer } from "./update-offer.ts";
import { registerVerifyClaim } from "./verify-claim.ts";

/** Builds the provider group's endpoints. */
export function createProviderGroup(): RouteGroup {
  const routes = createRoutes();
  // Before the routes, so each of them finds the signing keys on its dependencies.
  routes.use("*", withSigning());
  registerListClaims(routes);
  registerCreateClaim(routes);
  registerVerifyClaim(routes);
  registerRotateClaimChallenge(routes);
  registerRevokeClaim(routes);
  registerRotateProviderKey(routes);
  registerPilotStatus(routes);
  registerListOffers(routes);
  registerCreateOffer(routes);
  registerGetOffer(routes);
  registerUpdateOffer(routes);
  registerPauseOffer(routes);
  registerRecordCommercialAcceptance(routes);
  registerResolveControlledIntent(routes);
  registerRecordOutcome(routes);
  registerGetProviderReceipt(routes);
  registerDemand(routes);
  return { name: "provider", routes };
}

/** The provider group in a Worker: its endpoints, the ownership recheck and the retention purge crons. */
export const providerGroup: GroupDefinition = {
  name: "provider",
  createRoutes: createProviderGroup,
  jobs: { crons: [recheckClaimsTask, retentionPurgeTask] },
};
