/**
 * The Worker's job handlers, built on the same dependencies as requests: the crawl queue's
 * consumer and the cron triggers. Entry files in functions/ export them.
 */
import { createDependencies } from "../http/middleware/dependencies.ts";
import { consumeCrawlBatch } from "./crawl-consumer.ts";
import { recrawlStaleSites } from "./recrawl-stale.ts";

/** Cron expression of the stale-site recrawl, as in wrangler.toml. */
export const RECRAWL_CRON = "*/10 * * * *";

// Jobs have no request: links they build use PUBLIC_ORIGIN, or this placeholder when unset.
const JOB_ORIGIN = "https://localhost";

export const queueHandler: ExportedHandlerQueueHandler = async (batch, env) => {
  const deps = createDependencies(env as Record<string, unknown>, JOB_ORIGIN);
  await consumeCrawlBatch(deps, batch);
};

export const scheduledHandler: ExportedHandlerScheduledHandler = async (controller, env) => {
  const deps = createDependencies(env as Record<string, unknown>, JOB_ORIGIN);
  if (controller.cron === RECRAWL_CRON) await recrawlStaleSites(deps);
  else console.warn(`no task for cron "${controller.cron}"`);
};
