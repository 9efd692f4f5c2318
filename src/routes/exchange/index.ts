/** The exchange group: public action interests (later: action tickets, handoff, receipt verify). */
import { createRoutes, type GroupDefinition, type RouteGroup } from "../../http/routes.ts";
import { registerRecordActionInterest } from "./record-action-interest.ts";

/** Builds the exchange group's endpoints. */
export function createExchangeGroup(): RouteGroup {
  const routes = createRoutes();
  registerRecordActionInterest(routes);
  return { name: "exchange", routes };
}

/** The exchange group in a Worker: its endpoints; it owns no jobs yet. */
export const exchangeGroup: GroupDefinition = { name: "exchange", createRoutes: createExchangeGroup };
