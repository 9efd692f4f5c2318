/**
 * Commerce through the Worker, as a buyer, an agent and Stripe call it, with the local stack's
 * Stripe stand-in behind it: the catalog and quotes, the score-fix checkout, buying and
 * activating a priority key (once, even under racing activations, on the run's database: a real
 * Postgres in CI), the signed webhook (valid, wrong secret, replayed, stale), renewals and
 * cancellations, and the key's limits counted exactly, with the fall back to the free tier.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { authenticatePriorityKey, takeMonthlyCall } from "../../src/domain/commerce/priority-keys.ts";
import { insertSite, jsonPost, newEmail, sha256Hex } from "../support/accounts.ts";
import { sqlRows, testDatabase, uniqueToken } from "../support/sites.ts";
import { asClient, awayFromWindowEdge, call, expectInvalid, expectProblem, newClientIp } from "../support/worker.ts";

const bindings = env as unknown as { STRIPE_API_URL: string; STRIPE_WEBHOOK_SECRET: string };
const STRIPE = bindings.STRIPE_API_URL.replace(/\/$/, "");

interface StandInEvent {
  id: string;
  type: string;
  payload: string;
  signature: string;
}

/** Pays a session on the stand-in's pay page; the signed event it made (the tests deliver it). */
async function pay(sessionId: string): Promise<StandInEvent> {
  const response = await fetch(`${STRIPE}/pay/${sessionId}`, {
    method: "POST",
    headers: { Accept: "application/json" },
  });
  if (response.status !== 200) throw new Error(`pay answered ${response.status}`);
  const { event } = (await response.json()) as { event: StandInEvent };
  return event;
}

async function control(subscriptionId: string, action: "renew" | "cancel"): Promise<StandInEvent> {
  const response = await fetch(`${STRIPE}/control/subscriptions/${subscriptionId}/${action}`, { method: "POST" });
  return ((await response.json()) as { event: StandInEvent }).event;
}

/** Posts an event to the Worker's webhook as Stripe does. */
function deliver(event: { payload: string; signature: string }): Promise<Response> {
  return call("/api/v1/webhooks/stripe", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature },
    body: event.payload,
  });
}

/** Stripe's signature scheme, computed here apart from the service: t=<unix>,v1=<hex HMAC-SHA256 of "t.payload">. */
async function sign(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestamp}.${payload}`));
  const hex = Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `t=${timestamp},v1=${hex}`;
}

/** A signed event made here (for states the pay page does not produce). */
async function event(type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({
    id: `evt_test_${uniqueToken()}`,
    object: "event",
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    type,
  });
  return { payload, signature: await sign(payload, bindings.STRIPE_WEBHOOK_SECRET) };
}

interface Subscribed {
  order_id: string;
  checkout_url: string;
  checkout_session_id: string;
  activation_url: string;
}

async function subscribe(email = newEmail("buyer")): Promise<Subscribed> {
  const response = await asClient()("/api/v1/api-keys/subscribe", jsonPost({ email, plan: "unlimited" }));
  expect(response.status).toBe(200);
  return (await response.json()) as Subscribed;
}

const activate = (sessionId: string, init: RequestInit = {}) =>
  asClient()(`/api/v1/api-keys/activate?session_id=${encodeURIComponent(sessionId)}`, init);

interface Activation {
  activated: true;
  api_key_returned: boolean;
  api_key?: string;
  key: { priority_api_key_id: number; key_prefix: string; status: string; presentation: string };
}

/** Buys and activates a priority key end to end; the key, its id and its subscription. */
async function buyKey(): Promise<{ key: string; keyId: number; subscriptionId: string; sessionId: string }> {
  const order = await subscribe();
  const completed = await pay(order.checkout_session_id);
  expect((await deliver(completed)).status).toBe(200);
  const response = await activate(order.checkout_session_id);
  expect(response.status).toBe(200);
  const body = (await response.json()) as Activation;
  const subscriptionId = (JSON.parse(completed.payload) as { data: { object: { subscription: string } } }).data.object
    .subscription;
  return {
    key: body.api_key!,
    keyId: body.key.priority_api_key_id,
    subscriptionId,
    sessionId: order.checkout_session_id,
  };
}

const withKey = (key: string, ip = newClientIp()) => {
  const client = asClient(ip);
  return (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("Authorization", `Bearer ${key}`);
    return client(path, { ...init, headers });
  };
};

const thisMonth = () => {
  const now = new Date();
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}-01`;
};

