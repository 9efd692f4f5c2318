/**
 * createWorker's job handlers, with made-up groups: a Worker exports `scheduled` / `queue` only
 * for the jobs its groups declare, dispatches a cron by its expression and a batch by its queue's
 * name, runs every group's task for a shared cron, refuses two consumers of one queue when it is
 * built, and fails (logged) a cron or queue it has no job for.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Dependencies } from "../../src/http/context.ts";
import { createRoutes } from "../../src/http/routes.ts";
import type { GroupJobs } from "../../src/jobs/group-jobs.ts";
import type { GroupDefinition } from "../../src/routes/group-definition.ts";
import { createWorker, JobDeclarationError, UnknownJobError, type WorkerHandlers } from "../../src/worker.ts";

// Settings that validate; the made-up jobs never reach a store.
const env = {
  DATABASE_URL: "postgres://user:pass@db.invalid/app",
  UPSTASH_REDIS_REST_URL: "https://redis.invalid",
  UPSTASH_REDIS_REST_TOKEN: "token",
};
const executionContext = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

function group(name: string, jobs?: GroupJobs): GroupDefinition {
  return { name, createRoutes: () => ({ name, routes: createRoutes() }), ...(jobs && { jobs }) };
}

function controller(cron: string): ScheduledController {
  return { cron, scheduledTime: Date.now(), noRetry() {} } as ScheduledController;
}

function batch(queue: string): MessageBatch {
  return { queue, messages: [], ackAll() {}, retryAll() {} } as unknown as MessageBatch;
}

function fire(worker: WorkerHandlers, cron: string) {
  if (!worker.scheduled) throw new Error("no scheduled handler");
  return worker.scheduled(controller(cron), env, executionContext);
}

function deliver(worker: WorkerHandlers, queue: string) {
  if (!worker.queue) throw new Error("no queue handler");
  return worker.queue(batch(queue), env, executionContext);
}

const task = () => vi.fn(async (_deps: Dependencies, _event: unknown) => {});

afterEach(() => vi.restoreAllMocks());

describe("the handlers a Worker exports", () => {
  it("is fetch alone when its groups own no jobs", () => {
    expect(Object.keys(createWorker([group("a"), group("b", {})]))).toEqual(["fetch"]);
  });

  it("adds scheduled for crons and queue for queue consumers, each only when declared", () => {
    const crons = createWorker([group("a", { crons: [{ cron: "0 * * * *", name: "hourly", run: task() }] })]);
    expect(Object.keys(crons).sort()).toEqual(["fetch", "scheduled"]);
    const queues = createWorker([group("a", { queues: [{ queue: "q", consume: task() }] })]);
    expect(Object.keys(queues).sort()).toEqual(["fetch", "queue"]);
  });
});

describe("scheduled", () => {
  it("runs the tasks of the cron that fired and no other, with the bindings' dependencies", async () => {
    const hourly = task();
    const nightly = task();
    const worker = createWorker([
      group("a", {
        crons: [
          { cron: "0 * * * *", name: "hourly", run: hourly },
          { cron: "30 2 * * *", name: "nightly", run: nightly },
        ],
      }),
    ]);
    await fire(worker, "30 2 * * *");
    expect(hourly).not.toHaveBeenCalled();
    expect(nightly).toHaveBeenCalledTimes(1);
    const [deps, event] = nightly.mock.calls[0]!;
    expect(deps.config.DATABASE_URL).toBe(env.DATABASE_URL);
    expect(event).toMatchObject({ cron: "30 2 * * *" });
  });

  it("runs every group's task when two groups declare the same cron", async () => {
    const first = task();
    const second = task();
    const worker = createWorker([
      group("a", { crons: [{ cron: "*/5 * * * *", name: "first", run: first }] }),
      group("b", { crons: [{ cron: "*/5 * * * *", name: "second", run: second }] }),
    ]);
    await fire(worker, "*/5 * * * *");
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
  });

  it("still runs the other tasks when one fails, then fails the run naming the task", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    let steadyFinished = false;
    // Finishes a macrotask after the broken task failed: the run must wait for it all the same.
    const steady = vi.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      steadyFinished = true;
    });
    const worker = createWorker([
      group("a", {
        crons: [{ cron: "*/5 * * * *", name: "broken", run: async () => Promise.reject(new Error("boom")) }],
      }),
      group("b", { crons: [{ cron: "*/5 * * * *", name: "steady", run: steady }] }),
    ]);
    const run = fire(worker, "*/5 * * * *");
    await expect(run).rejects.toBeInstanceOf(AggregateError);
    await expect(run).rejects.toThrow('cron "*/5 * * * *": 1 of 2 tasks failed');
    expect(steadyFinished).toBe(true);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('task "broken" (a) failed'), expect.any(Error));
  });

  it("fails, and logs, a cron no group declared, running nothing", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const hourly = task();
    const worker = createWorker([group("a", { crons: [{ cron: "0 * * * *", name: "hourly", run: hourly }] })]);
    await expect(fire(worker, "0 0 * * *")).rejects.toBeInstanceOf(UnknownJobError);
    expect(hourly).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith('no task for cron "0 0 * * *"; this Worker\'s crons: "0 * * * *"');
  });
});

describe("queue", () => {
  it("hands a batch to the consumer of its queue, by name", async () => {
    const crawls = task();
    const mail = task();
    const worker = createWorker([
      group("a", { queues: [{ queue: "crawls", consume: crawls }] }),
      group("b", { queues: [{ queue: "mail", consume: mail }] }),
    ]);
    await deliver(worker, "mail");
    expect(crawls).not.toHaveBeenCalled();
    expect(mail).toHaveBeenCalledTimes(1);
    expect(mail.mock.calls[0]![1]).toMatchObject({ queue: "mail" });
  });

  it("fails, and logs, a batch from a queue no group consumes, handing it to no one", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const crawls = task();
    const worker = createWorker([group("a", { queues: [{ queue: "crawls", consume: crawls }] })]);
    await expect(deliver(worker, "crawls-dead")).rejects.toBeInstanceOf(UnknownJobError);
    expect(crawls).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith('no consumer for queue "crawls-dead"; this Worker consumes: "crawls"');
  });

  it("is refused when the Worker is built if two groups consume the same queue", () => {
    const build = () =>
      createWorker([
        group("a", { queues: [{ queue: "crawls", consume: task() }] }),
        group("b", { queues: [{ queue: "crawls", consume: task() }] }),
      ]);
    expect(build).toThrow(JobDeclarationError);
    expect(build).toThrow('queue "crawls" is consumed by both the a and the b group');
  });
});
