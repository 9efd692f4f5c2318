/**
 * Vitest global setup that hands the test files the OpenAPI document the Worker under test
 * publishes (as GET /openapi.json builds it, for the origin the tests call, http://svc.test), so
 * every answer is held to it (test/support/worker.ts) without each file building it in workerd.
 * The integration project's stack setup calls it; the guarded and alone projects, which share that
 * stack, use it alone.
 *
 * Built once per vitest process: each project loads its global setups through its own module
 * runner, and loading the Worker's routes to build the document took each of them about 3.5 s
 * before any test ran (2026-12-02). The builder is imported only when nothing has built it yet.
 */
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The OpenAPI document the Worker under test publishes at /openapi.json, as JSON text. */
    openApiDocument: string;
  }
}

const BUILT = Symbol.for("agent-readiness.openapi-document");

async function publishedDocument(): Promise<string> {
  const shared = globalThis as { [BUILT]?: string };
  if (shared[BUILT] === undefined) {
    const { createGroups } = await import("../../src/routes/groups.ts");
    const { buildOpenApiDocument, withOrigin } = await import("../../src/routes/openapi-spec.ts");
    shared[BUILT] = JSON.stringify(withOrigin(buildOpenApiDocument(createGroups()), "http://svc.test"));
  }
  return shared[BUILT];
}

export async function provideOpenApiDocument(project: TestProject): Promise<void> {
  project.provide("openApiDocument", await publishedDocument());
}

export default async function setup(project: TestProject): Promise<void> {
  await provideOpenApiDocument(project);
}