describe("GET /catalog and POST /quote", () => {
  it("lists the score fix and the priority plan with prices from the one catalog", async () => {
    const response = await call("/api/v1/catalog");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { products: Record<string, unknown>[] };
    expect(body.products).toEqual([
      expect.objectContaining({ product_id: "svc_geo_fix_my_score", kind: "service", amount: 29_900, currency: "usd" }),
      expect.objectContaining({
        product_id: "svc_api_unlimited",
        kind: "subscription",
        plans: [
          expect.objectContaining({
            plan: "unlimited",
            amount: 4_900,
            interval: "month",
            limits: { search_per_hour: 5000, verify_per_hour: 100, check_per_hour: 100, monthly_calls: 50_000 },
          }),
        ],
      }),
    ]);
  });

  it("quotes the score fix by default and the plan by product or plan, with the checkout's metadata", async () => {
    const empty = await call("/api/v1/quote", { method: "POST" });
    expect(empty.status).toBe(200);
    expect(await empty.json()).toMatchObject({
      product_id: "svc_geo_fix_my_score",
      plan: null,
      amount: 29_900,
      total: 29_900,
      currency: "usd",
      checkout: { url: "http://svc.test/api/v1/checkout", required_fields: ["host", "email"] },
    });
    for (const body of [{ product_id: "svc_api_unlimited" }, { plan: "unlimited" }]) {
      const response = await call("/api/v1/quote", jsonPost(body));
      expect(await response.json()).toMatchObject({
        product_id: "svc_api_unlimited",
        plan: "unlimited",
        total: 4_900,
        interval: "month",
        checkout: { url: "http://svc.test/api/v1/api-keys/subscribe", metadata: { plan: "unlimited" } },
      });
    }
  });

  it("refuses unknown products, plans and fields, and a plan with the score fix (400)", async () => {
    await expectInvalid(await call("/api/v1/quote", jsonPost({ product_id: "svc_gold" })), "body", ["product_id"]);
    await expectInvalid(await call("/api/v1/quote", jsonPost({ plan: "gold" })), "body", ["plan"]);
    await expectInvalid(await call("/api/v1/quote", jsonPost({ extra: 1 })), "body", ["extra"]);
    await expectProblem(
      await call("/api/v1/quote", jsonPost({ product_id: "svc_geo_fix_my_score", plan: "unlimited" })),
      400,
      "PLAN_NOT_APPLICABLE",
    );
  });
});

