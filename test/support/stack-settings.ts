/**
 * Where the integration tests' local stack listens, and the Worker bindings that point at it.
 * Shared by vitest.config.mts (bindings) and the global setup (which starts the stack).
 */
export const TEST_SQL_PORT = Number(process.env.TEST_SQL_PORT ?? 15480);
export const TEST_REDIS_PORT = Number(process.env.TEST_REDIS_PORT ?? 15481);
export const TEST_REDIS_TOKEN = "integration-test-token";

export function integrationBindings(runId: string): Record<string, string> {
  return {
    DATABASE_URL: `postgres://local:local@127.0.0.1:${TEST_SQL_PORT}/local`,
    DATABASE_LOCAL_HTTP: "true",
    UPSTASH_REDIS_REST_URL: `http://127.0.0.1:${TEST_REDIS_PORT}`,
    UPSTASH_REDIS_REST_TOKEN: TEST_REDIS_TOKEN,
    // A fresh prefix per run: limits and caches of earlier runs on a shared Redis never leak in.
    REDIS_KEY_PREFIX: `test-${runId}`,
  };
}
