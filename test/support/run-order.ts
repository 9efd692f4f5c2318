/**
 * The order vitest hands test files to its workers. Vitest's own order (`BaseSequencer`) keeps
 * each group's projects in alphabetical order, and within a project puts the files that failed
 * or took longest last time first (on a fresh clone, with no times, the largest files). This
 * keeps that order within each project but ranks the projects of a group by `PROJECT_RANK`, so
 * that a long file does not start when its group is nearly done: the checker's comparison of the
 * whole fixture web (about 100 s, mostly waiting) starts with the first group, the short unit
 * files fill its end, and in the later group the e2e starts come before the browser pages.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Projects earlier in this list start first within their group; unlisted ones come last. */
export const PROJECT_RANK = [
  "e2e-checker",
  "bundles",
  "integration",
  "integration-guarded",
  "protocol",
  "unit",
  "e2e",
  "browser",
  "integration-alone",
];

function rank(spec: TestSpecification): number {
  const index = PROJECT_RANK.indexOf(spec.project.name);
  return index === -1 ? PROJECT_RANK.length : index;
}

export class ProjectRankSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    return [...sorted].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        rank(a) - rank(b) ||
        (position.get(a) ?? 0) - (position.get(b) ?? 0),
    );
  }
}
