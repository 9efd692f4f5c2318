/**
 * The two stores the local Upstash-protocol endpoint can sit in front of: an in-memory Redis
 * (ioredis-mock, the default) and a real Redis server (ioredis).
 */
import IORedis from "ioredis";
import RedisMock from "ioredis-mock";
import { type MockKeySpace, memoryExpiryCommands } from "./memory-expiry-commands.ts";

export type RedisReply = { result: unknown } | { error: string };

export interface RedisBackend {
  readonly description: string;
  /** Whether the store understands Redis 7 `#!lua flags=…` script shebangs. */
  readonly understandsShebang: boolean;
  command(args: string[]): Promise<unknown>;
  /** Runs commands in order; one failing does not stop the rest. */
  pipeline(commands: string[][]): Promise<RedisReply[]>;
  /** Runs commands as one MULTI/EXEC transaction. */
  transaction(commands: string[][]): Promise<RedisReply[]>;
  close(): Promise<void>;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function openRedisServerBackend(url: string): Promise<RedisBackend> {
  const redis = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  await redis.connect();
  const toReplies = (rows: [Error | null, unknown][] | null): RedisReply[] =>
    (rows ?? []).map(([error, result]) => (error ? { error: errorMessage(error) } : { result }));
  return {
    description: `Redis server (${new URL(url).host})`,
    understandsShebang: true,
    command: ([name, ...args]) => redis.call(name as string, ...args),
    async pipeline(commands) {
      const pipeline = redis.pipeline();
      for (const [name, ...args] of commands) pipeline.call(name as string, ...args);
      return toReplies(await pipeline.exec());
    },
    async transaction(commands) {
      const multi = redis.multi();
      for (const [name, ...args] of commands) multi.call(name as string, ...args);
      return toReplies(await multi.exec());
    },
    close: async () => {
      redis.disconnect();
    },
  };
}

export function openMemoryBackend(): RedisBackend {
  const mock = new RedisMock();
  const redis = mock as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  // Where ioredis-mock's commands differ from Redis on what the service sends (SET's options in
  // lower case, KEEPTTL, EXPIRE's conditions, TTL's rounding), Redis' own rules run instead.
  const exactCommands = memoryExpiryCommands(mock as unknown as MockKeySpace);
  // ioredis-mock awaits between commands; running one request at a time keeps scripts and
  // MULTI blocks atomic with respect to other requests, as a Redis server does.
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  const run = async ([name, ...args]: string[]): Promise<unknown> => {
    const exact = exactCommands.get((name ?? "").toLowerCase());
    if (exact) return exact(args);
    const method = redis[(name ?? "").toLowerCase()];
    if (typeof method !== "function") throw new Error(`ERR unknown command '${name}'`);
    const result = await method.apply(redis, args);
    // ioredis-mock answers INCR and friends on a non-number with NaN where Redis refuses.
    if (typeof result === "number" && Number.isNaN(result)) {
      throw new Error("ERR value is not an integer or out of range");
    }
    return result;
  };
  const runAll = async (commands: string[][]): Promise<RedisReply[]> => {
    const replies: RedisReply[] = [];
    for (const command of commands) {
      try {
        replies.push({ result: await run(command) });
      } catch (error) {
        replies.push({ error: errorMessage(error) });
      }
    }
    return replies;
  };
  return {
    description: "in-memory store",
    understandsShebang: false,
    command: (args) => exclusive(() => run(args)),
    pipeline: (commands) => exclusive(() => runAll(commands)),
    transaction: (commands) => exclusive(() => runAll(commands)),
    close: async () => undefined,
  };
}
