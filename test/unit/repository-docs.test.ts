/**
 * The repository stands on its own: its docs link only to files inside it, and its lockfile lists
 * every optional platform package that package.json's dependencies declare, which `npm ci`
 * requires even for the platforms it will skip.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

function markdownFiles(): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(root, "docs", name));
  return [join(root, "README.md"), ...docs];
}

/** Every path a Markdown file points at: link targets and backticked relative paths. */
function referencedPaths(text: string): string[] {
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
  const quoted = [...text.matchAll(/`(\.\.?\/[^`\s]+)`/g)].map((m) => m[1] as string);
  return [...links, ...quoted].filter((target) => !/^(https?:|mailto:|#)/.test(target));
}

describe("repository documents", () => {
  for (const file of markdownFiles()) {
    it(`${relative(root, file)} links only to files inside the repository that exist`, () => {
      for (const target of referencedPaths(readFileSync(file, "utf8"))) {
        const path = resolve(dirname(file), target.split("#")[0] as string);
        expect(relative(root, path).startsWith(".."), `${target} leaves the repository`).toBe(false);
        expect(existsSync(path), `${target} does not exist`).toBe(true);
      }
    });
  }
});

describe("package-lock.json", () => {
  interface LockEntry {
    optionalDependencies?: Record<string, string>;
  }
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };

  it("has an entry for every optional dependency of every locked package (npm ci needs them)", () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        // npm resolves a dependency in the nearest node_modules up the tree.
        let base = path;
        let found = false;
        for (;;) {
          if (lock.packages[`${base ? `${base}/` : ""}node_modules/${name}`]) {
            found = true;
            break;
          }
          const cut = base.lastIndexOf("/node_modules/");
          if (base === "") break;
          base = cut === -1 ? "" : base.slice(0, cut);
        }
        if (!found) missing.push(`${name} (wanted by ${path || "the root"})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