describe("POST /checkout (score fix)", () => {
  it("records the order with its host normalised, answers Stripe Checkout's URL, and is paid by the webhook", async () => {
    const email = newEmail("fixer");
    const notes = `<script>alert("${uniqueToken()}")</script> & more`;
    const response = await asClient()(
      "/api/v1/checkout",
      jsonPost({ host: "HTTPS://Bücher.Example./docs?x=1", email, repo_url: "https://git.example/r", notes }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toContain("application/json");
    const text = await response.text();
    // The buyer's notes are kept with the order and never sent back.
    expect(text).not.toContain("script");
    const body = JSON.parse(text) as Record<string, string>;
    expect(body).toMatchObject({
      status: "pending",
      product_id: "svc_geo_fix_my_score",
      host: "xn--bcher-kva.example",
      amount: 29_900,
      payment_mode: "card_checkout",
    });
    expect(body.checkout_url).toBe(`${STRIPE}/pay/${body.checkout_session_id}`);
    const [order] = await sqlRows<{ status: string; notes: string; host: string; email: string }>(
      "select status, notes, host, email from commerce_orders where id = $1",
      [body.order_id],
    );
    expect(order).toEqual({ status: "pending", notes, host: "xn--bcher-kva.example", email });
    // The pay page shows the order without the notes.
    expect(await (await fetch(body.checkout_url!)).text()).not.toContain("script");

    const paid = await deliver(await pay(body.checkout_session_id!));
    expect(paid.status).toBe(200);
    const [after] = await sqlRows<{ status: string }>("select status from commerce_orders where id = $1", [
      body.order_id,
    ]);
    expect(after?.status).toBe("paid");
  });

  it("opens 20 checkouts an hour per client, shared with the subscription (the 21st is 429)", async () => {
    const client = asClient();
    const email = newEmail("limited");
    const statuses = [];
    for (let call = 0; call < 10; call++) {
      statuses.push((await client("/api/v1/checkout", jsonPost({ host: "example.com", email }))).status);
      statuses.push((await client("/api/v1/api-keys/subscribe", jsonPost({ email }))).status);
    }
    expect(statuses).toEqual(Array(10).fill([201, 200]).flat());
    const refused = await client("/api/v1/checkout", jsonPost({ host: "example.com", email }));
    await expectProblem(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBeTruthy();
    await expectProblem(await client("/api/v1/api-keys/subscribe", jsonPost({ email })), 429, "RATE_LIMITED");
    expect(await sqlRows("select id from commerce_orders where email = $1", [email])).toHaveLength(20);
  });

  it("answers 501 for direct card entry and writes nothing", async () => {
    const email = newEmail("card");
    await expectProblem(
      await asClient()("/api/v1/checkout", jsonPost({ host: "example.com", email, payment_mode: "card" })),
      501,
      "PAYMENT_MODE_UNSUPPORTED",
    );
    expect(await sqlRows("select id from commerce_orders where email = $1", [email])).toHaveLength(0);
  });

  it("refuses a missing or bad field, an address as host, or the subscription product (400)", async () => {
    const client = asClient();
    await expectInvalid(await client("/api/v1/checkout", jsonPost({})), "body", ["host", "email"]);
    await expectInvalid(await client("/api/v1/checkout", jsonPost({ host: "a.example", email: "nope" })), "body", [
      "email",
    ]);
    await expectInvalid(
      await client("/api/v1/checkout", jsonPost({ host: "a.example", email: newEmail(), notes: "x".repeat(2001) })),
      "body",
      ["notes"],
    );
    await expectProblem(
      await client("/api/v1/checkout", jsonPost({ host: "not a host", email: newEmail() })),
      400,
      "INVALID_HOST",
    );
    await expectProblem(
      await client(
        "/api/v1/checkout",
        jsonPost({ host: "a.example", email: newEmail(), product_id: "svc_api_unlimited" }),
      ),
      400,
      "PRODUCT_NOT_FOR_CHECKOUT",
    );
  });
});

describe("the priority key: plan, subscription, activation", () => {
  it("describes the plan and its checkout contract", async () => {
    const response = await call("/api/v1/api-keys/subscribe");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      product_id: "svc_api_unlimited",
      presentation: "Authorization: Bearer <key>",
      checkout: { method: "POST", url: "http://svc.test/api/v1/api-keys/subscribe" },
    });
  });

  it("answers the checkout and activation URLs; bad input is 400", async () => {
    const order = await subscribe();
    expect(order.checkout_url).toBe(`${STRIPE}/pay/${order.checkout_session_id}`);
    expect(order.activation_url).toBe(
      `http://svc.test/api/v1/api-keys/activate?session_id=${order.checkout_session_id}`,
    );
    await expectInvalid(await asClient()("/api/v1/api-keys/subscribe", jsonPost({ email: "x" })), "body", ["email"]);
    await expectInvalid(
      await asClient()("/api/v1/api-keys/subscribe", jsonPost({ email: newEmail(), plan: "gold" })),
      "body",
      ["plan"],
    );
  });

  it("activates only a paid session (409 before), issues the key once, and shows it only then", async () => {
    const order = await subscribe();
    await expectProblem(await activate(order.checkout_session_id), 409, "CHECKOUT_NOT_PAID");
    // HEAD checks the parameter and issues nothing.
    await pay(order.checkout_session_id);
    const head = await activate(order.checkout_session_id, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await sqlRows("select id from priority_api_keys where order_id = $1", [order.order_id])).toHaveLength(0);

    const first = await activate(order.checkout_session_id);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const body = (await first.json()) as Activation;
    expect(body).toMatchObject({ activated: true, api_key_returned: true, key: { status: "active" } });
    expect(body.api_key).toMatch(/^svcpri_[A-Za-z0-9_-]{43}$/);
    const [stored] = await sqlRows<{ key_sha256: string }>(
      "select key_sha256 from priority_api_keys where order_id = $1",
      [order.order_id],
    );
    expect(stored?.key_sha256).toBe(await sha256Hex(body.api_key!));

    const again = (await (await activate(order.checkout_session_id)).json()) as Activation;
    expect(again).toMatchObject({ activated: true, api_key_returned: false, key: { key_prefix: body.key.key_prefix } });
    expect(again.api_key).toBeUndefined();
  });

  it("shows a browser the key on a page, escaped, and the refusal as a page too", async () => {
    const order = await subscribe();
    await pay(order.checkout_session_id);
    const page = await activate(order.checkout_session_id, { headers: { Accept: "text/html,application/xhtml+xml" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    const key = /svcpri_[A-Za-z0-9_-]{43}/.exec(html)?.[0];
    expect(key).toBeDefined();
    expect(html).toContain(`Authorization: Bearer ${key}`);
    const missing = await activate("cs_test_unknown", { headers: { Accept: "text/html" } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("could not be activated");
  });

  it("answers 404 for an unknown session and 400 for a malformed one", async () => {
    await expectProblem(await activate("cs_test_nosuchsession"), 404, "CHECKOUT_SESSION_NOT_FOUND");
    await expectInvalid(await activate("not-a-session"), "query", ["session_id"]);
    await expectInvalid(await asClient()("/api/v1/api-keys/activate"), "query", ["session_id"]);
  });

  it("issues exactly one key among 20 racing activations of one paid session", async () => {
    const order = await subscribe();
    await pay(order.checkout_session_id);
    const answers = await Promise.all(Array.from({ length: 20 }, () => activate(order.checkout_session_id)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as Activation[];
    expect(bodies.filter((body) => body.api_key_returned)).toHaveLength(1);
    expect(bodies.filter((body) => body.api_key !== undefined)).toHaveLength(1);
    expect(await sqlRows("select id from priority_api_keys where order_id = $1", [order.order_id])).toHaveLength(1);
  });
});

describe("POST /webhooks/stripe", () => {
  it("takes a correctly signed event once: a replay changes nothing and says so", async () => {
    const order = await subscribe();
    const completed = await pay(order.checkout_session_id);
    const first = await deliver(completed);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ received: true, type: "checkout.session.completed", duplicate: false });
    const [paid] = await sqlRows<{ status: string; paid_at: string }>(
      "select status, paid_at::text from commerce_orders where id = $1",
      [order.order_id],
    );
    expect(paid?.status).toBe("paid");
    const replay = await deliver(completed);
    expect(await replay.json()).toMatchObject({ duplicate: true });
    const [still] = await sqlRows<{ paid_at: string }>("select paid_at::text from commerce_orders where id = $1", [
      order.order_id,
    ]);
    expect(still?.paid_at).toBe(paid?.paid_at);
    expect(await sqlRows("select event_id from stripe_events where event_id = $1", [completed.id])).toHaveLength(1);
  });

  it("refuses a wrong secret, a stale timestamp, a changed body and a missing header (400), recording nothing", async () => {
    const order = await subscribe();
    const completed = await pay(order.checkout_session_id);
    const cases = [
      { payload: completed.payload, signature: await sign(completed.payload, "whsec_not_ours") },
      {
        payload: completed.payload,
        signature: await sign(completed.payload, bindings.STRIPE_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 301),
      },
      { payload: completed.payload.replace("complete", "completf"), signature: completed.signature },
    ];
    for (const bad of cases) await expectProblem(await deliver(bad), 400, "WEBHOOK_SIGNATURE_INVALID");
    const bare = await call("/api/v1/webhooks/stripe", { method: "POST", body: completed.payload });
    await expectProblem(bare, 400, "WEBHOOK_SIGNATURE_INVALID");
    expect(await sqlRows("select event_id from stripe_events where event_id = $1", [completed.id])).toHaveLength(0);
    const [order_] = await sqlRows<{ status: string }>("select status from commerce_orders where id = $1", [
      order.order_id,
    ]);
    expect(order_?.status).toBe("pending");
  });

  it("keeps the key in step with the subscription: unpaid suspends, a renewal restores, a cancellation ends it", async () => {
    const { key, subscriptionId } = await buyKey();
    const search = () => withKey(key)("/api/v1/search?q=zqnothing");
    expect((await search()).status).toBe(200);

    expect(
      (await deliver(await event("customer.subscription.updated", { id: subscriptionId, status: "unpaid" }))).status,
    ).toBe(200);
    await expectProblem(await search(), 401, "PRIORITY_KEY_INVALID");

    expect((await deliver(await control(subscriptionId, "renew"))).status).toBe(200);
    const [renewed] = await sqlRows<{ status: string; renewed_at: string | null }>(
      "select status, renewed_at::text from priority_api_keys where stripe_subscription_id = $1",
      [subscriptionId],
    );
    expect(renewed?.status).toBe("active");
    expect(renewed?.renewed_at).not.toBeNull();
    expect((await search()).status).toBe(200);

    expect((await deliver(await control(subscriptionId, "cancel"))).status).toBe(200);
    await expectProblem(await search(), 401, "PRIORITY_KEY_INVALID");
    // Ended for good: a late renewal or update does not bring it back.
    await deliver(await control(subscriptionId, "renew"));
    await deliver(await event("customer.subscription.updated", { id: subscriptionId, status: "active" }));
    await expectProblem(await search(), 401, "PRIORITY_KEY_INVALID");
  });
});

describe("a cancellation before the activation", () => {
  it("stops the activation (409), even when it arrives before checkout.session.completed", async () => {
    const order = await subscribe();
    const completed = await pay(order.checkout_session_id);
    const subscriptionId = (JSON.parse(completed.payload) as { data: { object: { subscription: string } } }).data.object
      .subscription;
    expect((await deliver(await control(subscriptionId, "cancel"))).status).toBe(200);
    await expectProblem(await activate(order.checkout_session_id), 409, "SUBSCRIPTION_ENDED");
    expect((await deliver(completed)).status).toBe(200);
    await expectProblem(await activate(order.checkout_session_id), 409, "SUBSCRIPTION_ENDED");
    expect(await sqlRows("select id from priority_api_keys where order_id = $1", [order.order_id])).toHaveLength(0);
  });
});

describe("the priority key on search, live verification and /check", () => {
  it("raises the search ceiling and changes nothing in the results", async () => {
    const { key } = await buyKey();
    const token = uniqueToken();
    for (const score of [10, 40, 70]) {
      const domain = await insertSite();
      await sqlRows("update sites set name = $1, agentic_score = $2 where domain = $3", [
        `${token} site`,
        score,
        domain,
      ]);
    }
    const free = await asClient()(`/api/v1/search?q=${token}`);
    const paid = await withKey(key)(`/api/v1/search?q=${token}`);
    expect(free.headers.get("ratelimit-limit")).toBe("240");
    expect(paid.headers.get("ratelimit-limit")).toBe("5000");
    expect(paid.headers.get("x-svc-access-tier")).toBe("priority");
    expect(paid.headers.get("x-svc-priority-remaining")).toBe("49999");
    // Everything but the receipt's own id is the same, wherever it appears.
    const strip = (body: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(body).replaceAll(String(body.search_id), ""));
    const [freeBody, paidBody] = (await Promise.all([free.json(), paid.json()])) as Record<string, unknown>[];
    expect((freeBody!.results as unknown[]).length).toBe(3);
    expect(strip(paidBody!)).toEqual(strip(freeBody!));
  });

  it("refuses a malformed, unknown or other-scheme credential with 401, never the free tier", async () => {
    for (const authorization of [
      "Bearer svcpri_short",
      `Bearer svcpri_${"A".repeat(43)}`,
      "Basic dXNlcjpwYXNz",
      "Bearer",
    ]) {
      const response = await asClient()("/api/v1/search?q=x", { headers: { Authorization: authorization } });
      await expectProblem(response, 401, "PRIORITY_KEY_INVALID");
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
    }
  });

  it("counts the monthly allocation exactly, then falls back to the free tier; last month's count is not this month's", async () => {
    const { key, keyId } = await buyKey();
    // Last month used up: this month starts afresh.
    await sqlRows(
      "insert into priority_key_usage (key_id, month, calls) values ($1, (date_trunc('month', now() at time zone 'utc') - interval '1 month')::date, 50000)",
      [keyId],
    );
    await sqlRows("insert into priority_key_usage (key_id, month, calls) values ($1, $2, 49998)", [keyId, thisMonth()]);
    const client = withKey(key);
    const tiers = [];
    for (let call = 0; call < 3; call++) {
      const response = await client("/api/v1/search?q=zqallocation");
      expect(response.status).toBe(200);
      tiers.push([
        response.headers.get("x-svc-access-tier"),
        response.headers.get("ratelimit-limit"),
        response.headers.get("x-svc-priority-remaining"),
      ]);
    }
    expect(tiers).toEqual([
      ["priority", "5000", "1"],
      ["priority", "5000", "0"],
      ["free", "240", "0"],
    ]);
    const [usage] = await sqlRows<{ calls: number }>(
      "select calls from priority_key_usage where key_id = $1 and month = $2",
      [keyId, thisMonth()],
    );
    expect(usage?.calls).toBe(50_000);
  });

  it("allows 100 live verifications an hour per key; the refused one takes nothing from the allocation", async () => {
    // The hourly window's edge would weigh the calls before it less: the 101st could pass.
    await awayFromWindowEdge(3600, 60);
    const { key, keyId } = await buyKey();
    const client = withKey(key);
    const target = encodeURIComponent("http://127.0.0.1:9/mcp");
    const statuses = [];
    for (let call = 0; call < 101; call++) statuses.push((await client(`/api/v1/verify-mcp?url=${target}`)).status);
    expect(statuses.slice(0, 100)).toEqual(Array(100).fill(200));
    expect(statuses[100]).toBe(429);
    const [usage] = await sqlRows<{ calls: number }>(
      "select calls from priority_key_usage where key_id = $1 and month = $2",
      [keyId, thisMonth()],
    );
    expect(usage?.calls).toBe(100);
    // /check has its own 100 an hour.
    const check = await client("/api/v1/check", jsonPost({ url: "http://127.0.0.1:9/" }));
    expect(check.headers.get("ratelimit-limit")).toBe("100");
    expect(check.headers.get("x-svc-access-tier")).toBe("priority");
  });

  it("takes exactly the allocation's last calls among racing requests; the rest go to the free tier", async () => {
    const { key, keyId } = await buyKey();
    await sqlRows("insert into priority_key_usage (key_id, month, calls) values ($1, $2, 49990)", [keyId, thisMonth()]);
    const client = withKey(key);
    const answers = await Promise.all(Array.from({ length: 20 }, () => client("/api/v1/search?q=zqrace")));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const tiers = answers.map((answer) => answer.headers.get("x-svc-access-tier"));
    expect(tiers.filter((tier) => tier === "priority")).toHaveLength(10);
    expect(tiers.filter((tier) => tier === "free")).toHaveLength(10);
    const [usage] = await sqlRows<{ calls: number }>(
      "select calls from priority_key_usage where key_id = $1 and month = $2",
      [keyId, thisMonth()],
    );
    expect(usage?.calls).toBe(50_000);
  });

  it("turns the month over at 00:00:00.000 UTC on the 1st, on the database", async () => {
    const { key, keyId } = await buyKey();
    const db = testDatabase();
    const lastInstant = new Date("2031-01-31T23:59:59.999Z");
    const firstInstant = new Date("2031-02-01T00:00:00.000Z");
    await sqlRows("insert into priority_key_usage (key_id, month, calls) values ($1, '2031-01-01', 49999)", [keyId]);
    expect(await authenticatePriorityKey(db, key, lastInstant)).toEqual({
      keyId: String(keyId),
      usedThisMonth: 49_999,
    });
    expect(await takeMonthlyCall(db, String(keyId), lastInstant)).toBe(0);
    expect(await takeMonthlyCall(db, String(keyId), lastInstant)).toBeNull();
    expect(await authenticatePriorityKey(db, key, firstInstant)).toEqual({ keyId: String(keyId), usedThisMonth: 0 });
    expect(await takeMonthlyCall(db, String(keyId), firstInstant)).toBe(49_999);
  });
});
