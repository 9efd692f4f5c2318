/**
 * `npm run cron -- <name>`: runs one of the Worker's crons now on the running `npm start`, as
 * its schedule would (scripts/local-crons.ts). <name> is a task's name (`recheck-claims`,
 * `recrawl-stale-sites`, …) or its cron expression; without one, lists them. The running stack
 * is found by itself (scripts/local-run.ts); with several running, PORT names the one.
 *
 * Exits 0 when the scheduled handler ran to the end, 1 when it failed (the Worker's log says
 * why), 2 on a usage error or when no running stack is found.
 */

import { resolveCron, triggerCron } from "./local-crons.ts";
import { findLocalRun } from "./local-run.ts";

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  let run: ReturnType<typeof findLocalRun>;
  try {
    run = findLocalRun({ port: process.env.PORT });
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const list = run.crons.map((entry) => `  ${entry.tasks.join(", ") || "(no task)"}  ${entry.cron}`).join("\n");
  if (!name || rest.length > 0) {
    console.error(`usage: npm run cron -- <name>\nthe crons of the Worker on port ${run.port}:\n${list}`);
    return 2;
  }
  let cron: string;
  try {
    cron = resolveCron(run.crons, name);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const tasks = run.crons.find((entry) => entry.cron === cron)?.tasks ?? [];
  console.log(`running cron "${cron}" (${tasks.join(", ")}) on the Worker of port ${run.port}`);
  const { ok, outcome } = await triggerCron(run.wranglerPort, cron);
  console.log(`cron "${cron}": ${outcome}`);
  return ok ? 0 : 1;
}

process.exit(await main());
