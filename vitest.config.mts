import { randomBytes } from "node:crypto";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { integrationBindings } from "./test/support/stack-settings.ts";

const runId = randomBytes(4).toString("hex");

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: ["test/unit/**/*.test.{ts,tsx}"],
        },
      },
      {
        // The deployable bundles: which jobs each holds, and the size budget (builds them unless
        // WORKER_BUNDLES_DIR names the ones `npm test` already built).
        test: {
          name: "bundles",
          environment: "node",
          include: ["test/bundles/**/*.test.{ts,tsx}"],
          hookTimeout: 240_000,
        },
      },
      {
        test: {
          name: "protocol",
          environment: "node",
          include: ["test/protocol/**/*.test.{ts,tsx}"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["test/e2e/**/*.test.{ts,tsx}"],
          // Every answer of the running service's API is held to its OpenAPI document.
          setupFiles: ["test/support/e2e-contract.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The pages in Debian's Chromium, against one `npm start` for the whole project.
        test: {
          name: "browser",
          environment: "node",
          include: ["test/browser/**/*.test.{ts,tsx}"],
          globalSetup: ["test/support/browser-stack.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: integrationBindings(runId) },
          }),
        ],
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.{ts,tsx}"],
          globalSetup: ["test/support/integration-stack.ts"],
          testTimeout: 30_000,
        },
      },
      {
        // The fetch guards as in production (no private addresses), against the same local stack.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: integrationBindings(runId, { allowPrivate: false }) },
          }),
        ],
        test: {
          name: "integration-guarded",
          // The stack is the integration project's; this only hands over the published document.
          globalSetup: ["test/support/openapi-document-setup.ts"],
          include: ["test/integration-guarded/**/*.test.{ts,tsx}"],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
