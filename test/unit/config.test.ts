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
    });
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
