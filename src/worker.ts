/**
 * Builds a Worker's exported handlers from the groups it runs: `fetch` always, `scheduled` only
 * when one of its groups declares a cron task, `queue` only when one consumes a queue. Entry files
 * in functions/ are one call to createWorker.
 *
 * - A cron runs every task declared for its expression, whichever groups declared them, each
 *   whatever the others do; a failed task fails the run (after the others finished).
 * - A queue has one consumer per Worker: two groups consuming the same queue are refused when
 *   the Worker is built, at module load, so it never starts (and the unit tests, which load every
 *   entry, fail first).
 * - A cron or queue the Worker has no job for is logged and throws, so the run shows as failed in
 *   the Cron Events and the tail, and a batch's messages are retried (then dead-lettered) rather
 *   than dropped.
 */
import { createApp } from "./app.ts";
import { createDependencies } from "./deps.ts";
import type { CronTask, QueueConsumer } from "./jobs/group-jobs.ts";
import type { GroupDefinition } from "./routes/group-definition.ts";
import { SERVICE_ENDPOINTS } from "./routes/service-endpoints.ts";

// Jobs have no request: links they build use PUBLIC_ORIGIN, or this placeholder when unset.
const JOB_ORIGIN = "https://localhost";

/** The handlers an entry file exports as its default. */
export interface WorkerHandlers {
  fetch: ExportedHandlerFetchHandler;
  scheduled?: ExportedHandlerScheduledHandler;
  queue?: ExportedHandlerQueueHandler;
}

/** Groups' job declarations that cannot run together in one Worker. */
export class JobDeclarationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JobDeclarationError";
  }
}

/** A cron or queue invocation that no group of this Worker declared a job for. */
export class UnknownJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnknownJobError";
  }
}

interface NamedCronTask extends CronTask {
  group: string;
}

/** Cron expression → every task declared for it, in the groups' order. */
function cronTable(groups: GroupDefinition[]): Map<string, NamedCronTask[]> {
  const table = new Map<string, NamedCronTask[]>();
  for (const group of groups) {
    for (const task of group.jobs?.crons ?? []) {
      table.set(task.cron, [...(table.get(task.cron) ?? []), { ...task, group: group.name }]);
    }
  }
  return table;
}

/** Queue name → its one consumer. */
function queueTable(groups: GroupDefinition[]): Map<string, QueueConsumer & { group: string }> {
  const table = new Map<string, QueueConsumer & { group: string }>();
  for (const group of groups) {
    for (const consumer of group.jobs?.queues ?? []) {
      const taken = table.get(consumer.queue);
      if (taken) {
        // Cloudflare delivers a queue's batches to one consumer; two could not share messages.
        throw new JobDeclarationError(
          `queue "${consumer.queue}" is consumed by both the ${taken.group} and the ${group.name} group; one Worker has one consumer per queue`,
        );
      }
      table.set(consumer.queue, { ...consumer, group: group.name });
    }
  }
  return table;
}

function unknownJob(message: string): UnknownJobError {
  console.error(message);
  return new UnknownJobError(message);
}

const quoted = (names: Iterable<string>) => [...names].map((name) => `"${name}"`).join(", ") || "none";

async function runCron(
  table: Map<string, NamedCronTask[]>,
  controller: ScheduledController,
  env: unknown,
): Promise<void> {
  const tasks = table.get(controller.cron);
  if (!tasks) {
    throw unknownJob(`no task for cron "${controller.cron}"; this Worker's crons: ${quoted(table.keys())}`);
  }
  const deps = createDependencies(env as Record<string, unknown>, JOB_ORIGIN);
  const outcomes = await Promise.allSettled(tasks.map((task) => task.run(deps, controller)));
  const failures: unknown[] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.status === "fulfilled") return;
    console.error(`cron "${controller.cron}": task "${tasks[i]?.name}" (${tasks[i]?.group}) failed`, outcome.reason);
    failures.push(outcome.reason);
  });
  if (failures.length > 0) {
    throw new AggregateError(failures, `cron "${controller.cron}": ${failures.length} of ${tasks.length} tasks failed`);
  }
}

/**
 * The Worker of these groups: their endpoints (describing the whole service) and handlers for
 * exactly the jobs they declare. Throws JobDeclarationError when two groups consume one queue.
 *
 * @example export default createWorker([checksGroup]); // functions/checks.ts
 */
export function createWorker(groups: GroupDefinition[]): WorkerHandlers {
  const crons = cronTable(groups);
  const queues = queueTable(groups);
  // The whole service's endpoint list comes generated: building every group's routes here would
  // bundle them all into every Worker.
  const app = createApp(
    groups.map((group) => group.createRoutes()),
    { endpoints: SERVICE_ENDPOINTS },
  );
  const worker: WorkerHandlers = {
    fetch: (request, env, ctx) => app.fetch(request, env as Record<string, unknown>, ctx),
  };
  if (crons.size > 0) worker.scheduled = (controller, env) => runCron(crons, controller, env);
  if (queues.size > 0) {
    worker.queue = async (batch, env) => {
      const consumer = queues.get(batch.queue);
      if (!consumer) {
        throw unknownJob(`no consumer for queue "${batch.queue}"; this Worker consumes: ${quoted(queues.keys())}`);
      }
      await consumer.consume(createDependencies(env as Record<string, unknown>, JOB_ORIGIN), batch);
    };
  }
  return worker;
}
