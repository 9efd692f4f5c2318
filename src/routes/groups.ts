/** Every endpoint group of the service; the all-in-one Worker mounts them all. */
import { runLiveChecksInProcess } from "../domain/checks/in-process-live-checks.ts";
import type { RouteGroup } from "../http/routes.ts";
import { authGroup, createAuthGroup } from "./auth/index.ts";
import { checksGroup, createChecksGroup } from "./checks/index.ts";
import { commerceGroup, createCommerceGroup } from "./commerce/index.ts";
import { createDiscoveryGroup, discoveryGroup } from "./discovery/index.ts";
import { createExchangeGroup, exchangeGroup } from "./exchange/index.ts";
import type { GroupDefinition } from "./group-definition.ts";
import { defineMcpGroup } from "./mcp/index.ts";
import { createMonitorGroup, monitorGroup } from "./monitor/index.ts";
import { createProviderGroup, providerGroup } from "./provider/index.ts";
import { createWebGroup, webGroup } from "./web/index.ts";

/**
 * The mcp group where the checks group runs beside it: its tools call the live check in this
 * isolate, with the request's dependencies. The mcp group's own Worker calls the checks Worker
 * instead (functions/mcp.ts).
 */
const mcpGroup = defineMcpGroup((_bindings, deps) => runLiveChecksInProcess(deps));

/**
 * Every group's endpoints. Every Worker builds them all to describe the whole service, so this
 * table names route factories only, never a group's jobs (which would then be in every bundle).
 */
export const GROUP_FACTORIES = {
  discovery: createDiscoveryGroup,
  checks: createChecksGroup,
  exchange: createExchangeGroup,
  mcp: mcpGroup.createRoutes,
  auth: createAuthGroup,
  provider: createProviderGroup,
  commerce: createCommerceGroup,
  monitor: createMonitorGroup,
  web: createWebGroup,
} satisfies Record<string, () => RouteGroup>;

export type GroupName = keyof typeof GROUP_FACTORIES;

/** Every group with the jobs it owns, in GROUP_FACTORIES' order: what the all-in-one Worker runs. */
export const ALL_GROUPS: GroupDefinition[] = [
  discoveryGroup,
  checksGroup,
  exchangeGroup,
  mcpGroup,
  authGroup,
  providerGroup,
  commerceGroup,
  monitorGroup,
  webGroup,
];

/** Builds the named groups' endpoints (every group's by default). */
export function createGroups(names: GroupName[] = Object.keys(GROUP_FACTORIES) as GroupName[]): RouteGroup[] {
  return names.map((name) => GROUP_FACTORIES[name]());
}
