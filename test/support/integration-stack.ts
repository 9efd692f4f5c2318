/**
 * Vitest global setup of the integration tests: starts the local stack in front of the servers
 * named by TEST_DATABASE_URL / TEST_REDIS_URL (CI: the real Postgres and Redis), or in front of
 * the embedded defaults, applies the migrations to a clean database, and serves the fixture web, a
 * fake DNS resolver and the fault proxies' control endpoint (`inject("faultProxyControl")`).
 */
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startFaultProxyControl } from "../../scripts/fault-proxy.ts";
import { startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import { startFixtureWeb } from "../fixtures/web/server.ts";
import { startFakeDoh } from "./fake-doh.ts";
import { provideOpenApiDocument } from "./openapi-document-setup.ts";
import {
  TEST_DNS_PORT,
  TEST_DNS_ZONES,
  TEST_DOH_PORT,
  TEST_FIXTURE_BASE_PORT,
  TEST_MAIL_KEY,
  TEST_MAIL_PORT,
  TEST_REDIS_PORT,
  TEST_REDIS_TOKEN,
  TEST_SQL_PORT,
  TEST_STRIPE_KEY,
  TEST_STRIPE_PORT,
  TEST_STRIPE_WEBHOOK_SECRET,
} from "./stack-settings.ts";

/** Empties a server database before a run; refuses any database not named for tests. */
async function resetDatabase(url: string) {
  const name = new URL(url).pathname.slice(1);
  if (!/test/i.test(name)) throw new Error(`refusing to reset database "${name}": its name must contain "test"`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("drop schema if exists drizzle cascade; drop schema public cascade; create schema public;");
  } finally {
    await client.end();
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Origin of the fault proxies' control API (scripts/fault-proxy.ts). */
    faultProxyControl: string;
  }
}

export default async function setup(project: TestProject) {
  const databaseUrl = process.env.TEST_DATABASE_URL || undefined;
  const redisUrl = process.env.TEST_REDIS_URL || undefined;
  if (databaseUrl) await resetDatabase(databaseUrl);
  const stack = await startLocalStack({
    databaseUrl,
    redisUrl,
    pgliteDataDir: "memory",
    sqlPort: TEST_SQL_PORT,
    redisPort: TEST_REDIS_PORT,
    redisToken: TEST_REDIS_TOKEN,
    mailPort: TEST_MAIL_PORT,
    mailKey: TEST_MAIL_KEY,
    dnsPort: TEST_DNS_PORT,
    stripePort: TEST_STRIPE_PORT,
    stripeKey: TEST_STRIPE_KEY,
    stripeWebhookSecret: TEST_STRIPE_WEBHOOK_SECRET,
  });
  console.log(`integration stack: ${stack.sqlBackend}; ${stack.redisBackend}`);
  await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
  const fixtureWeb = await startFixtureWeb(TEST_FIXTURE_BASE_PORT);
  const doh = await startFakeDoh(TEST_DNS_ZONES, TEST_DOH_PORT);
  const faultProxies = await startFaultProxyControl();
  project.provide("faultProxyControl", faultProxies.url);
  await provideOpenApiDocument(project);
  return async () => {
    await faultProxies.stop();
    await doh.stop();
    await fixtureWeb.stop();
    await stack.stop();
  };
}
