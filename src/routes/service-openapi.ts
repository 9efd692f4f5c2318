/**
 * The OpenAPI document of the whole service, origin-free, as `npm run describe` generated it from
 * every group's route definitions. Imported only by the routes that serve it (the web group's
 * /openapi.json and /docs), so no other Worker bundles it.
 */
import document from "../generated/service-openapi.json";
import type { OpenApiDocument } from "./openapi-spec.ts";

export const SERVICE_OPENAPI_DOCUMENT = document as unknown as OpenApiDocument;
