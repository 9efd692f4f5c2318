/**
 * Vitest global setup that hands the test files the OpenAPI document the Worker under test
 * publishes (as GET /openapi.json builds it, for the origin the tests call, http://svc.test), so
 * every answer is held to it (test/support/worker.ts) without each file building it in workerd.
 * The integration project's stack setup calls it; the guarded project, which shares that stack,
 * uses it alone.
 */
import type { TestProject } from "vitest/node";
import { createGroups } from "../../src/routes/groups.ts";
import { buildOpenApiDocument, withOrigin } from "../../src/routes/openapi-spec.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The OpenAPI document the Worker under test publishes at /openapi.json, as JSON text. */
    openApiDocument: string;
  }
}

export function provideOpenApiDocument(project: TestProject): void {
  project.provide(
    "openApiDocument",
    JSON.stringify(withOrigin(buildOpenApiDocument(createGroups()), "http://svc.test")),
  );
}

export default function setup(project: TestProject): void {
  provideOpenApiDocument(project);
}
