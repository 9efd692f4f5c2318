/**
 * Vitest global setup of the e2e tests: one `npm start` (a 300-site demo index in memory) shared
 * by the files that need a running service to talk to but test nothing of its start — the MCP
 * clients and conformance suite (mcp-server.test.ts) and our own crawler (dogfood.test.ts). Global
 * setups run before the first test file, so it comes up while the earlier groups run instead of
 * twice in the e2e group, whose files each waited on a start of their own. The files that test
 * `npm start` itself (npm-start*.test.ts) and those that need other settings start their own.
 */
import type { TestProject } from "vitest/node";
import { startService } from "./npm-start.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The origin of the shared running service. */
    sharedServiceOrigin: string;
    /** What its `npm start` had printed once /healthz answered 200. */
    sharedServiceStartOutput: string;
  }
}

export default async function setup(project: TestProject) {
  const service = await startService(
    // 300 demo sites hold 26 MCP servers scoring 50 or more: enough for every search of
    // mcp-server.test.ts, and 2,700 fewer to load than the default (npm-start.test.ts checks it).
    // PUBLIC_ORIGIN empty: every document names the origin a client reached.
    { PGLITE_DATA_DIR: "memory", DEMO_SITES: "300", PUBLIC_ORIGIN: "" },
    // Beside the integration stack and the browser's `npm start`, on 2 cores (as browser-stack.ts).
    180_000,
  );
  project.provide("sharedServiceOrigin", service.origin);
  project.provide("sharedServiceStartOutput", service.output());
  return () => service.stop();
}
