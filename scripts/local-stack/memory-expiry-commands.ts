/**
 * SET, the EXPIRE family and TTL/PTTL for the in-memory store, parsed and applied as Redis 7 does,
 * over ioredis-mock's key space.
 *
 * ioredis-mock's own versions differ from Redis where the service depends on them: SET reads its
 * options in upper case only (so the `ex` that @upstash/redis sends was ignored and cached values
 * never expired), knows no KEEPTTL (it dropped the TTL instead), misreads options after GET, and
 * accepts malformed and non-positive expiries; EXPIRE ignores NX/XX/GT/LT; TTL rounds up where
 * Redis rounds to the nearest second. Each command here follows Redis' t_string.c and expire.c:
 * option words in any letter case, the same conflicts refused with the same messages, nothing
 * written when a command is refused.
 *
 * Scripts are not routed here: ioredis-mock's Lua `redis.call` reaches its own commands. The
 * scripts the service runs (@upstash/ratelimit's) only send upper-case PEXPIRE with a positive
 * time, which ioredis-mock applies as Redis does; the fidelity tests pin that.
 */

/** The parts of ioredis-mock's key space these commands use (its `data` and `expires`). */
export interface MockKeySpace {
  data: {
    /** Whether the key exists; drops it first when its expiry has passed. */
    has(key: string): boolean;
    get(key: string): unknown;
    set(key: string, value: unknown): void;
    delete(key: string): void;
  };
  expires: {
    has(key: string): boolean;
    /** Unix time in milliseconds. */
    get(key: string): number;
    set(key: string, unixMs: number): void;
    delete(key: string): void;
  };
}

export type MemoryCommand = (args: string[]) => unknown;

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** Redis' own error replies, so the REST endpoint answers with Redis' words. */
const redisError = (message: string) => new Error(message);
const SYNTAX_ERROR = "ERR syntax error";
const NOT_AN_INTEGER = "ERR value is not an integer or out of range";
const WRONG_TYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
const invalidExpireTime = (command: string) => `ERR invalid expire time in '${command}' command`;
const wrongArity = (command: string) => `ERR wrong number of arguments for '${command}' command`;

/** Redis compares option words byte-wise ignoring ASCII case only (strcasecmp). */
const asciiUpper = (word: string) => word.replace(/[a-z]/g, (letter) => letter.toUpperCase());

/** Redis' string2ll: an optional minus, no plus, no leading zeros, within a signed 64-bit integer. */
function parseInteger(text: string): bigint {
  if (!/^(?:0|-?[1-9][0-9]*)$/.test(text)) throw redisError(NOT_AN_INTEGER);
  const value = BigInt(text);
  if (value > INT64_MAX || value < INT64_MIN) throw redisError(NOT_AN_INTEGER);
  return value;
}

type ExpiryOption = "EX" | "PX" | "EXAT" | "PXAT";
const EXPIRY_OPTIONS: ReadonlySet<string> = new Set<ExpiryOption>(["EX", "PX", "EXAT", "PXAT"]);

interface SetOptions {
  condition?: "NX" | "XX";
  get: boolean;
  keepTtl: boolean;
  expiry?: { option: ExpiryOption; time: string };
}

/**
 * SET's options as parseExtendedStringArgumentsOrReply reads them: NX and XX exclude each other,
 * KEEPTTL excludes every expiry, one kind of expiry only (repeating the same one keeps the last),
 * an expiry needs its time; anything else is a syntax error.
 */
function parseSetOptions(words: string[]): SetOptions {
  const options: SetOptions = { get: false, keepTtl: false };
  for (let index = 0; index < words.length; index++) {
    const word = asciiUpper(words[index] as string);
    const time = words[index + 1];
    if ((word === "NX" || word === "XX") && options.condition !== (word === "NX" ? "XX" : "NX")) {
      options.condition = word;
    } else if (word === "GET") {
      options.get = true;
    } else if (word === "KEEPTTL" && !options.expiry) {
      options.keepTtl = true;
    } else if (
      EXPIRY_OPTIONS.has(word) &&
      !options.keepTtl &&
      (!options.expiry || options.expiry.option === word) &&
      time !== undefined
    ) {
      options.expiry = { option: word as ExpiryOption, time };
      index++;
    } else {
      throw redisError(SYNTAX_ERROR);
    }
  }
  return options;
}

/** SET's expiry as a Unix time in milliseconds (getExpireMillisecondsOrReply): positive, no overflow. */
function setExpiryUnixMs({ option, time }: NonNullable<SetOptions["expiry"]>, now: bigint): bigint {
  let ms = parseInteger(time);
  const inSeconds = option === "EX" || option === "EXAT";
  if (ms <= 0n || (inSeconds && ms > INT64_MAX / 1000n)) throw redisError(invalidExpireTime("set"));
  if (inSeconds) ms *= 1000n;
  if (option === "EX" || option === "PX") ms += now;
  if (ms > INT64_MAX) throw redisError(invalidExpireTime("set"));
  return ms;
}

