/**
 * An endpoint speaking Upstash's Redis REST protocol (what `@upstash/redis` sends), in front of a
 * RedisBackend.
 *
 * POST / with `["CMD", …args]`, POST /pipeline and POST /multi-exec with `[[…], …]`, each with
 * `Authorization: Bearer <token>`. With `Upstash-Encoding: base64`, string replies are base64.
 *
 * Scripts: Upstash accepts `#!lua flags=allow-key-locking`, which Redis rejects, so the flag is
 * removed before a script reaches the store. Clients address scripts by the SHA-1 of the text they
 * sent, so EVALSHA is resolved here against the scripts this endpoint has seen (NOSCRIPT when it has
 * not, which makes clients fall back to EVAL, as they do against Upstash).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import { BadRequest, readJson, sendJson } from "./http.ts";
import type { RedisBackend, RedisReply } from "./redis-backends.ts";
import { epochMs, type ServedCallObserver } from "./served-calls.ts";
import { answerRequestCounts, type StoreDistance, travel } from "./store-distance.ts";

const UPSTASH_ONLY_FLAGS = new Set(["allow-key-locking"]);

/** Removes script flags Redis does not know; the shebang goes entirely if the store lacks them. */
export function adaptScript(script: string, understandsShebang: boolean): string {
  const match = /^#!lua(?:[ \t]+flags=([^\n]*))?[^\n]*(\n|$)/.exec(script);
  if (!match) return script;
  const flags = (match[1] ?? "")
    .split(",")
    .map((flag) => flag.trim())
    .filter((flag) => flag && !UPSTASH_ONLY_FLAGS.has(flag));
  const rest = script.slice(match[0].length);
  // Keep line numbers in Lua error messages the same as in the client's script.
  const firstLine = understandsShebang && flags.length ? `#!lua flags=${flags.join(",")}` : "";
  return `${firstLine}\n${rest}`;
}

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

/** ioredis turns HGETALL's flat reply into an object; Redis (and Upstash) send the flat list. */
function asRedisReply(value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value) && !Buffer.isBuffer(value)) {
    return Object.entries(value).flat();
  }
  return value;
}

function encodeBase64(value: unknown): unknown {
  if (typeof value === "string") return value === "OK" ? value : Buffer.from(value, "utf8").toString("base64");
  if (Array.isArray(value)) return value.map(encodeBase64);
  return value;
}

function toArgs(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw new BadRequest("a command must be a non-empty array");
  return value.map((item) => {
    if (typeof item === "string") return item;
    if (typeof item === "number" || typeof item === "boolean" || item === null) return String(item);
    return JSON.stringify(item);
  });
}

/**
 * `observe`, when given, sees every command request it answered (load measurements); `distance`
 * delays and counts each one (scripts/local-stack/store-distance.ts).
 */
export function createUpstashRestServer(
  backend: RedisBackend,
  token: string,
  observe?: ServedCallObserver,
  distance?: StoreDistance,
): Server {
  const scripts = new Map<string, string>();

  const remember = (script: string): string => {
    const hash = sha1(script);
    scripts.set(hash, adaptScript(script, backend.understandsShebang));
    return hash;
  };

  /** Rewrites script commands so the store only ever sees EVAL of an adapted script. */
  function translate(args: string[]): string[] | RedisReply {
    const name = (args[0] ?? "").toUpperCase();
    if (name === "EVAL" || name === "EVAL_RO") {
      const hash = remember(args[1] ?? "");
      return ["EVAL", scripts.get(hash) ?? "", ...args.slice(2)];
    }
    if (name === "EVALSHA" || name === "EVALSHA_RO") {
      const script = scripts.get((args[1] ?? "").toLowerCase());
      if (script === undefined) return { error: "NOSCRIPT No matching script. Please use EVAL." };
      return ["EVAL", script, ...args.slice(2)];
    }
    if (name === "SCRIPT") {
      const sub = (args[1] ?? "").toUpperCase();
      if (sub === "LOAD") return { result: remember(args[2] ?? "") };
      if (sub === "EXISTS") return { result: args.slice(2).map((h) => (scripts.has(h.toLowerCase()) ? 1 : 0)) };
      if (sub === "FLUSH") scripts.clear();
    }
    return args;
  }

  async function runOne(args: string[]): Promise<RedisReply> {
    const translated = translate(args);
    if (!Array.isArray(translated)) return translated;
    try {
      return { result: await backend.command(translated) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }

  async function runMany(commands: string[][], atomic: boolean): Promise<RedisReply[]> {
    const translated = commands.map(translate);
    const runnable = translated.filter((item): item is string[] => Array.isArray(item));
    const replies = atomic ? await backend.transaction(runnable) : await backend.pipeline(runnable);
    let next = 0;
    return translated.map((item) => (Array.isArray(item) ? (replies[next++] as RedisReply) : item));
  }

  const expected = Buffer.from(`Bearer ${token}`);
  const authorized = (header: string | undefined) => {
    const given = Buffer.from(header ?? "");
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  return createServer(async (request, response) => {
    const startedAt = epochMs();
    let commands = 0;
    let storeStarted = 0;
    let storeMs = 0;
    if (observe) {
      response.once("finish", () =>
        observe({ endpoint: "redis", startedAt, endedAt: epochMs(), storeMs, statements: commands }),
      );
    }
    const path = (request.url ?? "/").split("?")[0];
    if (request.method === "GET" && path === "/healthz") {
      sendJson(response, 200, { ok: true, backend: backend.description });
      return;
    }
    if (answerRequestCounts(distance, request.method, path, response)) return;
    if (!authorized(request.headers.authorization)) {
      sendJson(response, 401, { error: "Unauthorized" });
      return;
    }
    if (request.method !== "POST") {
      sendJson(response, 405, { error: "ERR only POST is supported" });
      return;
    }
    const base64 = String(request.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
    const encode = (reply: RedisReply): RedisReply => {
      if (!("result" in reply)) return reply;
      const result = asRedisReply(reply.result);
      return { result: base64 ? encodeBase64(result) : result };
    };
    await travel(distance, "redis");
    try {
      const body = await readJson(request);
      if (path === "/" || path === "") {
        commands = 1;
        storeStarted = epochMs();
        const reply = await runOne(toArgs(body));
        storeMs = epochMs() - storeStarted;
        sendJson(response, "error" in reply ? 400 : 200, encode(reply));
      } else if (path === "/pipeline" || path === "/multi-exec") {
        if (!Array.isArray(body) || body.length === 0) throw new BadRequest("expected an array of commands");
        commands = body.length;
        storeStarted = epochMs();
        const replies = await runMany(body.map(toArgs), path === "/multi-exec");
        storeMs = epochMs() - storeStarted;
        sendJson(response, 200, replies.map(encode));
      } else {
        sendJson(response, 404, { error: "ERR unknown endpoint" });
      }
    } catch (error) {
      if (error instanceof BadRequest) sendJson(response, 400, { error: `ERR ${error.message}` });
      else sendJson(response, 500, { error: "ERR internal error" });
    }
  });
}
