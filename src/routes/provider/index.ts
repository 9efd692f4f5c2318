/**
 * The provider group: claims and keys on a session, and the provider-key endpoints; it owns the
 * ownership recheck and the daily retention purge.
 */
import { createRoutes, type GroupDefinition, type RouteGroup } from "../../http/routes.ts";
import { recheckClaimsTask } from "../../jobs/recheck-claims.ts";
import { retentionPurgeTask } from "../../jobs/retention-purge.ts";
import { registerClaimRoutes } from "./claims.ts";
import { registerCreateOffer } from "./create-offer.ts";
import { registerDemand } from "./demand.ts";
import { registerGetOffer } from "./get-offer.ts";
import { registerListOffers } from "./list-offers.ts";
import { registerPauseOffer } from "./pause-offer.ts";
import { registerPilotStatus } from "./pilot-status.ts";
import { registerRecordCommercialAcceptance } from "./record-commercial-acceptance.ts";
import { registerUpdateOffer } from "./update-offer.ts";

/** Builds the provider group's endpoints. */
export function createProviderGroup(): RouteGroup {
  const routes = createRoutes();
  registerClaimRoutes(routes);
  registerPilotStatus(routes);
  registerDemand(routes);
  registerListOffers(routes);
  registerCreateOffer(routes);
  registerGetOffer(routes);
  registerUpdateOffer(routes);
  registerPauseOffer(routes);
  registerRecordCommercialAcceptance(routes);
  return { name: "provider", routes };
}

/** The provider group in a Worker: its endpoints, the ownership recheck and the retention purge crons. */
export const providerGroup: GroupDefinition = {
  name: "provider",
  createRoutes: createProviderGroup,
  jobs: { crons: [recheckClaimsTask, retentionPurgeTask] },
};
