/**
 * Vitest global setup of the projects that open embedded databases (protocol, bundles, e2e): one
 * dump of a migrated PGlite for their files to start from (`inject("migratedPglite")`), made once
 * per set of migrations (scripts/local-stack/migrated-pglite.ts) rather than the 40 migrations once
 * per file. The browser project's setup asks for the same one.
 *
 * Made in a process of its own: the global setups share vitest's process, and several of them
 * loading the local stack there (its ioredis) failed the whole run with "Cannot redefine property:
 * default" before any test ran (2026-12-02).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A dump of an embedded database with every migration applied (`pgliteStartFrom`, `PGLITE_START_FROM`). */
    migratedPglite: string;
  }
}

const SCRIPT = fileURLToPath(new URL("../../scripts/local-stack/migrated-pglite.ts", import.meta.url));
const MAKING = Symbol.for("agent-readiness.migrated-pglite");

/** The dump's path; asked once per vitest process (each project loads its global setups apart). */
export function migratedPgliteDump(): Promise<string> {
  const shared = globalThis as { [MAKING]?: Promise<string> };
  shared[MAKING] ??= promisify(execFile)(process.execPath, ["--import", "tsx", SCRIPT], {
    maxBuffer: 1 << 20,
  }).then(({ stdout }) => {
    const path = stdout.trim().split("\n").at(-1) ?? "";
    if (!path.endsWith(".tar")) throw new Error(`no migrated database dump was made:\n${stdout}`);
    return path;
  });
  const made = shared[MAKING];
  made.catch(() => {
    delete shared[MAKING];
  });
  return made;
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide("migratedPglite", await migratedPgliteDump());
}
