/**
 * The local stack's Stripe stand-in against the real `stripe` SDK: the Checkout Session and
 * subscription calls the service makes answer as Stripe's do (objects, errors, idempotency), and
 * the pay page completes a session and delivers a webhook that the SDK's own verifier accepts
 * (and refuses under another secret). Also through the service's adapter, as the Worker calls it.
 */
import { createServer, type Server } from "node:http";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { close, listen } from "../../scripts/local-stack/http.ts";
import {
  createStripeStandIn,
  parseStripeForm,
  type StandInEvent,
  stripeSignatureHeader,
} from "../../scripts/local-stack/stripe.ts";
import { createStripePayments, WebhookSignatureError } from "../../src/adapters/stripe.ts";

const KEY = "sk_test_fidelity";
const SECRET = "whsec_fidelity_secret";

let standIn: ReturnType<typeof createStripeStandIn>;
let apiUrl = "";
let receiver: Server;
const received: { body: string; signature: string }[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: String(request.headers["stripe-signature"]),
      });
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  const receiverPort = await listen(receiver, 0);
  let port = 0;
  standIn = createStripeStandIn({
    apiKey: KEY,
    webhookSecret: SECRET,
    webhookUrl: `http://127.0.0.1:${receiverPort}/webhook`,
    publicOrigin: () => `http://127.0.0.1:${port}`,
  });
  port = await listen(standIn.server, 0);
  apiUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await close(standIn.server);
  await close(receiver);
});

const sdk = (key = KEY) =>
  new Stripe(key, { host: "127.0.0.1", port: new URL(apiUrl).port, protocol: "http", maxNetworkRetries: 0 });

const paymentParams = (overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}) =>
  ({
    mode: "payment",
    line_items: [
      {
        quantity: 1,
        price_data: { currency: "usd", unit_amount: 29_900, product_data: { name: "Score fix", description: "d" } },
      },
    ],
    customer_email: "buyer@example.com",
    client_reference_id: "order-1",
    metadata: { order_id: "order-1", host: "example.com" },
    success_url: "https://svc.example/done?session_id={CHECKOUT_SESSION_ID}",
    cancel_url: "https://svc.example/cancel",
    ...overrides,
  }) satisfies Stripe.Checkout.SessionCreateParams;

async function payJson(sessionId: string): Promise<{ session: Record<string, unknown>; event: StandInEvent }> {
  const response = await fetch(`${apiUrl}/pay/${sessionId}`, {
    method: "POST",
    headers: { Accept: "application/json" },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { session: Record<string, unknown>; event: StandInEvent };
}

describe("Checkout Sessions through the stripe SDK", () => {
  it("creates an open, unpaid session with a pay link, and retrieves it", async () => {
    const created = await sdk().checkout.sessions.create(paymentParams());
    expect(created).toMatchObject({
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      amount_total: 29_900,
      currency: "usd",
      client_reference_id: "order-1",
      customer_email: "buyer@example.com",
      metadata: { order_id: "order-1", host: "example.com" },
      subscription: null,
      livemode: false,
    });
    expect(created.id).toMatch(/^cs_test_/);
    expect(created.url).toBe(`${apiUrl}/pay/${created.id}`);
    const retrieved = await sdk().checkout.sessions.retrieve(created.id);
    expect(retrieved).toEqual(created);
  });

  it("answers an unknown session as Stripe does: 404 resource_missing", async () => {
    const error = await sdk()
      .checkout.sessions.retrieve("cs_test_unknown")
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 404, code: "resource_missing", param: "id" });
  });

  it("refuses a wrong or missing key with 401", async () => {
    const error = await sdk("sk_test_wrong")
      .checkout.sessions.create(paymentParams())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const bare = await fetch(`${apiUrl}/v1/checkout/sessions/cs_test_x`);
    expect(bare.status).toBe(401);
  });

  it("refuses what Stripe refuses: a subscription without a recurring price, recurring in payment mode", async () => {
    const noRecurring = await sdk()
      .checkout.sessions.create(paymentParams({ mode: "subscription" }))
      .catch((caught: unknown) => caught);
    expect(noRecurring).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(noRecurring).toMatchObject({ statusCode: 400, param: "line_items" });
    const recurringInPayment = await sdk()
      .checkout.sessions.create(
        paymentParams({
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: "usd",
                unit_amount: 100,
                product_data: { name: "x" },
                recurring: { interval: "month" },
              },
            },
          ],
        }),
      )
      .catch((caught: unknown) => caught);
    expect(recurringInPayment).toMatchObject({ statusCode: 400 });
  });

  it("answers a repeated Idempotency-Key with the first session", async () => {
    const first = await sdk().checkout.sessions.create(paymentParams(), { idempotencyKey: "same-order" });
    const again = await sdk().checkout.sessions.create(paymentParams(), { idempotencyKey: "same-order" });
    expect(again.id).toBe(first.id);
  });
});

