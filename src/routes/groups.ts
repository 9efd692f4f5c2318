/** Every endpoint group of the service; the all-in-one Worker mounts them all. */
import type { RouteGroup } from "../http/routes.ts";
import { createChecksGroup } from "./checks/index.ts";
import { createDiscoveryGroup } from "./discovery/index.ts";
import { createExchangeGroup } from "./exchange/index.ts";
import { createMcpGroup } from "./mcp/index.ts";
import { createWebGroup } from "./web/index.ts";

export const GROUP_FACTORIES = {
  discovery: createDiscoveryGroup,
  checks: createChecksGroup,
  exchange: createExchangeGroup,
  mcp: createMcpGroup,
  web: createWebGroup,
} satisfies Record<string, () => RouteGroup>;

export type GroupName = keyof typeof GROUP_FACTORIES;

export function createGroups(names: GroupName[] = Object.keys(GROUP_FACTORIES) as GroupName[]): RouteGroup[] {
  return names.map((name) => GROUP_FACTORIES[name]());
}
