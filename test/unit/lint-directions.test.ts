/**
 * The dependency directions of docs/architecture.md ("The layers"), kept by Biome's
 * noRestrictedImports in biome.json: a deliberate violation of each one must fail `npm run lint`.
 * Every probe is written where its rule applies, all of them are linted in one Biome run with the
 * project's own configuration (one process, not one per probe), and removed.
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const probeName = (n: number) => `lint-probe-${process.pid}-${n}.ts`;

interface Probe {
  direction: string;
  path: string;
  source: string;
  /** Whether Biome must refuse it. */
  refused: boolean;
}

const probes: Probe[] = [
  {
    direction: "routes import no adapter",
    path: "src/routes/discovery",
    source: 'import { createDatabase } from "../../adapters/db.ts";\nexport const probe = createDatabase;\n',
    refused: true,
  },
  {
    direction: "routes import no database module",
    path: "src/routes/discovery",
    source: 'import { sql } from "drizzle-orm";\nexport const probe = sql;\n',
    refused: true,
  },
  {
    direction: "page routes import no database schema",
    path: "src/routes/web",
    source: 'import { sites } from "../../../db/schema/sites.ts";\nexport const probe = sites;\n',
    refused: true,
  },
  {
    direction: "pages import no route file",
    path: "src/web/pages",
    source: 'import { registerBadge } from "../../routes/web/badge.ts";\nexport const probe = registerBadge;\n',
    refused: true,
  },
  {
    direction: "pages import no adapter",
    path: "src/web",
    source: 'import { createDatabase } from "../adapters/db.ts";\nexport const probe = createDatabase;\n',
    refused: true,
  },
  {
    direction: "domain imports no Hono",
    path: "src/domain/search",
    source: 'import { Hono } from "hono";\nexport const probe = Hono;\n',
    refused: true,
  },
  {
    direction: "domain imports no Hono helper",
    path: "src/domain/search",
    source: 'import { html } from "hono/html";\nexport const probe = html;\n',
    refused: true,
  },
  {
    direction: "adapters import no domain rules",
    path: "src/adapters",
    source: 'import { agenticScore } from "../domain/scoring/agentic-score.ts";\nexport const probe = agenticScore;\n',
    refused: true,
  },
  {
    // The rules are not simply always failing: a probe that keeps every direction passes.
    direction: "domain importing domain",
    path: "src/domain/search",
    source: 'import { DomainError } from "../errors.ts";\nexport const probe = DomainError;\n',
    refused: false,
  },
  {
    direction: "pages importing the site's documents",
    path: "src/web/pages",
    source:
      'import { SITE_PATHS } from "../../domain/descriptor/site-documents.ts";\nexport const probe = SITE_PATHS;\n',
    refused: false,
  },
];

// Two probes that import each other for types only: an import cycle, type-only included, is
// refused (Biome's noImportCycles with ignoreTypes off), each file with its own diagnostic.
const cycleStart = probes.length;
probes.push(
  {
    direction: "a type-only import cycle (first half)",
    path: "src/domain",
    source: `import type { Second } from "./${probeName(cycleStart + 1)}";\nexport type First = Second[];\n`,
    refused: true,
  },
  {
    direction: "a type-only import cycle (second half)",
    path: "src/domain",
    source: `import type { First } from "./${probeName(cycleStart)}";\nexport type Second = string | First;\n`,
    refused: true,
  },
);

const files = probes.map((probe, n) => join(probe.path, probeName(n)));
/** Biome's diagnostics of noRestrictedImports and noImportCycles, by probe file. */
const refusals = new Map<string, number>();
let biomeOutput = "";

// Biome over the probes has taken over 10 s on a loaded machine (a CI run of 2026-12-03).
beforeAll(() => {
  probes.forEach((probe, n) => {
    writeFileSync(join(root, files[n] as string), probe.source);
  });
  const result = spawnSync(
    join(root, "node_modules/.bin/biome"),
    ["lint", "--reporter=json", "--max-diagnostics=200", ...files],
    { cwd: root, encoding: "utf8" },
  );
  biomeOutput = `${result.stdout}${result.stderr}`;
  const report = JSON.parse(result.stdout) as {
    diagnostics: { category: string; location: { path: string } }[];
  };
  for (const diagnostic of report.diagnostics) {
    if (!/(noRestrictedImports|noImportCycles)$/.test(diagnostic.category)) continue;
    const file = diagnostic.location.path;
    refusals.set(file, (refusals.get(file) ?? 0) + 1);
  }
}, 60_000);

afterAll(() => {
  for (const file of files) rmSync(join(root, file), { force: true });
});

describe("lint directions", () => {
  probes.forEach((probe, n) => {
    const file = files[n] as string;
    it(`${probe.refused ? "refuses" : "accepts"} ${probe.direction}`, () => {
      expect(refusals.get(file) ?? 0, biomeOutput).toBe(probe.refused ? 1 : 0);
    });
  });
});
