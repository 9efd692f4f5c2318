/**
 * Set-up of each browser file: waits until the project's one service answers /healthz (its global
 * setup starts it without waiting, test/support/browser-stack.ts), or fails with why it did not
 * start.
 */
import { existsSync, readFileSync } from "node:fs";
import { beforeAll, inject } from "vitest";
import { SERVICE_START_WITHIN_MS } from "./npm-start.ts";

beforeAll(async () => {
  const health = `${inject("serviceOrigin")}/healthz`;
  const failure = inject("serviceStartFailure");
  for (;;) {
    if (existsSync(failure)) throw new Error(`the browser tests' npm start failed: ${readFileSync(failure, "utf8")}`);
    const response = await fetch(health).catch(() => undefined);
    if (response?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, SERVICE_START_WITHIN_MS + 10_000);
