/**
 * Vitest global setup of the browser tests: one `npm start` for the whole project (a small demo
 * index in memory, private addresses allowed so the live check can reach the fixture sites) and
 * the fixture sites the tests check, submit and verify. The tests read both through `inject`.
 */
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "../../scripts/wrangler-dev.ts";
import { serveFixtureSites } from "./fixture-sites.ts";
import { migratedPgliteDump } from "./migrated-pglite-setup.ts";
import { launchService, SERVICE_START_WITHIN_MS } from "./npm-start.ts";

/** The fixture sites the browser tests use: every signal but MCP, and a plain-JSON MCP server. */
export const BROWSER_FIXTURE_SITES = ["all-six-signals", "mcp-json", "checklist-flawed"];

declare module "vitest" {
  export interface ProvidedContext {
    /** The origin of the running service. */
    serviceOrigin: string;
    /** Each fixture site's origin by name. */
    fixtureOrigins: Record<string, string>;
    /** The local outbox of the running service (`GET {outbox}/messages?to=`). */
    outboxOrigin: string;
    /** The local DNS zone of the running service (`PUT {zone}/records`). */
    dnsZoneOrigin: string;
    /** A file that holds why the service did not start, once it did not. */
    serviceStartFailure: string;
  }
}

/**
 * Starts the service and returns at once: the start (about 12 s alone, more beside the first
 * group's files) goes on while the other projects' files run, and each browser file waits for it
 * (test/support/browser-service-ready.ts). A start that fails is written to `serviceStartFailure`,
 * so that those waits end at once with npm start's output rather than at their deadline.
 */
export default async function setup(project: TestProject) {
  const startFrom = await migratedPgliteDump();
  const fixtures = await serveFixtureSites(BROWSER_FIXTURE_SITES);
  // Chosen here rather than by npm start, so that the tests know them before it has printed them.
  const [mailPort, dnsPort] = [await freePort(), await freePort()];
  const service = await launchService({
    PGLITE_DATA_DIR: "memory",
    // Migrated already (scripts/local-stack/migrated-pglite.ts): the start applies none.
    PGLITE_START_FROM: startFrom,
    DEMO_SITES: "300",
    FETCH_ALLOW_PRIVATE: "true",
    PUBLIC_ORIGIN: "",
    LOCAL_MAIL_PORT: String(mailPort),
    LOCAL_DNS_PORT: String(dnsPort),
  });
  const failure = join(tmpdir(), `browser-stack-${process.pid}-${mailPort}.failed`);
  // A start that dies fails at once (its process is watched), so this only bounds a start that is
  // alive and working: beside other runs on 2 cores one took more than 90 s.
  service.ready(SERVICE_START_WITHIN_MS).catch((error: Error) => writeFileSync(failure, error.message));
  project.provide("serviceOrigin", service.origin);
  project.provide("serviceStartFailure", failure);
  project.provide("outboxOrigin", `http://127.0.0.1:${mailPort}`);
  project.provide("dnsZoneOrigin", `http://127.0.0.1:${dnsPort}`);
  project.provide("fixtureOrigins", fixtures.origins);
  return async () => {
    service.stop();
    await fixtures.stop();
    rmSync(failure, { force: true });
  };
}
