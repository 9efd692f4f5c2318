/**
 * Commerce rules that need no store: the allocation's month (UTC, to the millisecond), the key
 * state a subscription status gives, quotes from the one catalog, order hosts normalised like
 * submitted URLs, and the payment endpoints without payments configured: 503, checked before
 * anything is counted or read (the stores here are unreachable, so any use of them would fail).
 */
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { parseConfig } from "../../src/config.ts";
import { PRIORITY_LIMITS, SCORE_FIX } from "../../src/domain/commerce/catalog.ts";
import { createQuote, normalizeOrderHost } from "../../src/domain/commerce/checkout.ts";
import { monthOf } from "../../src/domain/commerce/priority-keys.ts";
import { keyStatusFor } from "../../src/domain/commerce/stripe-webhook.ts";
import { createCommerceGroup } from "../../src/routes/commerce/index.ts";

const BINDINGS = {
  DATABASE_URL: "postgres://unused:unused@127.0.0.1:9/unused",
  UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9",
  UPSTASH_REDIS_REST_TOKEN: "unused",
  RATE_LIMIT_KEY_SECRET: "unit-test-rate-limit-key-secret-0123456789",
};

describe("the allocation's month", () => {
  it("is the calendar month in UTC, turning over exactly at midnight of the first", () => {
    expect(monthOf(new Date("2026-11-30T23:59:59.999Z"))).toBe("2026-11-01");
    expect(monthOf(new Date("2026-12-01T00:00:00.000Z"))).toBe("2026-12-01");
    expect(monthOf(new Date("2026-12-31T23:59:59.999Z"))).toBe("2026-12-01");
    expect(monthOf(new Date("2027-01-01T00:00:00.000Z"))).toBe("2027-01-01");
    // Local time zones do not move it: 00:30 on the 1st in UTC+2 is still the previous month in UTC.
    expect(monthOf(new Date("2026-12-01T00:30:00+02:00"))).toBe("2026-11-01");
  });

  it("is 50,000 calls", () => {
    expect(PRIORITY_LIMITS.monthlyCalls).toBe(50_000);
  });
});

describe("a key's state from its subscription", () => {
  it.each([
    ["active", "active"],
    ["trialing", "active"],
    ["past_due", "active"],
    ["unpaid", "suspended"],
    ["paused", "suspended"],
    ["incomplete", "suspended"],
    ["canceled", "canceled"],
    ["incomplete_expired", "canceled"],
  ])("%s → %s", (subscription, key) => {
    expect(keyStatusFor(subscription)).toBe(key);
  });
});

describe("quotes and hosts", () => {
  it("prices from the catalog", () => {
    expect(createQuote("https://svc.example", {})).toMatchObject({ total: SCORE_FIX.amount, plan: null });
    expect(() => createQuote("https://svc.example", { product_id: "svc_geo_fix_my_score", plan: "unlimited" })).toThrow(
      /plan applies only/,
    );
  });

  it.each([
    ["Example.COM", "example.com"],
    ["https://Example.com./path?q=1", "example.com"],
    ["bücher.example", "xn--bcher-kva.example"],
    ["https://sub.example.org:443/", "sub.example.org"],
  ])("normalises %s to %s", (input, host) => {
    expect(normalizeOrderHost(input, false)).toBe(host);
  });

  it.each(["127.0.0.1", "not a host", "ftp://example.com", "localhost"])("refuses %s", (input) => {
    expect(() => normalizeOrderHost(input, false)).toThrow(/host must be/);
  });
});

describe("the payment endpoints without payments configured", () => {
  const app = createApp([createCommerceGroup()]);
  const send = (path: string, init: RequestInit = {}) =>
    app.fetch(new Request(`https://svc.example/api/v1${path}`, init), BINDINGS);
  const post = (body: unknown): RequestInit => ({
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

  it("reports the capability as not configured", () => {
    expect(parseConfig(BINDINGS).capabilityStatus.payments).toBe("not_configured");
    expect(
      parseConfig({ ...BINDINGS, STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "nope" }).capabilityStatus
        .payments,
    ).toBe("misconfigured");
  });

  it.each([
    ["POST /checkout", "/checkout", post({ host: "example.com", email: "a@example.com" })],
    ["POST /api-keys/subscribe", "/api-keys/subscribe", post({ email: "a@example.com", plan: "unlimited" })],
    ["GET /api-keys/activate", "/api-keys/activate?session_id=cs_test_abc", {}],
    ["POST /webhooks/stripe", "/webhooks/stripe", { ...post({}), headers: { "Stripe-Signature": "t=1,v1=00" } }],
  ])("%s answers 503 PAYMENTS_UNAVAILABLE", async (_name, path, init) => {
    const response = await send(path, init);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: "PAYMENTS_UNAVAILABLE" });
  });

  it("still serves the catalog, the quote and the plan, and says 501 for direct card entry", async () => {
    expect((await send("/catalog")).status).toBe(200);
    expect((await send("/quote", post({ plan: "unlimited" }))).status).toBe(200);
    expect((await send("/api-keys/subscribe")).status).toBe(200);
    const card = await send("/checkout", post({ host: "example.com", email: "a@example.com", payment_mode: "card" }));
    expect(card.status).toBe(501);
  });
});
