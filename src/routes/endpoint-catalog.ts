/** Describes every endpoint of a set of groups, from their own route definitions. */
import type { RouteGroup } from "../http/routes.ts";

interface RouteDefinition {
  type: string;
  route?: { method: string; path: string; operationId?: string; summary?: string };
}

/** operationId → "METHOD /path: summary", paths relative to /api/v1 as in the spec. */
export function endpointCatalog(groups: RouteGroup[]): Record<string, string> {
  const entries: [string, string][] = [];
  for (const group of groups) {
    for (const definition of group.routes.openAPIRegistry.definitions as RouteDefinition[]) {
      const route = definition.type === "route" ? definition.route : undefined;
      if (!route?.operationId) continue;
      entries.push([route.operationId, `${route.method.toUpperCase()} ${route.path}: ${route.summary ?? ""}`.trim()]);
    }
  }
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}
