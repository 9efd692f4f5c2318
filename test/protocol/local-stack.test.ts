/**
 * Protocol fidelity of the local stack: the real client libraries (Neon's serverless driver,
 * drizzle's neon-http, @upstash/redis, @upstash/ratelimit) used unchanged against it, once in
 * front of the embedded defaults and, when TEST_DATABASE_URL / TEST_REDIS_URL name them, in front
 * of real Postgres and Redis servers.
 */
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import { sql as drizzleSql, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sites } from "../../db/schema/index.ts";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import { createDatabase, createSqlClient, postgresErrorCode } from "../../src/adapters/db.ts";
import { freshServerDatabase } from "../support/server-database.ts";

const serverDatabase = process.env.TEST_DATABASE_URL || undefined;
const serverRedis = process.env.TEST_REDIS_URL || undefined;

const variants = [
  { name: "embedded PGlite + in-memory Redis", server: false },
  ...(serverDatabase || serverRedis ? [{ name: "Postgres and Redis servers", server: true }] : []),
];

const stacks = new Map<boolean, Promise<LocalStack>>();

/** One stack per variant, shared by the describe blocks below and stopped at the end. */
function stackFor(server: boolean): Promise<LocalStack> {
  let stack = stacks.get(server);
  if (!stack) {
    stack = (async () => {
      const started = await startLocalStack({
        databaseUrl: server && serverDatabase ? await freshServerDatabase(serverDatabase, "protocol") : undefined,
        redisUrl: server ? serverRedis : undefined,
        pgliteDataDir: "memory",
        pgliteStartFrom: inject("migratedPglite"),
        sqlPort: 0,
        redisPort: 0,
      });
      await migrate({ databaseUrl: started.databaseUrl, localHttp: true });
      return started;
    })();
    stacks.set(server, stack);
  }
  return stack;
}

afterAll(async () => {
  for (const stack of stacks.values()) await (await stack).stop();
});

