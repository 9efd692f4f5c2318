/**
 * Every binding, secret and setting of the Worker, declared once. `npm start` passes any of these
 * found in its environment to `wrangler dev`; in production they are `[vars]` or Worker secrets.
 */
import { z } from "zod";

const booleanSetting = z
  .enum(["true", "false", "1", "0"], { message: 'must be "true" or "false"' })
  .transform((value) => value === "true" || value === "1");

/** Says "is required" when the setting is absent, and `message` when it is malformed. */
const explain = (message: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : message),
});

const integerSetting = (min: number, max: number) =>
  z.coerce.number({ message: "must be an integer" }).int("must be an integer").min(min).max(max);

export const ConfigSchema = z.object({
  /** Postgres connection string; in production a Neon one (secret). */
  DATABASE_URL: z
    .string(explain("must be a string"))
    .regex(/^postgres(ql)?:\/\/[^\s]+$/, "must be a postgres:// or postgresql:// connection string"),
  /**
   * Speak plain HTTP to DATABASE_URL's own host and port (the local stack's SQL-over-HTTP
   * endpoint) instead of Neon's https://api.<host>/sql. Never set in production.
   */
  DATABASE_LOCAL_HTTP: booleanSetting.default(false),
  /** Upstash Redis REST endpoint. */
  UPSTASH_REDIS_REST_URL: z.url({ protocol: /^https?$/, ...explain("must be an http(s) URL") }),
  /** Upstash Redis REST token (secret). */
  UPSTASH_REDIS_REST_TOKEN: z.string(explain("must be a string")).min(1, "must not be empty"),
  /**
   * HMAC key (secret, at least 32 characters) that turns a client's address into its rate-limit
   * key, so Redis holds no address. Optional so that its absence disables only what needs it:
   * without it every rate-limited endpoint answers 503 (fail closed: nothing can be counted, and
   * nothing is served uncounted); everything else works. Changing it starts every window afresh.
   */
  RATE_LIMIT_KEY_SECRET: z
    .string(explain("must be a string"))
    .min(32, "must be at least 32 characters (for example: openssl rand -base64 32)")
    .optional(),
  /** Prefix of every Redis key the service writes; lets environments share one Redis. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[a-z0-9:_-]{1,40}$/, "must be 1-40 of a-z 0-9 : _ -")
    .default("svc"),
  /**
   * How long Redis may answer nothing to an isolate before it counts as unavailable and a request
   * takes its fallback (ms). A slow answer while others keep arriving is waited for.
   */
  REDIS_TIMEOUT_MS: integerSetting(50, 10_000).default(800),
  /**
   * How long the SQL endpoint may answer nothing to an isolate before the database counts as
   * unavailable and requests answer 503 (ms). A refused or lost connection counts at once.
   */
  DATABASE_TIMEOUT_MS: integerSetting(100, 30_000).default(1_500),
  /** Longest wait for each dependency in GET /healthz (ms). */
  HEALTH_TIMEOUT_MS: integerSetting(100, 10_000).default(2_000),
  /** Public origin of the service, e.g. https://agentready.example; defaults to the request's. */
  PUBLIC_ORIGIN: z.url({ protocol: /^https?$/, ...explain("must be an http(s) origin") }).optional(),
  /**
   * Let the crawler, /check and /verify-mcp fetch private, loopback and link-local addresses on
   * any port. For local development and tests only (the fixture web runs on 127.0.0.1); never
   * set in production.
   */
  FETCH_ALLOW_PRIVATE: booleanSetting.default(false),
  /** DNS-over-HTTPS JSON endpoint used to vet the addresses of every outbound fetch. */
  DOH_URL: z
    .url({ protocol: /^https?$/, ...explain("must be an http(s) URL") })
    .default("https://cloudflare-dns.com/dns-query"),
  /** A site is recrawled by the cron once its last crawl is older than this (hours). */
  RECRAWL_AFTER_HOURS: integerSetting(1, 24 * 365).default(168),
  /** How many of the stalest sites one cron run enqueues. */
  RECRAWL_BATCH_SIZE: integerSetting(1, 5000).default(500),
});

export type Config = z.infer<typeof ConfigSchema>;

/** Names of every setting, for tools that pass them along (npm start, docs). */
export const SETTING_NAMES = Object.keys(ConfigSchema.shape) as (keyof Config)[];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

/** Validates the Worker's bindings; the error names every missing or invalid setting. */
export function parseConfig(env: Record<string, unknown>): Config {
  return parseSettings(env, SETTING_NAMES) as Config;
}

/** Validates only the named settings (for scripts that need a few of them). */
export function parseSettings<K extends keyof Config>(
  env: Record<string, unknown>,
  names: readonly K[],
): Pick<Config, K> {
  const mask = Object.fromEntries(names.map((name) => [name, true])) as { [name in keyof Config]?: true };
  const picked = Object.fromEntries(names.map((name) => [name, env[name] === "" ? undefined : env[name]]));
  const result = ConfigSchema.pick(mask).safeParse(picked);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join(".") || "config"} ${issue.message}`));
  }
  return result.data as unknown as Pick<Config, K>;
}
