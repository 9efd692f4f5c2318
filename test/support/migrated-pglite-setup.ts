/**
 * Vitest global setup of the projects that open embedded databases (protocol, e2e): one dump of a
 * migrated PGlite for their files to start from (`inject("migratedPglite")`), made once per set of
 * migrations (scripts/local-stack/migrated-pglite.ts) rather than the 40 migrations once per file.
 */
import type { TestProject } from "vitest/node";
import { migratedPgliteDump } from "../../scripts/local-stack/migrated-pglite.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A dump of an embedded database with every migration applied (`pgliteStartFrom`, `PGLITE_START_FROM`). */
    migratedPglite: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide("migratedPglite", await migratedPgliteDump());
}