type ExpireCondition = "NX" | "XX" | "GT" | "LT";

/** EXPIRE's options as parseExtendedExpireArgumentsOrReply reads them. */
function parseExpireConditions(words: string[]): Set<ExpireCondition> {
  const conditions = new Set<ExpireCondition>();
  for (const word of words) {
    const upper = asciiUpper(word);
    if (upper !== "NX" && upper !== "XX" && upper !== "GT" && upper !== "LT") {
      throw redisError(`ERR Unsupported option ${word}`);
    }
    conditions.add(upper);
  }
  if (conditions.has("NX") && (conditions.has("XX") || conditions.has("GT") || conditions.has("LT"))) {
    throw redisError("ERR NX and XX, GT or LT options at the same time are not compatible");
  }
  if (conditions.has("GT") && conditions.has("LT")) {
    throw redisError("ERR GT and LT options at the same time are not compatible");
  }
  return conditions;
}

/**
 * The commands above, keyed by lower-case name, each taking the arguments after the name and
 * returning the reply (or throwing Redis' error reply).
 */
export function memoryExpiryCommands(keys: MockKeySpace): ReadonlyMap<string, MemoryCommand> {
  const now = () => BigInt(Date.now());

  /** A key whose expiry is not in the future is gone at once, as in Redis. */
  const expireAt = (key: string, unixMs: bigint) => {
    if (unixMs <= now()) keys.data.delete(key);
    else keys.expires.set(key, Number(unixMs));
  };

  const stringValue = (key: string): unknown => {
    if (!keys.data.has(key)) return null;
    const value = keys.data.get(key);
    if (typeof value !== "string" && !Buffer.isBuffer(value)) throw redisError(WRONG_TYPE);
    return value;
  };

  const set: MemoryCommand = (args) => {
    const [key, value, ...words] = args;
    if (key === undefined || value === undefined) throw redisError(wrongArity("set"));
    const options = parseSetOptions(words);
    // Everything is checked before anything is read or written.
    const expiresAt = options.expiry ? setExpiryUnixMs(options.expiry, now()) : undefined;
    const previous = options.get ? stringValue(key) : undefined;
    const exists = keys.data.has(key);
    if ((options.condition === "NX" && exists) || (options.condition === "XX" && !exists)) {
      return options.get ? previous : null;
    }
    keys.data.set(key, value);
    if (expiresAt !== undefined) expireAt(key, expiresAt);
    else if (!options.keepTtl) keys.expires.delete(key);
    return options.get ? previous : "OK";
  };

  /** expireGenericCommand: `relative` adds the current time, `inSeconds` scales first. */
  const expire =
    (command: string, inSeconds: boolean, relative: boolean): MemoryCommand =>
    (args) => {
      const [key, time, ...words] = args;
      if (key === undefined || time === undefined) throw redisError(wrongArity(command));
      const conditions = parseExpireConditions(words);
      let when = parseInteger(time);
      if (inSeconds) {
        if (when > INT64_MAX / 1000n || when < INT64_MIN / 1000n) throw redisError(invalidExpireTime(command));
        when *= 1000n;
      }
      const base = relative ? now() : 0n;
      if (when > INT64_MAX - base) throw redisError(invalidExpireTime(command));
      when += base;

      if (!keys.data.has(key)) return 0;
      // No expiry counts as an infinite one: GT never beats it, LT always does.
      const current = keys.expires.has(key) ? BigInt(keys.expires.get(key)) : undefined;
      if (conditions.has("NX") && current !== undefined) return 0;
      if (conditions.has("XX") && current === undefined) return 0;
      if (conditions.has("GT") && (current === undefined || when <= current)) return 0;
      if (conditions.has("LT") && current !== undefined && when >= current) return 0;
      expireAt(key, when);
      return 1;
    };

  /** ttlGenericCommand: −2 for a missing key, −1 without expiry, seconds rounded to the nearest. */
  const ttl =
    (command: string, inMilliseconds: boolean): MemoryCommand =>
    (args) => {
      const [key] = args;
      if (key === undefined || args.length !== 1) throw redisError(wrongArity(command));
      if (!keys.data.has(key)) return -2;
      if (!keys.expires.has(key)) return -1;
      const left = Math.max(0, keys.expires.get(key) - Date.now());
      return inMilliseconds ? left : Math.floor((left + 500) / 1000);
    };

  return new Map<string, MemoryCommand>([
    ["set", set],
    ["expire", expire("expire", true, true)],
    ["pexpire", expire("pexpire", false, true)],
    ["expireat", expire("expireat", true, false)],
    ["pexpireat", expire("pexpireat", false, false)],
    ["ttl", ttl("ttl", false)],
    ["pttl", ttl("pttl", true)],
  ]);
}
