/**
 * `npm run describe`: writes the service's description, generated from every group's route
 * definitions, to src/generated/: the endpoint list of the descriptor (service-endpoints.json) and
 * the OpenAPI document without its origin (service-openapi.json).
 *
 * Why files: each group deploys as a Worker of its own that bundles only its group's routes
 * (docs/operations.md), yet describes the whole service. Building the description at run time
 * would bundle every group's routes and their handlers into every Worker. `npm test` checks the
 * files against the routes (test/unit/service-description.test.ts): after changing a route's
 * definition, run this and commit what it wrote. `--check` only compares and fails on a difference.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createGroups } from "../src/routes/groups.ts";
import { describeService } from "../src/routes/service-description.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The generated files: path relative to the root → content. */
export function serviceDescriptionFiles(): Record<string, string> {
  const { endpoints, openApi } = describeService(createGroups());
  return {
    "src/generated/service-endpoints.json": `${JSON.stringify(endpoints, null, 2)}\n`,
    "src/generated/service-openapi.json": `${JSON.stringify(openApi, null, 2)}\n`,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const [path, content] of Object.entries(serviceDescriptionFiles())) {
    const current = (() => {
      try {
        return readFileSync(`${root}${path}`, "utf8");
      } catch {
        return "";
      }
    })();
    if (current === content) continue;
    stale += 1;
    if (check) console.error(`${path} is out of date: run npm run describe`);
    else {
      writeFileSync(`${root}${path}`, content);
      console.log(`wrote ${path}`);
    }
  }
  if (check && stale > 0) process.exit(1);
  if (!check && stale === 0) console.log("the service description is up to date");
}
