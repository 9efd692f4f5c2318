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

/** One signing key: an id that travels with every signature, and its secret (UTF-8 bytes). */
export interface SigningKey {
  kid: string;
  secret: string;
}

/** A key ring: `current` signs; every key (the current one first) verifies what it once signed. */
export interface KeyRing {
  current: SigningKey;
  keys: SigningKey[];
}

/**
 * `kid:secret[,kid:secret…]`: key ids of 1–32 letters, digits, `.`, `_` or `-`, unique; secrets of
 * at least 32 characters without commas. The first key signs; the others only verify, which is
 * how keys rotate (prepend the new one, drop the old one once what it signed has expired).
 */
const keyRingSetting = z.string(explain("must be a string")).transform((value, ctx): KeyRing => {
  const keys: SigningKey[] = [];
  for (const entry of value.split(",").map((part) => part.trim())) {
    const separator = entry.indexOf(":");
    const kid = entry.slice(0, separator);
    const secret = entry.slice(separator + 1);
    if (separator < 1 || !/^[A-Za-z0-9._-]{1,32}$/.test(kid) || secret.length < 32) {
      ctx.addIssue({
        code: "custom",
        message:
          "must be kid:secret pairs separated by commas (kid 1-32 of A-Z a-z 0-9 . _ -, secret at least 32 characters)",
      });
      return z.NEVER;
    }
    if (keys.some((key) => key.kid === kid)) {
      ctx.addIssue({ code: "custom", message: `names key id ${kid} twice` });
      return z.NEVER;
    }
    keys.push({ kid, secret });
  }
  return { current: keys[0] as SigningKey, keys };
});

/** The database: every group needs it. */
const DatabaseSettings = z.object({
  /** Postgres connection string; in production a Neon one (secret). */
  DATABASE_URL: z
    .string(explain("must be a string"))
    .regex(/^postgres(ql)?:\/\/[^\s]+$/, "must be a postgres:// or postgresql:// connection string"),
  /**
   * Speak plain HTTP to DATABASE_URL's own host and port (the local stack's SQL-over-HTTP
   * endpoint) instead of Neon's https://api.<host>/sql. Never set in production.
   */
  DATABASE_LOCAL_HTTP: booleanSetting.default(false),
  /**
   * How long the SQL endpoint may answer nothing to an isolate before the database counts as
   * unavailable and requests answer 503 (ms). A refused or lost connection counts at once.
   */
  DATABASE_TIMEOUT_MS: integerSetting(100, 30_000).default(1_500),
});

/** Redis (limits, caches, idempotency locks): every group needs it. */
const RedisSettings = z.object({
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
});

/** The service as a whole. */
const ServiceSettings = z.object({
  /** Longest wait for each dependency in GET /healthz (ms). */
  HEALTH_TIMEOUT_MS: integerSetting(100, 10_000).default(2_000),
  /** Public origin of the service, e.g. https://agentready.example; defaults to the request's. */
  PUBLIC_ORIGIN: z.url({ protocol: /^https?$/, ...explain("must be an http(s) origin") }).optional(),
});

/** Outbound fetches of user-supplied URLs (checks, crawls, MCP probes). */
const OutboundSettings = z.object({
  /**
   * Let the crawler, /check and /verify-mcp fetch private, loopback and link-local addresses on
   * any port. For local development and tests only (the fixture web runs on 127.0.0.1); never
   * set in production.
   */
  FETCH_ALLOW_PRIVATE: booleanSetting.default(false),
  /**
   * The local demo sites `npm start` serves (scripts/local-stack/demo-sites.ts), as `host:port`
   * on 127.0.0.1, comma-separated: the crawler, /check and the pages may fetch these hosts (and
   * only these) although they are loopback, so the live check can be tried offline. Honoured only
   * beside DATABASE_LOCAL_HTTP (the local stack), so a deployed Worker keeps its guard whole.
   */
  LOCAL_DEMO_HOSTS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^127\.0\.0\.1:\d{1,5}$/, "must list 127.0.0.1:<port> hosts"))),
  /**
   * The public key of the service's MCP Registry namespace (base64 of a 32-byte Ed25519 key): when
   * set, /.well-known/mcp-registry-auth carries it as the registry's HTTP namespace proof
   * (`v=MCPv1; k=ed25519; p=<key>`); unset, that path is 404. Public, not a secret; the private key
   * that signs the registry's publish requests never reaches the Worker.
   */
  MCP_REGISTRY_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, "must be the base64 of a 32-byte Ed25519 public key")
    .optional(),
  /** DNS-over-HTTPS JSON endpoint used to vet the addresses of every outbound fetch. */
  DOH_URL: z
    .url({ protocol: /^https?$/, ...explain("must be an http(s) URL") })
    .default("https://cloudflare-dns.com/dns-query"),
});

