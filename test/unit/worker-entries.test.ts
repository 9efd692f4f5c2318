/**
 * The deployables as wrangler deploys them: for every environment of wrangler.toml (read by
 * wrangler itself, so inherited keys count as they will in production), its crons and queue
 * consumers are exactly those its groups declare, each listed once, and its entry exports a
 * handler for each kind of job it has and none for the others. The all-in-one Worker fails a
 * cron or a batch it has no job for rather than dropping it.
 */
import { relative, resolve } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { experimental_readRawConfig, unstable_readConfig } from "wrangler";
import type { GroupDefinition } from "../../src/routes/group-definition.ts";
import { ALL_GROUPS, createGroups, GROUP_FACTORIES } from "../../src/routes/groups.ts";
import type { WorkerHandlers } from "../../src/worker.ts";
import allInOne from "../support/all-in-one-jobs.ts";

const root = resolve(import.meta.dirname, "../..");
const configPath = resolve(root, "wrangler.toml");

// Settings that validate; no test here reaches a store.
const env = {
  DATABASE_URL: "postgres://user:pass@db.invalid/app",
  UPSTASH_REDIS_REST_URL: "https://redis.invalid",
  UPSTASH_REDIS_REST_TOKEN: "token",
};
const executionContext = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

const sorted = (values: string[]) => [...values].sort();

/** Every environment: the default one ("" here) runs every group, `[env.<group>]` that group. */
function environments(): { name: string; label: string; groups: GroupDefinition[] }[] {
  const named = Object.keys(experimental_readRawConfig({ config: configPath }).rawConfig.env ?? {});
  return [
    { name: "", label: "the default", groups: ALL_GROUPS },
    ...named.map((name) => ({ name, label: name, groups: ALL_GROUPS.filter((group) => group.name === name) })),
  ];
}

describe("the groups", () => {
  it("are the same in ALL_GROUPS and GROUP_FACTORIES, each named as its routes are", () => {
    expect(ALL_GROUPS.map((group) => group.name)).toEqual(Object.keys(GROUP_FACTORIES));
    for (const group of ALL_GROUPS) {
      expect(group.createRoutes).toBe(GROUP_FACTORIES[group.name as keyof typeof GROUP_FACTORIES]);
      expect(group.createRoutes().name).toBe(group.name);
    }
    expect(createGroups().map((group) => group.name)).toEqual(Object.keys(GROUP_FACTORIES));
  });

  it("each have an environment of wrangler.toml", () => {
    expect(sorted(environments().map((environment) => environment.name))).toEqual(
      sorted(["", ...ALL_GROUPS.map((group) => group.name)]),
    );
  });
});

describe.each(environments())("wrangler.toml environment: $label", ({ name, groups }) => {
  const config = unstable_readConfig({ config: configPath, ...(name && { env: name }) }, { hideWarnings: true });
  const declaredCrons = groups.flatMap((group) => group.jobs?.crons ?? []).map((task) => task.cron);
  const declaredQueues = groups.flatMap((group) => group.jobs?.queues ?? []).map((consumer) => consumer.queue);

  it("runs the entry of its groups", () => {
    expect(groups.length).toBeGreaterThan(0);
    expect(relative(root, config.main ?? "")).toBe(`functions/${name || "all"}.ts`);
  });

  it("lists each cron its groups declare once, and no other", () => {
    const crons = config.triggers.crons ?? [];
    expect(new Set(crons).size, `a cron listed twice: ${crons.join(", ")}`).toBe(crons.length);
    expect(sorted(crons)).toEqual(sorted([...new Set(declaredCrons)]));
  });

  it("consumes each queue its groups declare once, and no other", () => {
    const queues = (config.queues.consumers ?? []).map((consumer: { queue: string }) => consumer.queue);
    expect(sorted(queues)).toEqual(sorted(declaredQueues));
  });

  it("exports fetch, and scheduled and queue only for the jobs it has", async () => {
    const entry = (await import(resolve(root, `functions/${name || "all"}.ts`))) as { default: WorkerHandlers };
    const expected = [
      "fetch",
      ...(declaredCrons.length ? ["scheduled"] : []),
      ...(declaredQueues.length ? ["queue"] : []),
    ];
    expect(sorted(Object.keys(entry.default))).toEqual(sorted(expected));
  });
});

describe("the all-in-one Worker's jobs", () => {
  it("fails a cron it has no task for, and says so in the log", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const controller = { cron: "7 7 * * *", scheduledTime: Date.now(), noRetry() {} } as ScheduledController;
    await expect(allInOne.scheduled(controller, env, executionContext)).rejects.toThrow(/"7 7 \* \* \*"/);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('no task for cron "7 7 * * *"'));
    log.mockRestore();
  });

  it("fails a batch from a queue it does not consume, acknowledging nothing", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const ack = vi.fn();
    const batch = {
      queue: "other-jobs",
      messages: [{ id: "m1", timestamp: new Date(), attempts: 1, body: { domain: 42 }, ack, retry: vi.fn() }],
      ackAll: vi.fn(),
      retryAll: vi.fn(),
    } as unknown as MessageBatch;
    await expect(allInOne.queue(batch, env, executionContext)).rejects.toThrow(/"other-jobs"/);
    expect(ack).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith(expect.stringContaining('no consumer for queue "other-jobs"'));
    log.mockRestore();
  });
});
