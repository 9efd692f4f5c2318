/** The exchange group: public action interests, action tickets, handoff and receipt verification. */

import { withSigning } from "../../http/middleware/signing.ts";
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import type { GroupDefinition } from "../group-definition.ts";
import { registerHandOffActionTicket } from "./hand-off-action-ticket.ts";
import { registerPrepareActionTicket } from "./prepare-action-ticket.ts";
import { registerRecordActionInterest } from "./record-action-interest.ts";
import { registerVerifyActionReceipt } from "./verify-action-receipt.ts";

/** Builds the exchange group's endpoints. */
export function createExchangeGroup(): RouteGroup {
  const routes = createRoutes();
  // Before the routes, so each of them finds the signing keys on its dependencies.
  routes.use("*", withSigning());
  registerRecordActionInterest(routes);
  registerPrepareActionTicket(routes);
  registerHandOffActionTicket(routes);
  registerVerifyActionReceipt(routes);
  return { name: "exchange", routes };
}

/** The exchange group in a Worker: its endpoints; it owns no jobs yet. */
export const exchangeGroup: GroupDefinition = { name: "exchange", createRoutes: createExchangeGroup };
