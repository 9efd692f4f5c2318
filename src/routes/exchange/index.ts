/** The exchange group: public action interests (later: action tickets, handoff, receipt verify). */
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import { registerRecordActionInterest } from "./record-action-interest.ts";

export function createExchangeGroup(): RouteGroup {
  const routes = createRoutes();
  registerRecordActionInterest(routes);
  return { name: "exchange", routes };
}
