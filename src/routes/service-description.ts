/**
 * The service's description as every Worker serves it: the descriptor's endpoint list and the
 * OpenAPI document, each of the whole service whichever groups a Worker runs. Built from the
 * groups' route definitions by `npm run describe` into src/generated/ (see scripts/describe-service.ts
 * for why files), and checked against them by test/unit/service-description.test.ts.
 */
import type { RouteGroup } from "../http/routes.ts";
import { endpointCatalog } from "./endpoint-catalog.ts";
import { buildOpenApiDocument, type OpenApiDocument } from "./openapi-spec.ts";

export interface ServiceDescription {
  /** operationId → "METHOD /path: summary" (the descriptor's `endpoints`). */
  endpoints: Record<string, string>;
  /** The OpenAPI document, origin-free (`withOrigin` adds it). */
  openApi: OpenApiDocument;
}

/** The description of these groups, as JSON would carry it (undefined members dropped). */
export function describeService(groups: RouteGroup[]): ServiceDescription {
  return JSON.parse(
    JSON.stringify({ endpoints: endpointCatalog(groups), openApi: buildOpenApiDocument(groups) }),
  ) as ServiceDescription;
}
