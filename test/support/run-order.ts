/**
 * The order vitest hands test files to its workers. Vitest's own order (`BaseSequencer`) keeps
 * each group's projects in alphabetical order, and within a project puts the files that failed
 * or took longest last time first (on a fresh clone, with no times, the largest files). Here the
 * files of `LONG_FILES` start first in their group, then the projects go in `PROJECT_RANK`'s
 * order, each in vitest's: a file of 100 s that starts when its group is nearly done makes the
 * group 100 s longer (the protocol project's `search-index`, last of its project, used to), and
 * the short unit files are best at the end, filling the last workers. Within a project the files
 * of `KNOWN_SECONDS` go first. In the later group the browser files go first: their `pages`
 * (about 50 s) is its longest file.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Files of a minute or more in a whole run (2026-12-02: 95 s to 140 s each), longest first. */
export const LONG_FILES = [
  "test/e2e/npm-start.test.ts",
  "test/protocol/search-index.test.ts",
  "test/e2e/readiness-cli.test.ts",
];

/**
 * Seconds other files took in a whole run (2026-12-02, 20 s or more): within its project a file
 * listed here starts before the unlisted ones, longest first (the rest keep vitest's order).
 */
export const KNOWN_SECONDS: Record<string, number> = {
  "test/browser/pages.test.ts": 50,
  "test/e2e/npm-start-data-dir.test.ts": 50,
  "test/integration/fuzz.test.ts": 45,
  "test/protocol/top-list.test.ts": 40,
  "test/e2e/npm-start-damaged-data-dir.test.ts": 33,
  "test/e2e/dogfood.test.ts": 27,
  "test/integration/ard-registry.test.ts": 26,
  "test/browser/console.test.ts": 23,
  "test/integration/check.test.ts": 22,
};

/** Projects earlier in this list start first within their group; unlisted ones come last. */
export const PROJECT_RANK = [
  "bundles",
  "integration",
  "integration-guarded",
  "e2e-beside",
  "protocol",
  "unit",
  "browser",
  "e2e",
  "integration-alone",
];

/** Where a name goes in `list`: its index, or after every listed one. */
function place(list: string[], name: string): number {
  const index = list.indexOf(name);
  return index === -1 ? list.length : index;
}

const file = (spec: TestSpecification) => relative(spec.project.config.root, spec.moduleId);

function rank(spec: TestSpecification): number {
  return place(LONG_FILES, file(spec)) * PROJECT_RANK.length + place(PROJECT_RANK, spec.project.name);
}

export class ProjectRankSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    return [...sorted].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        rank(a) - rank(b) ||
        (KNOWN_SECONDS[file(b)] ?? 0) - (KNOWN_SECONDS[file(a)] ?? 0) ||
        (position.get(a) ?? 0) - (position.get(b) ?? 0),
    );
  }
}
