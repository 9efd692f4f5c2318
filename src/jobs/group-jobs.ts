/**
 * What a group declares about the jobs it owns: cron tasks by cron expression and queue consumers
 * by queue name. src/worker.ts turns the declarations of a Worker's groups into its `scheduled`
 * and `queue` handlers.
 */
import type { Dependencies } from "../deps.ts";

/** A task run each time its cron expression fires. */
export interface CronTask {
  /** The expression exactly as wrangler.toml lists it: Cloudflare hands it back as `controller.cron`. */
  cron: string;
  /** Names the task in logs. */
  name: string;
  run: (deps: Dependencies, controller: ScheduledController) => Promise<void>;
}

/** The consumer of one queue: handles each batch, acknowledging or retrying every message. */
export interface QueueConsumer {
  /** The queue's name as wrangler.toml's `[[queues.consumers]]` lists it: a batch's `batch.queue`. */
  queue: string;
  consume: (deps: Dependencies, batch: MessageBatch<unknown>) => Promise<void>;
}

/** The jobs one group owns. */
export interface GroupJobs {
  crons?: CronTask[];
  queues?: QueueConsumer[];
}
