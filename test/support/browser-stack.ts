/**
 * Vitest global setup of the browser tests: one `npm start` for the whole project (a small demo
 * index in memory, private addresses allowed so the live check can reach the fixture sites) and
 * the fixture sites the tests check, submit and verify. The tests read both through `inject`.
 */
import type { TestProject } from "vitest/node";
import { serveFixtureSites } from "./fixture-sites.ts";
import { startService } from "./npm-start.ts";

/** The fixture sites the browser tests use: every signal but MCP, and a plain-JSON MCP server. */
export const BROWSER_FIXTURE_SITES = ["all-six-signals", "mcp-json"];

declare module "vitest" {
  export interface ProvidedContext {
    /** The origin of the running service. */
    serviceOrigin: string;
    /** Each fixture site's origin by name. */
    fixtureOrigins: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  const fixtures = await serveFixtureSites(BROWSER_FIXTURE_SITES);
  const service = await startService({
    PGLITE_DATA_DIR: "memory",
    DEMO_SITES: "300",
    FETCH_ALLOW_PRIVATE: "true",
    PUBLIC_ORIGIN: "",
  }).catch(async (error) => {
    await fixtures.stop();
    throw error;
  });
  project.provide("serviceOrigin", service.origin);
  project.provide("fixtureOrigins", fixtures.origins);
  return async () => {
    service.stop();
    await fixtures.stop();
  };
}
