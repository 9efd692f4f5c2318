import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, SETTING_NAMES } from "../../src/config.ts";

const valid = {
  DATABASE_URL: "postgres://u:p@db.example/app",
  UPSTASH_REDIS_REST_URL: "https://redis.example",
  UPSTASH_REDIS_REST_TOKEN: "secret",
};

describe("parseConfig", () => {
  it("applies the documented defaults", () => {
    expect(parseConfig(valid)).toEqual({
      ...valid,
      DATABASE_LOCAL_HTTP: false,
      REDIS_KEY_PREFIX: "svc",
      REDIS_TIMEOUT_MS: 800,
      DATABASE_TIMEOUT_MS: 1500,
      HEALTH_TIMEOUT_MS: 2000,
      // Private addresses are refused unless a development setup says otherwise.
      FETCH_ALLOW_PRIVATE: false,
      DOH_URL: "https://cloudflare-dns.com/dns-query",
      RECRAWL_AFTER_HOURS: 168,
      RECRAWL_BATCH_SIZE: 500,
      IMPORT_CRAWL_BATCH_SIZE: 500,
      OWNERSHIP_DOH_URLS: ["https://cloudflare-dns.com/dns-query", "https://dns.google/resolve"],
      // No local demo site is exempt from the address guard unless npm start names one.
      LOCAL_DEMO_HOSTS: [],
      // Optional capabilities are off until their secrets are set.
      capabilities: { mail: null, payments: null, signing: null },
      capabilityStatus: { mail: "not_configured", payments: "not_configured", signing: "not_configured" },
    });
  });

  it("turns an optional capability on with its secrets, and off (not the Worker) when they are invalid", () => {
    const mail = parseConfig({ ...valid, MAIL_API_KEY: "re_key", MAIL_FROM: "Svc <mail@svc.example>" });
    expect(mail.capabilityStatus.mail).toBe("configured");
    expect(mail.capabilities.mail).toEqual({
      MAIL_API_KEY: "re_key",
      MAIL_FROM: "Svc <mail@svc.example>",
      MAIL_API_URL: "https://api.resend.com",
    });
    const broken = parseConfig({ ...valid, MAIL_API_KEY: "re_key", MAIL_FROM: "not an address" });
    expect(broken.capabilityStatus.mail).toBe("misconfigured");
    expect(broken.capabilities.mail).toBeNull();
    expect(broken.DATABASE_URL).toBe(valid.DATABASE_URL);
  });

  it("reads the signing key rings (the first key signs) and fails closed on a bad one", () => {
    const secret = "s".repeat(32);
    const signing = parseConfig({
      ...valid,
      ATTRIBUTION_SIGNING_KEYS: `att-2:${secret}2, att-1:${secret}1`,
      RECEIPT_SIGNING_KEYS: `rcpt-1:${secret}`,
    });
    expect(signing.capabilityStatus.signing).toBe("configured");
    expect(signing.capabilities.signing).toEqual({
      ATTRIBUTION_SIGNING_KEYS: {
        current: { kid: "att-2", secret: `${secret}2` },
        keys: [
          { kid: "att-2", secret: `${secret}2` },
          { kid: "att-1", secret: `${secret}1` },
        ],
      },
      RECEIPT_SIGNING_KEYS: { current: { kid: "rcpt-1", secret }, keys: [{ kid: "rcpt-1", secret }] },
      ATTRIBUTION_TTL_SECONDS: 604800,
      RECEIPT_VALIDITY_SECONDS: 31536000,
    });
    for (const broken of [
      { ATTRIBUTION_SIGNING_KEYS: `a:${secret}` },
      { ATTRIBUTION_SIGNING_KEYS: `a:short`, RECEIPT_SIGNING_KEYS: `r:${secret}` },
      { ATTRIBUTION_SIGNING_KEYS: `a:${secret},a:${secret}x`, RECEIPT_SIGNING_KEYS: `r:${secret}` },
      { ATTRIBUTION_SIGNING_KEYS: `bad kid!:${secret}`, RECEIPT_SIGNING_KEYS: `r:${secret}` },
    ]) {
      const config = parseConfig({ ...valid, ...broken });
      expect(config.capabilityStatus.signing).toBe("misconfigured");
      expect(config.capabilities.signing).toBeNull();
    }
  });

  it("takes one or two ownership resolvers, never more", () => {
    expect(parseConfig({ ...valid, OWNERSHIP_DOH_URLS: "http://127.0.0.1:5483/dns-query" }).OWNERSHIP_DOH_URLS).toEqual(
      ["http://127.0.0.1:5483/dns-query"],
    );
    expect(() =>
      parseConfig({ ...valid, OWNERSHIP_DOH_URLS: "https://a.example,https://b.example,https://c.example" }),
    ).toThrow(/at most two/);
  });

  it("names every missing or invalid setting", () => {
    const error = (() => {
      try {
        parseConfig({ DATABASE_URL: "mysql://x", REDIS_TIMEOUT_MS: "fast", DATABASE_LOCAL_HTTP: "yes" });
      } catch (caught) {
        return caught as ConfigError;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.problems).toEqual([
      "DATABASE_URL must be a postgres:// or postgresql:// connection string",
      'DATABASE_LOCAL_HTTP must be "true" or "false"',
      "UPSTASH_REDIS_REST_URL is required",
      "UPSTASH_REDIS_REST_TOKEN is required",
      "REDIS_TIMEOUT_MS must be an integer",
    ]);
  });

  it("reads booleans and integers from their string form, and treats empty as unset", () => {
    const config = parseConfig({ ...valid, DATABASE_LOCAL_HTTP: "1", REDIS_TIMEOUT_MS: "250", PUBLIC_ORIGIN: "" });
    expect(config.DATABASE_LOCAL_HTTP).toBe(true);
    expect(config.REDIS_TIMEOUT_MS).toBe(250);
    expect(config.PUBLIC_ORIGIN).toBeUndefined();
  });

  it("takes the rate-limit key secret as optional, and refuses one too short to be a key", () => {
    expect(parseConfig(valid).RATE_LIMIT_KEY_SECRET).toBeUndefined();
    expect(() => parseConfig({ ...valid, RATE_LIMIT_KEY_SECRET: "short" })).toThrow(
      "RATE_LIMIT_KEY_SECRET must be at least 32 characters",
    );
    const secret = "k".repeat(32);
    expect(parseConfig({ ...valid, RATE_LIMIT_KEY_SECRET: secret }).RATE_LIMIT_KEY_SECRET).toBe(secret);
  });

  it("lists every setting once", () => {
    expect(new Set(SETTING_NAMES).size).toBe(SETTING_NAMES.length);
    expect(SETTING_NAMES).toContain("DATABASE_URL");
  });
});
