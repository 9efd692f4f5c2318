/**
 * Where the integration tests' local stack listens, and the Worker bindings that point at it.
 * Shared by vitest.config.mts (bindings) and the global setup (which starts the stack).
 */
import type { FakeZone } from "./fake-doh.ts";

export const TEST_SQL_PORT = Number(process.env.TEST_SQL_PORT ?? 15480);
export const TEST_REDIS_PORT = Number(process.env.TEST_REDIS_PORT ?? 15481);
export const TEST_REDIS_TOKEN = "integration-test-token";
/** The integration tests' key for rate-limit identities (a fixed one: tests can recompute keys). */
export const TEST_RATE_LIMIT_KEY_SECRET = "integration-test-rate-limit-key-secret";
/** The signing key rings of the integration Worker (tests rebuild bearers and receipts with them). */
export const TEST_ATTRIBUTION_KEYS = "att-test-1:integration-attribution-secret-0123456789";
export const TEST_RECEIPT_KEYS =
  "rcpt-test-2:integration-receipt-secret-0123456789ab,rcpt-test-1:integration-old-receipt-secret-0123456789";
/** The fixture web's first port: fixture site i listens on this + i. */
export const TEST_FIXTURE_BASE_PORT = Number(process.env.TEST_FIXTURE_PORT ?? 15600);
/** The local stack's mail outbox and DNS zone (ownership proofs). */
export const TEST_MAIL_PORT = Number(process.env.TEST_MAIL_PORT ?? 15482);
export const TEST_DNS_PORT = Number(process.env.TEST_DNS_PORT ?? 15483);
export const TEST_MAIL_KEY = "re_integration_test_key";
/** The local stack's Stripe stand-in; it records signed events and delivers none (tests post them). */
export const TEST_STRIPE_PORT = Number(process.env.TEST_STRIPE_PORT ?? 15484);
export const TEST_STRIPE_KEY = "sk_test_integration";
export const TEST_STRIPE_WEBHOOK_SECRET = "whsec_integration_test_secret";
/** The MCP Registry namespace key the integration Worker publishes (RFC 8032's first test key). */
export const TEST_MCP_REGISTRY_PUBLIC_KEY = "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=";
/** The fake DNS-over-HTTPS resolver the guarded Worker vets addresses with. */
export const TEST_DOH_PORT = Number(process.env.TEST_DOH_PORT ?? 15590);

/** Names the fake resolver answers, to prove a name is vetted by the addresses behind it. */
export const TEST_DNS_ZONES = {
  "intranet-alias.example": { A: ["10.1.2.3"] },
  "loopback-alias.example": { A: ["127.0.0.1"] },
  "metadata-alias.example": { A: ["169.254.169.254"] },
  "mixed-alias.example": { A: ["93.184.216.34", "192.168.0.10"] },
  "v6-private-alias.example": { AAAA: ["fd12:3456::1"] },
  "cname-to-private.example": { cname: "intranet-alias.example" },
  // A private address beside a public one, its record's type spelt "1" or "AAAA" rather than a number.
  "spelled-private-alias.example": { A: ["93.184.216.34", "10.1.2.3"], typeSpellings: ["number", "numeric-string"] },
  "mnemonic-private-alias.example": {
    AAAA: ["2606:2800:220:1:248:1893:25c8:1946", "fd12:3456::1"],
    typeSpellings: ["number", "mnemonic"],
    dataTrailingDot: true,
  },
} satisfies Record<string, FakeZone>;

/**
 * How long a test Worker waits on a silent store before it takes it for an outage (503, or a
 * limit failing open). The stores answer from a Node process beside the tests (the local stack's
 * SQL-over-HTTP and Redis REST endpoints; for `npm start`, the embedded PGlite and its Redis
 * stand-in on one thread), which on a loaded machine can hold an answer for seconds: at the
 * defaults (1.5 s, 0.8 s) a CI run of 2026-12-03 beside other work failed a burst of searches
 * open without RateLimit headers, and answered `POST /check` 503 through `npm start`. A slow
 * machine is not an outage; a store that is really gone is still told apart, 5 s later. Tests
 * of the timeouts set their own.
 */
export const LOADED_MACHINE_STORE_TIMEOUTS = { REDIS_TIMEOUT_MS: "5000", DATABASE_TIMEOUT_MS: "5000" };

/**
 * The Worker's bindings in the integration tests. `allowPrivate` lets the crawler reach the fixture
 * web on 127.0.0.1; the guarded project runs without it, as production does.
 */
export function integrationBindings(runId: string, { allowPrivate = true } = {}): Record<string, string> {
  return {
    DATABASE_URL: `postgres://local:local@127.0.0.1:${TEST_SQL_PORT}/local`,
    DATABASE_LOCAL_HTTP: "true",
    UPSTASH_REDIS_REST_URL: `http://127.0.0.1:${TEST_REDIS_PORT}`,
    UPSTASH_REDIS_REST_TOKEN: TEST_REDIS_TOKEN,
    // A fresh prefix per run: limits and caches of earlier runs on a shared Redis never leak in.
    REDIS_KEY_PREFIX: `test-${runId}`,
    RATE_LIMIT_KEY_SECRET: TEST_RATE_LIMIT_KEY_SECRET,
    FETCH_ALLOW_PRIVATE: String(allowPrivate),
    DOH_URL: `http://127.0.0.1:${TEST_DOH_PORT}/dns-query`,
    MCP_REGISTRY_PUBLIC_KEY: TEST_MCP_REGISTRY_PUBLIC_KEY,
    OWNERSHIP_DOH_URLS: `http://127.0.0.1:${TEST_DNS_PORT}/dns-query`,
    MAIL_API_URL: `http://127.0.0.1:${TEST_MAIL_PORT}`,
    MAIL_API_KEY: TEST_MAIL_KEY,
    MAIL_FROM: "Agent Readiness Search <mail@svc.test>",
    STRIPE_SECRET_KEY: TEST_STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: TEST_STRIPE_WEBHOOK_SECRET,
    STRIPE_API_URL: `http://127.0.0.1:${TEST_STRIPE_PORT}`,
    ATTRIBUTION_SIGNING_KEYS: TEST_ATTRIBUTION_KEYS,
    RECEIPT_SIGNING_KEYS: TEST_RECEIPT_KEYS,
    // Small cron batches: the test database holds many stale sites of other tests.
    RECRAWL_BATCH_SIZE: "20",
    FIXTURE_BASE_PORT: String(TEST_FIXTURE_BASE_PORT),
    ...LOADED_MACHINE_STORE_TIMEOUTS,
    // test/integration/fuzz.test.ts: replay a seed, or run more requests, from the shell.
    ...(process.env.FUZZ_SEED ? { FUZZ_SEED: process.env.FUZZ_SEED } : {}),
    ...(process.env.FUZZ_COUNT ? { FUZZ_COUNT: process.env.FUZZ_COUNT } : {}),
    ...(process.env.FUZZ_BUDGET_MS ? { FUZZ_BUDGET_MS: process.env.FUZZ_BUDGET_MS } : {}),
  };
}