describe("the pay page and its signed webhook", () => {
  it("shows the order, then completes the session and delivers checkout.session.completed, signed", async () => {
    const created = await sdk().checkout.sessions.create(paymentParams());
    const page = await (await fetch(`${apiUrl}/pay/${created.id}`)).text();
    expect(page).toContain("Score fix");
    expect(page).toContain("299.00 USD");

    const response = await fetch(`${apiUrl}/pay/${created.id}`, { method: "POST", redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`https://svc.example/done?session_id=${created.id}`);

    const paid = await sdk().checkout.sessions.retrieve(created.id);
    expect(paid).toMatchObject({ status: "complete", payment_status: "paid" });
    const delivery = received.find((entry) => entry.body.includes(created.id));
    expect(delivery).toBeDefined();
    const event = sdk().webhooks.constructEvent(delivery!.body, delivery!.signature, SECRET);
    expect(event.type).toBe("checkout.session.completed");
    expect((event.data.object as Stripe.Checkout.Session).id).toBe(created.id);
    const viaSubtle = await sdk().webhooks.constructEventAsync(
      delivery!.body,
      delivery!.signature,
      SECRET,
      undefined,
      Stripe.createSubtleCryptoProvider(),
    );
    expect(viaSubtle.id).toBe(event.id);
    expect(() => sdk().webhooks.constructEvent(delivery!.body, delivery!.signature, "whsec_other")).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    const recorded = standIn.events.find((candidate) => candidate.id === event.id);
    expect(recorded?.delivery).toEqual({ status: 200 });
  });

  it("gives a paid subscription session its subscription, which renews and cancels with signed events", async () => {
    const created = await sdk().checkout.sessions.create(
      paymentParams({
        mode: "subscription",
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: "usd",
              unit_amount: 4_900,
              product_data: { name: "Priority key" },
              recurring: { interval: "month" },
            },
          },
        ],
        subscription_data: { metadata: { order_id: "order-2" } },
      }),
    );
    const { session } = await payJson(created.id);
    expect(session.subscription).toMatch(/^sub_test_/);
    const subscription = await sdk().subscriptions.retrieve(session.subscription as string);
    expect(subscription).toMatchObject({ status: "active", metadata: { order_id: "order-2" } });
    // A second payment of the same session changes nothing and sends nothing.
    const before = standIn.events.length;
    expect((await payJson(created.id)).event).toBeNull();
    expect(standIn.events.length).toBe(before);

    const renew = await fetch(`${apiUrl}/control/subscriptions/${subscription.id}/renew`, { method: "POST" });
    const renewal = ((await renew.json()) as { event: StandInEvent }).event;
    const invoice = sdk().webhooks.constructEvent(renewal.payload, renewal.signature, SECRET);
    expect(invoice.type).toBe("invoice.paid");
    expect(invoice.data.object).toMatchObject({
      parent: { subscription_details: { subscription: subscription.id } },
    });

    const cancel = await fetch(`${apiUrl}/control/subscriptions/${subscription.id}/cancel`, { method: "POST" });
    const ended = ((await cancel.json()) as { event: StandInEvent }).event;
    const deleted = sdk().webhooks.constructEvent(ended.payload, ended.signature, SECRET);
    expect(deleted.type).toBe("customer.subscription.deleted");
    expect((await sdk().subscriptions.retrieve(subscription.id)).status).toBe("canceled");
  });
});

describe("the service's adapter against the stand-in", () => {
  const payments = () => createStripePayments({ secretKey: KEY, webhookSecret: SECRET, apiUrl });

  it("creates, retrieves (null when unknown) and verifies as the Worker does", async () => {
    const session = await payments().createCheckoutSession({
      mode: "subscription",
      line: { name: "Priority key", description: "monthly", amountCents: 4_900, currency: "usd", interval: "month" },
      email: "buyer@example.com",
      orderId: "order-3",
      metadata: { order_id: "order-3" },
      successUrl: "https://svc.example/activate?session_id={CHECKOUT_SESSION_ID}",
      cancelUrl: "https://svc.example/",
    });
    expect(session).toMatchObject({ status: "open", paymentStatus: "unpaid", clientReferenceId: "order-3" });
    expect(await payments().retrieveCheckoutSession("cs_test_missing")).toBeNull();
    const { event } = await payJson(session.id);
    expect(await payments().retrieveCheckoutSession(session.id)).toMatchObject({
      status: "complete",
      paymentStatus: "paid",
      subscriptionId: expect.stringMatching(/^sub_test_/),
    });
    const verified = await payments().verifyWebhook(event.payload, event.signature);
    expect(verified).toMatchObject({ id: event.id, type: "checkout.session.completed" });
    const stale = stripeSignatureHeader(event.payload, SECRET, Math.floor(Date.now() / 1000) - 301);
    await expect(payments().verifyWebhook(event.payload, stale)).rejects.toBeInstanceOf(WebhookSignatureError);
    const wrong = createStripePayments({ secretKey: KEY, webhookSecret: "whsec_wrong", apiUrl });
    await expect(wrong.verifyWebhook(event.payload, event.signature)).rejects.toBeInstanceOf(WebhookSignatureError);
  });
});

describe("Stripe's form encoding", () => {
  it("parses nested keys and indexed arrays as the SDK writes them", () => {
    expect(
      parseStripeForm(
        "mode=payment&line_items[0][quantity]=1&line_items[0][price_data][product_data][name]=A%20b&metadata[order_id]=o",
      ),
    ).toEqual({
      mode: "payment",
      line_items: [{ quantity: "1", price_data: { product_data: { name: "A b" } } }],
      metadata: { order_id: "o" },
    });
  });
});
