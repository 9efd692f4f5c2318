/**
 * The provider group: claims and keys on a session, and the provider-key endpoints; it owns the
 * daily ownership recheck.
 */
import { createRoutes, type GroupDefinition, type RouteGroup } from "../../http/routes.ts";
import { recheckClaimsTask } from "../../jobs/recheck-claims.ts";
import { registerClaimRoutes } from "./claims.ts";
import { registerGetProviderReceipt } from "./get-provider-receipt.ts";
import { registerPilotStatus } from "./pilot-status.ts";
import { registerRecordOutcome } from "./record-outcome.ts";
import { registerResolveControlledIntent } from "./resolve-controlled-intent.ts";

/** Builds the provider group's endpoints. */
export function createProviderGroup(): RouteGroup {
  const routes = createRoutes();
  registerClaimRoutes(routes);
  registerPilotStatus(routes);
  registerResolveControlledIntent(routes);
  registerRecordOutcome(routes);
  registerGetProviderReceipt(routes);
  return { name: "provider", routes };
}

/** The provider group in a Worker: its endpoints and the ownership recheck cron. */
export const providerGroup: GroupDefinition = {
  name: "provider",
  createRoutes: createProviderGroup,
  jobs: { crons: [recheckClaimsTask] },
};
