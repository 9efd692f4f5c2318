/**
 * package.json's `engines.node` is a promise to whoever installs the project: every package the
 * lock file installs must run on every Node version that range admits, or npm warns EBADENGINE
 * and the claim is false. Optional packages npm skipped here (platform builds for another os, cpu
 * or libc) are not installed, so they are left out.
 */
import { existsSync, readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
  os?: string[];
  cpu?: string[];
}

const packageJson = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, LockedPackage> };

/** Whether npm installed this package: optional platform builds for other machines it skips. */
function installedHere(path: string, locked: LockedPackage & { optional?: boolean }): boolean {
  return !locked.optional || existsSync(path);
}

/** Every installed package whose engines.node does not admit the whole declared range. */
function enginesOutside(declared: string, packages: Record<string, LockedPackage>): string[] {
  return Object.entries(packages)
    .filter(([path, locked]) => path !== "" && installedHere(path, locked))
    .flatMap(([path, locked]) => {
      const node = Array.isArray(locked.engines) ? undefined : locked.engines?.node;
      if (!node || semver.subset(declared, node, { includePrerelease: false })) return [];
      return [`${path}@${locked.version}: node ${node}`];
    });
}

describe("engines", () => {
  it("the running Node is one the declared range admits", () => {
    expect(semver.satisfies(process.versions.node, packageJson.engines.node)).toBe(true);
  });

  it("every installed package admits every Node version package.json declares", () => {
    expect(enginesOutside(packageJson.engines.node, lock.packages)).toEqual([]);
  });

  it("finds a package that needs a newer Node than declared", () => {
    const packages = {
      "": {},
      "node_modules/a": { version: "5.1.0", engines: { node: ">=22" } },
      "node_modules/b": { version: "1.0.0", engines: { node: ">=18" } },
      "node_modules/x/node_modules/c": { version: "3.1.1", engines: { node: "^20.0.0 || >=22" } },
      "node_modules/not-installed-here": { version: "1.0.0", engines: { node: ">=22" }, optional: true },
    };
    expect(enginesOutside(">=20", packages)).toEqual([
      "node_modules/a@5.1.0: node >=22",
      "node_modules/x/node_modules/c@3.1.1: node ^20.0.0 || >=22",
    ]);
    expect(enginesOutside("^20.19.0 || >=22", { "node_modules/c": packages["node_modules/x/node_modules/c"] })).toEqual(
      [],
    );
  });
});