/** The crawl jobs. */
const CrawlSettings = z.object({
  /** A site is recrawled by the cron once its last crawl is older than this (hours). */
  RECRAWL_AFTER_HOURS: integerSetting(1, 24 * 365).default(168),
  /** How many of the stalest sites one cron run enqueues. */
  RECRAWL_BATCH_SIZE: integerSetting(1, 5000).default(500),
  /** How many due leads of seed imports one run of the recrawl's cron queues (crawl-leads.ts). */
  IMPORT_CRAWL_BATCH_SIZE: integerSetting(1, 5000).default(500),
});

/** DNS ownership proofs of provider claims. */
const OwnershipSettings = z.object({
  /**
   * The DNS-over-HTTPS JSON endpoints that check TXT ownership proofs, comma-separated, one or
   * two: with two, a proof needs both to answer and agree (two independent perspectives).
   */
  OWNERSHIP_DOH_URLS: z
    .string()
    .default("https://cloudflare-dns.com/dns-query,https://dns.google/resolve")
    .transform((value) =>
      value
        .split(",")
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.url({ protocol: /^https?$/, message: "must list http(s) URLs" }))
        .min(1, "must name at least one resolver")
        .max(2, "must name at most two resolvers"),
    ),
});

/**
 * The settings every Worker needs, in sections per capability; all but the database and Redis
 * connections have defaults.
 */
export const SETTING_SECTIONS = {
  database: DatabaseSettings,
  redis: RedisSettings,
  service: ServiceSettings,
  outbound: OutboundSettings,
  crawl: CrawlSettings,
  ownership: OwnershipSettings,
} as const;

export const ConfigSchema = z.object({
  ...DatabaseSettings.shape,
  ...RedisSettings.shape,
  ...ServiceSettings.shape,
  ...OutboundSettings.shape,
  ...CrawlSettings.shape,
  ...OwnershipSettings.shape,
});

/**
 * Optional capabilities: on only when their secrets are set. One that is not configured (or set
 * wrongly: the log names the setting) is unavailable — its endpoints answer 503 and `/healthz`
 * says so — while the rest of the Worker serves as usual.
 */
export const CAPABILITY_SECTIONS = {
  /** E-mail (sign-in links, monitor alerts) through Resend's HTTP API. */
  mail: {
    secrets: ["MAIL_API_KEY", "MAIL_FROM"],
    schema: z.object({
      /** Resend API key (secret). */
      MAIL_API_KEY: z.string(explain("must be a string")).min(1, "must not be empty"),
      /** The sender of every e-mail, e.g. "Agent Readiness <mail@agentready.example>". */
      MAIL_FROM: z
        .string(explain("must be a string"))
        .regex(/^([^<>]+<)?[^\s@<>]+@[^\s@<>]+>?$/, "must be an address, optionally as Name <address>"),
      /** Resend's API base; the local stack's outbox speaks the same API. */
      MAIL_API_URL: z
        .url({ protocol: /^https?$/, ...explain("must be an http(s) URL") })
        .default("https://api.resend.com"),
    }),
  },
  /** Payments (score-fix orders, the priority key plan) through Stripe Checkout. */
  payments: {
    secrets: ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"],
    schema: z.object({
      /** Stripe secret API key (secret): sk_live_…, sk_test_… or a restricted rk_… key. */
      STRIPE_SECRET_KEY: z
        .string(explain("must be a string"))
        .regex(/^(sk|rk)_(live|test)_[A-Za-z0-9_]+$/, "must be a Stripe secret key (sk_live_…, sk_test_… or rk_…)"),
      /** Signing secret of the webhook endpoint (secret), whsec_…: webhooks are verified with it. */
      STRIPE_WEBHOOK_SECRET: z
        .string(explain("must be a string"))
        .regex(/^whsec_[A-Za-z0-9_+/=]+$/, "must be a webhook signing secret (whsec_…)"),
      /** Stripe's API base; the local stack's stand-in speaks the same API. */
      STRIPE_API_URL: z
        .url({ protocol: /^https?$/, ...explain("must be an http(s) URL") })
        .default("https://api.stripe.com"),
    }),
  },
  /**
   * Signed provider actions: the attribution bearers of action tickets (JWS, HS256) and the
   * HMAC-SHA256 signatures of provider outcome receipts, each from its own key ring so that the
   * two can rotate apart. Without it the ticket, handoff, resolve, outcome and receipt-verify
   * endpoints answer 503 (never an unsigned answer); everything else works.
   */
  signing: {
    secrets: ["ATTRIBUTION_SIGNING_KEYS", "RECEIPT_SIGNING_KEYS"],
    schema: z.object({
      /** Key ring of attribution bearers (secret): `kid:secret,…`, the first signs, all verify. */
      ATTRIBUTION_SIGNING_KEYS: keyRingSetting,
      /** Key ring of outcome receipts (secret): `kid:secret,…`, the first signs, all verify. */
      RECEIPT_SIGNING_KEYS: keyRingSetting,
      /** How long a ticket's authorization (its bearer) lasts at most, in seconds. */
      ATTRIBUTION_TTL_SECONDS: integerSetting(300, 30 * 86_400).default(7 * 86_400),
      /** The validity window of a signed outcome receipt, in seconds from its issue. */
      RECEIPT_VALIDITY_SECONDS: integerSetting(3_600, 5 * 365 * 86_400).default(365 * 86_400),
    }),
  },
} as const;

