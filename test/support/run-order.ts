/**
 * The order vitest hands test files to its workers. Vitest's own order (`BaseSequencer`) keeps
 * each group's projects in alphabetical order, and within a project puts the files that failed
 * or took longest last time first (on a fresh clone, with no times, the largest files). This
 * keeps that order within each project but ranks the projects of a group by `PROJECT_RANK`: the
 * projects whose files are long come first, so that their longest file does not start when the
 * group is nearly done (the protocol project's `search-index`, about 100 s, used to start after
 * every integration file, at 190 s of a 310 s group) and the short unit files fill the end.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Projects earlier in this list start first within their group; unlisted ones come last. */
export const PROJECT_RANK = [
  "protocol",
  "integration",
  "bundles",
  "integration-guarded",
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
