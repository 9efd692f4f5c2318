/**
 * Vitest global setup of the browser tests: one `npm start` for the whole project (a small demo
 * index in memory, private addresses allowed so the live check can reach the fixture sites) and
 * the fixture sites the tests check, submit and verify. The tests read both through `inject`.
 */
import type { TestProject } from "vitest/node";
import { serveFixtureSites } from "./fixture-sites.ts";
import { migratedPgliteDump } from "./migrated-pglite-setup.ts";
import { type RunningService, startService } from "./npm-start.ts";

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
  }
}

/**
 * The outbox and DNS zone `npm start` announces (their ports are free ones it picked). They are
 * printed just after the Worker is up, so they are awaited like /healthz was.
 */
async function printedStack(service: RunningService): Promise<{ outbox: string; dnsZone: string }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const output = service.output();
    const outbox = /^outbox: (http:\/\/\S+?)\/? /m.exec(output)?.[1];
    const dnsZone = /^DNS zone: (http:\/\/\S+?)\/records/m.exec(output)?.[1];
    if (outbox && dnsZone) return { outbox, dnsZone };
    if (Date.now() > deadline) throw new Error(`npm start named no outbox or DNS zone:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export default async function setup(project: TestProject) {
  const startFrom = await migratedPgliteDump();
  const fixtures = await serveFixtureSites(BROWSER_FIXTURE_SITES);
  const service = await startService(
    {
      PGLITE_DATA_DIR: "memory",
      // Migrated already (scripts/local-stack/migrated-pglite.ts): the start applies none.
      PGLITE_START_FROM: startFrom,
      DEMO_SITES: "300",
      FETCH_ALLOW_PRIVATE: "true",
      PUBLIC_ORIGIN: "",
      // As for the integration stack (test/support/stack-settings.ts): the embedded PGlite and its
      // Redis stand-in share one thread, which on a loaded machine can hold an answer behind seconds
      // of SQL work; the defaults (1.5 s, 0.8 s of silence) would take that for an outage and answer
      // 503. A store that is really gone is still told apart, 5 s later.
      DATABASE_TIMEOUT_MS: "5000",
      REDIS_TIMEOUT_MS: "5000",
    },
    // A start that dies fails at once (pollStatus watches its process), so this only bounds a
    // start that is alive and working: beside other runs on 2 cores one took more than 90 s.
    180_000,
  ).catch(async (error) => {
    await fixtures.stop();
    throw error;
  });
  const printed = await printedStack(service).catch((error) => {
    service.stop();
    throw error;
  });
  project.provide("serviceOrigin", service.origin);
  project.provide("outboxOrigin", printed.outbox);
  project.provide("dnsZoneOrigin", printed.dnsZone);
  project.provide("fixtureOrigins", fixtures.origins);
  return async () => {
    service.stop();
    await fixtures.stop();
  };
}