export type CapabilityName = keyof typeof CAPABILITY_SECTIONS;
export type MailSettings = z.infer<(typeof CAPABILITY_SECTIONS)["mail"]["schema"]>;
export type PaymentsSettings = z.infer<(typeof CAPABILITY_SECTIONS)["payments"]["schema"]>;
export type SigningSettings = z.infer<(typeof CAPABILITY_SECTIONS)["signing"]["schema"]>;
/** configured: on; not_configured: its secrets are absent; misconfigured: set but invalid (logged). */
export type CapabilityStatus = "configured" | "not_configured" | "misconfigured";

type CoreSettings = z.infer<typeof ConfigSchema>;
type CoreSettingName = keyof CoreSettings;

export type Config = CoreSettings & {
  /** Each optional capability's settings, or null when it is unavailable. */
  capabilities: { mail: MailSettings | null; payments: PaymentsSettings | null; signing: SigningSettings | null };
  capabilityStatus: Record<CapabilityName, CapabilityStatus>;
};

/** Names of every setting, the optional capabilities' included, for tools that pass them along (npm start, docs). */
export const SETTING_NAMES: string[] = [
  ...Object.keys(ConfigSchema.shape),
  ...Object.values(CAPABILITY_SECTIONS).flatMap((capability) => Object.keys(capability.schema.shape)),
];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

/**
 * Validates the Worker's bindings: the error names every missing or invalid setting of the
 * sections every Worker needs. An optional capability that is absent or invalid is reported as
 * unavailable (and logged when invalid) instead of failing the Worker.
 */
export function parseConfig(env: Record<string, unknown>): Config {
  const core = parseSettings(env, Object.keys(ConfigSchema.shape) as CoreSettingName[]);
  const mail = parseCapability("mail", env);
  const payments = parseCapability("payments", env);
  const signing = parseCapability("signing", env);
  return {
    ...core,
    capabilities: { mail: mail.settings, payments: payments.settings, signing: signing.settings },
    capabilityStatus: { mail: mail.status, payments: payments.status, signing: signing.status },
  };
}

function parseCapability<N extends CapabilityName>(
  name: N,
  env: Record<string, unknown>,
): { status: CapabilityStatus; settings: z.infer<(typeof CAPABILITY_SECTIONS)[N]["schema"]> | null } {
  const { secrets, schema } = CAPABILITY_SECTIONS[name] as {
    secrets: readonly string[];
    schema: (typeof CAPABILITY_SECTIONS)[N]["schema"];
  };
  const present = (key: string) => env[key] !== undefined && env[key] !== "";
  if (!secrets.some(present)) return { status: "not_configured", settings: null };
  const picked = Object.fromEntries(Object.keys(schema.shape).map((key) => [key, present(key) ? env[key] : undefined]));
  const result = schema.safeParse(picked);
  // The schema is the one of capability N, which TypeScript cannot follow through the lookup.
  if (result.success) return { status: "configured", settings: result.data as z.infer<typeof schema> };
  // Fail closed for this capability only: the operator reads which setting, clients get a 503.
  const problems = result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
  console.error(`capability ${name} unavailable: ${problems.join("; ")}`);
  return { status: "misconfigured", settings: null };
}

/** Validates only the named settings (for scripts that need a few of them). */
export function parseSettings<K extends CoreSettingName>(
  env: Record<string, unknown>,
  names: readonly K[],
): Pick<CoreSettings, K> {
  const mask = Object.fromEntries(names.map((name) => [name, true])) as { [name in CoreSettingName]?: true };
  const picked = Object.fromEntries(names.map((name) => [name, env[name] === "" ? undefined : env[name]]));
  const result = ConfigSchema.pick(mask).safeParse(picked);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join(".") || "config"} ${issue.message}`));
  }
  return result.data as unknown as Pick<CoreSettings, K>;
}
