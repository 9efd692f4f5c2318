/**
 * The Worker's crons in local runs. `wrangler dev` never fires scheduled handlers on its own, so
 * `npm start` does what Cloudflare does in production: at each time a cron expression of
 * wrangler.toml's `[triggers]` names (UTC, as Cloudflare reads them), it calls the scheduled
 * handler with that expression, through wrangler dev's trigger URL
 * (`/cdn-cgi/handler/scheduled?cron=<expression>`) on wrangler's own port behind the local edge.
 * `npm run cron -- <name>` (scripts/cron.ts) triggers one now the same way.
 */
import { readFileSync } from "node:fs";
import { Cron } from "croner";
import { parse } from "smol-toml";
import { ALL_GROUPS } from "../src/routes/groups.ts";

/** The cron expressions of the default Worker (the one `wrangler dev` and `npm start` run). */
export function cronSchedules(wranglerToml: string): string[] {
  const config = parse(wranglerToml) as { triggers?: { crons?: unknown } };
  const crons = config.triggers?.crons;
  if (!Array.isArray(crons) || !crons.every((cron) => typeof cron === "string")) return [];
  return crons;
}

/** A task's name as typed on a command line: "recrawl stale sites" → "recrawl-stale-sites". */
export function commandName(taskName: string): string {
  return taskName.trim().toLowerCase().replace(/\s+/g, "-");
}

/** Each scheduled expression with the command names of the tasks the Worker runs for it. */
export function cronTable(expressions: string[]): { cron: string; tasks: string[] }[] {
  const tasks = ALL_GROUPS.flatMap((group) => group.jobs?.crons ?? []);
  return expressions.map((cron) => ({
    cron,
    tasks: tasks.filter((task) => task.cron === cron).map((task) => commandName(task.name)),
  }));
}

/** The crons of wrangler.toml in this directory, with their tasks. */
export function localCronTable(file = "wrangler.toml"): { cron: string; tasks: string[] }[] {
  return cronTable(cronSchedules(readFileSync(file, "utf8")));
}

/** The expression `name` stands for: a task's command name or an expression of the table. */
export function resolveCron(table: { cron: string; tasks: string[] }[], name: string): string {
  const wanted = name.trim();
  const match = table.find((entry) => entry.cron === wanted || entry.tasks.includes(commandName(wanted)));
  if (!match) {
    const known = table.map((entry) => `${entry.tasks.join(", ") || "(no task)"} (${entry.cron})`).join("; ");
    throw new Error(`no cron named "${name}"; the Worker's crons: ${known}`);
  }
  return match.cron;
}

/** wrangler dev's trigger URL for one cron expression. */
export function scheduledUrl(wranglerPort: number, cron: string): string {
  return `http://127.0.0.1:${wranglerPort}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(cron)}`;
}

/** Runs the Worker's scheduled handler for `cron` now; resolves with its outcome ("ok" or why not). */
export async function triggerCron(wranglerPort: number, cron: string): Promise<{ ok: boolean; outcome: string }> {
  const response = await fetch(scheduledUrl(wranglerPort, cron));
  const outcome = (await response.text()).trim() || `HTTP ${response.status}`;
  return { ok: response.ok, outcome };
}

/** A running schedule: stop() ends every timer. */
export interface CronScheduler {
  /** When each expression fires next. */
  next(): { cron: string; at: Date | null }[];
  stop(): void;
}

/**
 * Fires `run(cron)` at each time each expression names, in UTC. A run still going when its
 * expression fires again is not started twice (Cloudflare, too, does not overlap one Worker's cron).
 */
export function scheduleCrons(expressions: string[], run: (cron: string) => Promise<void>): CronScheduler {
  const jobs = expressions.map(
    (cron) =>
      new Cron(cron, { timezone: "UTC", protect: true }, async () => {
        await run(cron);
      }),
  );
  return {
    next: () => jobs.map((job, i) => ({ cron: expressions[i]!, at: job.nextRun() })),
    stop: () => {
      for (const job of jobs) job.stop();
    },
  };
}
