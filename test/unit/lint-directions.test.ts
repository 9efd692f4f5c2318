/**
 * The dependency directions of ARCHITECTURE.md ("Layout"), kept by Biome's noRestrictedImports in
 * biome.json: a deliberate violation of each one must fail `npm run lint`. Each probe is written
 * where the rule applies, linted with the project's own configuration, and removed.
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

/** Lints one probe file at `path` (relative to the root) and gives Biome's exit status and output. */
function lintProbe(path: string, source: string): { status: number | null; output: string } {
  const file = join(root, path);
  writeFileSync(file, source);
  try {
    const result = spawnSync(join(root, "node_modules/.bin/biome"), ["lint", "--max-diagnostics=20", path], {
      cwd: root,
      encoding: "utf8",
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(file, { force: true });
  }
}

const probeName = () => `lint-probe-${process.pid}-${Math.random().toString(36).slice(2, 8)}.ts`;

describe("lint directions", () => {
  const cases = [
    {
      direction: "routes import no adapter",
      path: `src/routes/discovery/${probeName()}`,
      source: 'import { createDatabase } from "../../adapters/db.ts";\nexport const probe = createDatabase;\n',
    },
    {
      direction: "routes import no database module",
      path: `src/routes/discovery/${probeName()}`,
      source: 'import { sql } from "drizzle-orm";\nexport const probe = sql;\n',
    },
    {
      direction: "pages import no database schema",
      path: `src/routes/web/${probeName()}`,
      source: 'import { sites } from "../../../db/schema/sites.ts";\nexport const probe = sites;\n',
    },
    {
      direction: "domain imports no Hono",
      path: `src/domain/search/${probeName()}`,
      source: 'import { Hono } from "hono";\nexport const probe = Hono;\n',
    },
    {
      direction: "domain imports no Hono helper",
      path: `src/domain/search/${probeName()}`,
      source: 'import { html } from "hono/html";\nexport const probe = html;\n',
    },
    {
      direction: "adapters import no domain rules",
      path: `src/adapters/${probeName()}`,
      source:
        'import { agenticScore } from "../domain/scoring/agentic-score.ts";\nexport const probe = agenticScore;\n',
    },
  ];

  for (const { direction, path, source } of cases) {
    it(`fails lint when ${direction} is broken`, () => {
      const { status, output } = lintProbe(path, source);
      expect(status, output).not.toBe(0);
      expect(output).toContain("noRestrictedImports");
    });
  }

  it("passes a probe that keeps every direction (the rules are not simply always failing)", () => {
    const { status, output } = lintProbe(
      `src/domain/search/${probeName()}`,
      'import { DomainError } from "../errors.ts";\nexport const probe = DomainError;\n',
    );
    expect(status, output).toBe(0);
  });
});