// The raw driver's own type parsing is checked first: constructing drizzle's neon-http driver
// switches the Neon driver's date parsers off process-wide (drizzle maps dates itself).
describe.each(variants)("local stack in front of $name", ({ server }) => {
  let stack: LocalStack;
  let sql: ReturnType<typeof createSqlClient>;
  let redis: Redis;
  const prefix = `proto-${Date.now()}`;

  beforeAll(async () => {
    stack = await stackFor(server);
    sql = createSqlClient({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    redis = new Redis({ url: stack.redisRestUrl, token: stack.redisRestToken, enableTelemetry: false });
  });

  describe("Neon SQL over HTTP", () => {
    it("returns every common type as the Neon driver parses it", async () => {
      const [row] = (await sql.query(
        `select 9007199254740993::int8 as big, 12.50::numeric(6,2) as money, true as yes, false as no,
                '2026-11-22T10:00:00.123Z'::timestamptz as at, '{"a":[1,"x",null]}'::jsonb as doc,
                array[1,2,3]::int4[] as ints, array['a','b c',null]::text[] as texts,
                null::text as nothing, 42::int4 as small, 1.5::float8 as real, 'zürich ✓'::text as utf8`,
      )) as Record<string, unknown>[];
      expect(row).toEqual({
        big: "9007199254740993",
        money: "12.50",
        yes: true,
        no: false,
        at: new Date("2026-11-22T10:00:00.123Z"),
        doc: { a: [1, "x", null] },
        ints: [1, 2, 3],
        texts: ["a", "b c", null],
        nothing: null,
        small: 42,
        real: 1.5,
        utf8: "zürich ✓",
      });
    });

    it("binds parameters of every kind", async () => {
      const at = new Date("2026-01-02T03:04:05.678Z");
      const [row] = (await sql.query(
        "select $1::int8 as a, $2::bool as b, $3::bool as c, $4::timestamptz as d, $5::jsonb as e, $6::text[] as f, $7::text as g",
        [123, true, false, at, { k: "v" }, ["x", "y"], null],
      )) as Record<string, unknown>[];
      expect(row).toEqual({ a: "123", b: true, c: false, d: at, e: { k: "v" }, f: ["x", "y"], g: null });
    });

    it("reports Postgres error codes: unique violation 23505 with its constraint", async () => {
      await sql.query("insert into sites (domain, url) values ($1, $2)", ["dup.example", "https://dup.example"]);
      const error = await sql
        .query("insert into sites (domain, url) values ($1, $2)", ["dup.example", "https://dup.example"])
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "NeonDbError", code: "23505", constraint: "sites_domain_unique" });
      const syntax = await sql.query("selec 1").catch((e: unknown) => e);
      expect(syntax).toMatchObject({ code: "42601" });
    });

    it("runs a batch as one transaction and rolls it back whole when one statement fails", async () => {
      const results = await sql.transaction([
        sql.query(
          "insert into sites (domain, url) values ('batch-ok.example', 'https://batch-ok.example') returning domain",
        ),
        sql.query("select count(*)::int as n from sites where domain = 'batch-ok.example'"),
      ]);
      expect(results).toEqual([[{ domain: "batch-ok.example" }], [{ n: 1 }]]);

      const failure = await sql
        .transaction([
          sql.query("insert into sites (domain, url) values ('batch-gone.example', 'https://batch-gone.example')"),
          sql.query("insert into sites (domain, url, agentic_score) values ('batch-bad.example', 'x', 101)"),
        ])
        .catch((e: unknown) => e);
      expect(failure).toMatchObject({ code: "23514" });
      const left = await sql.query("select domain from sites where domain like 'batch-%' order by domain");
      expect(left).toEqual([{ domain: "batch-ok.example" }]);
    });

    it("honours a batch's read-only and isolation headers", async () => {
      const error = await sql
        .transaction([sql.query("insert into sites (domain, url) values ('ro.example', 'https://ro.example')")], {
          readOnly: true,
          isolationLevel: "Serializable",
        })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "25006" });
      const [level] = (await sql.transaction([sql.query("show transaction_isolation")], {
        isolationLevel: "RepeatableRead",
      })) as [Record<string, string>[]];
      expect(level).toEqual([{ transaction_isolation: "repeatable read" }]);
    });

    it("lets exactly one of many concurrent identical inserts win", async () => {
      const attempts = await Promise.allSettled(
        Array.from({ length: 16 }, () =>
          sql.query("insert into sites (domain, url) values ('race.example', 'https://race.example') returning id"),
        ),
      );
      const won = attempts.filter((a) => a.status === "fulfilled");
      const lost = attempts.filter((a) => a.status === "rejected") as PromiseRejectedResult[];
      expect(won).toHaveLength(1);
      expect(lost.map((a) => postgresErrorCode(a.reason))).toEqual(Array(15).fill("23505"));
    });
  });

  describe("Upstash REST", () => {
    it("runs commands with base64-encoded replies decoded by the client", async () => {
      const key = `${prefix}:greeting`;
      expect(await redis.set(key, "grüße ✓ OK")).toBe("OK");
      expect(await redis.get(key)).toBe("grüße ✓ OK");
      expect(await redis.ping()).toBe("PONG");
      expect(await redis.incr(`${prefix}:n`)).toBe(1);
      expect(await redis.incrby(`${prefix}:n`, 4)).toBe(5);
      await redis.hset(`${prefix}:h`, { a: "1", b: "two" });
      expect(await redis.hgetall(`${prefix}:h`)).toEqual({ a: 1, b: "two" });
      expect(await redis.expire(`${prefix}:h`, 60)).toBe(1);
      expect(await redis.ttl(`${prefix}:h`)).toBeGreaterThan(50);
      expect(await redis.get(`${prefix}:missing`)).toBeNull();
      await redis.set(`${prefix}:obj`, { nested: [1, 2] });
      expect(await redis.get(`${prefix}:obj`)).toEqual({ nested: [1, 2] });
    });

    it("reports Redis errors as client errors", async () => {
      await redis.set(`${prefix}:text`, "not a number");
      await expect(redis.incr(`${prefix}:text`)).rejects.toThrow(/not an integer/);
    });

    it("runs pipelines and MULTI/EXEC transactions", async () => {
      const pipeline = redis.pipeline();
      pipeline.set(`${prefix}:p`, "1");
      pipeline.incr(`${prefix}:p`);
      pipeline.get(`${prefix}:p`);
      expect(await pipeline.exec()).toEqual(["OK", 2, 2]);
      const multi = redis.multi();
      multi.incr(`${prefix}:m`);
      multi.incr(`${prefix}:m`);
      expect(await multi.exec()).toEqual([1, 2]);
    });

    it("refuses a wrong token", async () => {
      const stranger = new Redis({ url: stack.redisRestUrl, token: "wrong", enableTelemetry: false });
      await expect(stranger.ping()).rejects.toThrow(/Unauthorized/);
    });

    it("runs scripts by EVAL and EVALSHA, with Upstash's script flags", async () => {
      const script = "#!lua flags=allow-key-locking\nreturn {KEYS[1], ARGV[1], 7}";
      expect(await redis.eval(script, ["k"], ["v"])).toEqual(["k", "v", 7]);
      const hash = await redis.scriptLoad(script);
      expect(await redis.evalsha(hash, ["k2"], ["v2"])).toEqual(["k2", "v2", 7]);
      await expect(redis.evalsha("0".repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/);
    });

    it("serves @upstash/ratelimit's sliding and fixed windows exactly", async () => {
      for (const limiter of [Ratelimit.slidingWindow(3, "1 m"), Ratelimit.fixedWindow(3, "1 m")]) {
        const ratelimit = new Ratelimit({ redis, limiter, prefix: `${prefix}:rl:${Math.random()}` });
        const outcomes = [];
        for (let i = 0; i < 5; i++) outcomes.push(await ratelimit.limit("client"));
        expect(outcomes.map((o) => o.success)).toEqual([true, true, true, false, false]);
        expect(outcomes.slice(0, 3).map((o) => o.remaining)).toEqual([2, 1, 0]);
        expect((await ratelimit.limit("another")).success).toBe(true);
      }
    });

    // Every command and option the service sends (the JSON cache's SET … ex, the rate limiter's
    // scripts with their INCRBY and PEXPIRE) and the expiry grammar around them, through the real
    // client: the same assertions hold on the in-memory store and on a Redis server.
    describe("Redis behaviour the service relies on", () => {
      const key = (name: string) => `${prefix}:fidelity:${name}`;
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

      it("keeps a cached value for the cache's lifetime, then forgets it (SET … ex as the client sends it)", async () => {
        await redis.set(key("cache"), { top: ["a.example"] }, { ex: 300 });
        expect(await redis.ttl(key("cache"))).toBe(300);
        expect(await redis.get(key("cache"))).toEqual({ top: ["a.example"] });
        await redis.set(key("short"), "v", { px: 100 });
        expect(await redis.get(key("short"))).toBe("v");
        await sleep(250);
        expect(await redis.get(key("short"))).toBeNull();
        expect(await redis.ttl(key("short"))).toBe(-2);
      });

      it.each(["EX", "ex", "Ex", "eX"])("reads SET's expiry option %s in any letter case", async (option) => {
        const name = key(`case-${option}`);
        expect(await redis.exec(["SET", name, "v", option, "60"])).toBe("OK");
        expect(await redis.ttl(name)).toBe(60);
        expect(await redis.exec(["set", name, "v", option === "EX" ? "PX" : "px", "90000"])).toBe("OK");
        expect(await redis.ttl(name)).toBe(90);
      });

      it("sets only absent keys with NX and only present ones with XX, in any letter case", async () => {
        expect(await redis.set(key("nx"), "first", { nx: true })).toBe("OK");
        expect(await redis.set(key("nx"), "second", { nx: true })).toBeNull();
        expect(await redis.exec(["SET", key("nx"), "third", "Nx"])).toBeNull();
        expect(await redis.get(key("nx"))).toBe("first");
        expect(await redis.set(key("xx"), "first", { xx: true })).toBeNull();
        expect(await redis.get(key("xx"))).toBeNull();
        await redis.set(key("xx"), "first");
        expect(await redis.exec(["SET", key("xx"), "second", "xX", "EX", "30"])).toBe("OK");
        expect(await redis.get(key("xx"))).toBe("second");
        expect(await redis.ttl(key("xx"))).toBe(30);
      });

      it("keeps the TTL with KEEPTTL and drops it on a plain SET", async () => {
        await redis.set(key("keep"), "a", { ex: 120 });
        expect(await redis.set(key("keep"), "b", { keepTtl: true })).toBe("OK");
        expect(await redis.ttl(key("keep"))).toBe(120);
        expect(await redis.exec(["SET", key("keep"), "c", "KEEPTTL"])).toBe("OK");
        expect(await redis.ttl(key("keep"))).toBe(120);
        expect(await redis.get(key("keep"))).toBe("c");
        await redis.set(key("keep"), "d");
        expect(await redis.ttl(key("keep"))).toBe(-1);
      });

      it("answers SET … GET with the old value, combined with NX and an expiry", async () => {
        expect(await redis.set(key("get"), "old")).toBe("OK");
        expect(await redis.set(key("get"), "new", { get: true, ex: 40 })).toBe("old");
        expect(await redis.ttl(key("get"))).toBe(40);
        expect(await redis.set(key("get"), "newer", { nx: true, get: true })).toBe("new");
        expect(await redis.get(key("get"))).toBe("new");
        expect(await redis.set(key("get-absent"), "v", { get: true })).toBeNull();
        await redis.hset(key("get-hash"), { f: "v" });
        await expect(redis.set(key("get-hash"), "v", { get: true })).rejects.toThrow(/WRONGTYPE/);
      });

      it.each([
        [["NX", "XX"], /syntax error/],
        [["EX", "10", "PX", "10"], /syntax error/],
        [["KEEPTTL", "EX", "10"], /syntax error/],
        [["EX"], /syntax error/],
        [["SOON"], /syntax error/],
        [["EX", "0"], /invalid expire time in 'set' command/],
        [["px", "-5"], /invalid expire time in 'set' command/],
        [["EX", "ten"], /not an integer or out of range/],
        [["EX", "1.5"], /not an integer or out of range/],
      ])("refuses SET with %j as Redis does, writing nothing", async (options, message) => {
        const name = key(`bad-${options.join("-")}`);
        await expect(redis.exec(["SET", name, "v", ...options])).rejects.toThrow(message);
        expect(await redis.exists(name)).toBe(0);
      });

      it("sets, tightens and reads expiries with EXPIRE and PEXPIRE and their NX, XX, GT and LT", async () => {
        const name = key("expire");
        expect(await redis.expire(name, 60)).toBe(0);
        expect(await redis.ttl(name)).toBe(-2);
        await redis.set(name, "v");
        expect(await redis.ttl(name)).toBe(-1);
        expect(await redis.pttl(name)).toBe(-1);
        expect(await redis.expire(name, 60, "XX")).toBe(0);
        expect(await redis.expire(name, 60, "GT")).toBe(0);
        expect(await redis.expire(name, 60, "NX")).toBe(1);
        expect(await redis.ttl(name)).toBe(60);
        expect(await redis.exec(["EXPIRE", name, "30", "nx"])).toBe(0);
        expect(await redis.exec(["EXPIRE", name, "30", "gt"])).toBe(0);
        expect(await redis.exec(["expire", name, "90", "Gt"])).toBe(1);
        expect(await redis.ttl(name)).toBe(90);
        expect(await redis.expire(name, 120, "LT")).toBe(0);
        expect(await redis.pexpire(name, 45_000, "LT")).toBe(1);
        expect(await redis.ttl(name)).toBe(45);
        expect(await redis.pttl(name)).toBeGreaterThan(44_000);
        expect(await redis.pttl(name)).toBeLessThanOrEqual(45_000);
        await expect(redis.exec(["EXPIRE", name, "10", "NX", "XX"])).rejects.toThrow(/not compatible/);
        await expect(redis.exec(["EXPIRE", name, "10", "GT", "LT"])).rejects.toThrow(/not compatible/);
        await expect(redis.exec(["EXPIRE", name, "10", "SOON"])).rejects.toThrow(/Unsupported option SOON/);
        await expect(redis.exec(["EXPIRE", name, "ten"])).rejects.toThrow(/not an integer or out of range/);
        // Untouched by the refusals: still the 45 s, less what six round trips took (on a loaded
        // machine more than half a second, so read in milliseconds).
        const left = await redis.pttl(name);
        expect(left).toBeGreaterThan(40_000);
        expect(left).toBeLessThanOrEqual(45_000);
      });

      it("deletes a key whose new expiry is not in the future", async () => {
        for (const [command, time] of [
          ["EXPIRE", "0"],
          ["EXPIRE", "-10"],
          ["PEXPIRE", "-1"],
        ] as const) {
          const name = key(`past-${command}-${time}`);
          await redis.set(name, "v");
          expect(await redis.exec([command, name, time])).toBe(1);
          expect(await redis.exists(name)).toBe(0);
          expect(await redis.ttl(name)).toBe(-2);
        }
      });

      it("rounds TTL to the nearest second, as Redis does", async () => {
        // Set and read in one transaction: between two round trips a loaded machine has let more
        // than 200 ms pass (2.7 s read as 2).
        const [, down, , up] = await redis
          .multi()
          .set(key("round-down"), "v", { px: 1_400 })
          .ttl(key("round-down"))
          .set(key("round-up"), "v", { px: 2_700 })
          .ttl(key("round-up"))
          .exec();
        expect([down, up]).toEqual([1, 3]);
      });

      it("keeps a TTL through INCRBY, as the rate limiter's counters need", async () => {
        await redis.set(key("counter"), "1", { ex: 50 });
        expect(await redis.incrby(key("counter"), 2)).toBe(3);
        expect(await redis.ttl(key("counter"))).toBe(50);
      });

      it("expires the rate limiter's counters two windows and a second after their first count", async () => {
        const limiterPrefix = key("rl");
        const ratelimit = new Ratelimit({ redis, limiter: Ratelimit.slidingWindow(5, "10 s"), prefix: limiterPrefix });
        await ratelimit.limit("client");
        await ratelimit.limit("client");
        const counters = await redis.keys(`${limiterPrefix}:client:*`);
        expect(counters).toHaveLength(1);
        const left = await redis.pttl(counters[0] as string);
        expect(left).toBeGreaterThan(20_000);
        expect(left).toBeLessThanOrEqual(21_000);
        expect(await redis.get(counters[0] as string)).toBe(2);
      });

      it("runs the same commands in pipelines and MULTI/EXEC", async () => {
        const pipeline = redis.pipeline();
        pipeline.set(key("piped"), "v", { ex: 70 });
        pipeline.ttl(key("piped"));
        pipeline.set(key("piped"), "w", { keepTtl: true });
        pipeline.ttl(key("piped"));
        expect(await pipeline.exec()).toEqual(["OK", 70, "OK", 70]);
        const multi = redis.multi();
        multi.set(key("multi"), "v", { px: 80_000, nx: true });
        multi.pttl(key("multi"));
        const [set, pttl] = (await multi.exec()) as [string, number];
        expect(set).toBe("OK");
        expect(pttl).toBeGreaterThan(79_000);
      });
    });
  });
});

describe.each(variants)("drizzle over the local stack in front of $name", ({ server }) => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await stackFor(server);
  });

  it("serves drizzle's neon-http driver: inserts, selects, batches and error codes", async () => {
    const db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    const [inserted] = await db
      .insert(sites)
      .values({ domain: "drizzle.example", url: "https://drizzle.example", tags: ["mcp", "search"], agenticScore: 77 })
      .returning();
    expect(inserted).toMatchObject({ domain: "drizzle.example", tags: ["mcp", "search"], agenticScore: 77 });
    expect(inserted?.createdAt).toBeInstanceOf(Date);

    const [count, found] = await db.batch([
      db.select({ n: drizzleSql<number>`count(*)::int` }).from(sites),
      db.select().from(sites).where(eq(sites.domain, "drizzle.example")),
    ]);
    expect(count[0]?.n).toBeGreaterThan(0);
    expect(found[0]?.id).toBe(inserted?.id);

    const duplicate = await db
      .insert(sites)
      .values({ domain: "drizzle.example", url: "x" })
      .catch((e: unknown) => e);
    expect(postgresErrorCode(duplicate)).toBe("23505");
  });
});
