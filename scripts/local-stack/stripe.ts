/**
 * The local stack's stand-in for the part of Stripe's API the service calls: Checkout Sessions
 * (create, retrieve) and subscriptions (retrieve), in Stripe's form-encoded request format, JSON
 * objects and error bodies, so the Worker runs the real `stripe` SDK against it. Instead of a card
 * form, a local pay page completes a session and delivers a correctly signed webhook
 * (`Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.payload" under the signing secret>`),
 * as Stripe does, to the Worker's webhook URL.
 *
 *   POST /v1/checkout/sessions              create (Bearer secret key; Idempotency-Key honoured)
 *   GET  /v1/checkout/sessions/:id          retrieve
 *   GET  /v1/subscriptions/:id              retrieve
 *   GET  /pay/:id                           the pay page (a person's stand-in for Stripe Checkout)
 *   POST /pay/:id                           pays: completes the session, sends checkout.session.completed,
 *                                           then 303 to the success URL (JSON with Accept: application/json)
 *   POST /control/subscriptions/:id/renew   a paid renewal: sends invoice.paid
 *   POST /control/subscriptions/:id/cancel  ends it: sends customer.subscription.deleted
 *   GET  /control/events                    every event made, newest first, with its payload,
 *                                           signature header and delivery result
 *   GET  /                                  the sessions as a page, each with its pay link
 */
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { sendJson } from "./http.ts";

export interface StripeStandInOptions {
  /** The secret key the API accepts as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** The webhook signing secret (whsec_…) events are signed with. */
  webhookSecret: string;
  /** Where events are delivered (the Worker's POST /api/v1/webhooks/stripe); none: only recorded. */
  webhookUrl?: string;
  /** The origin pay links point at, once the port is known. */
  publicOrigin?: () => string;
}

type Json = Record<string, unknown>;

export interface StandInEvent {
  id: string;
  type: string;
  payload: string;
  signature: string;
  delivery: { status: number | null; error?: string } | null;
  created: number;
}

/** Stripe's error body. */
function sendStripeError(response: ServerResponse, status: number, message: string, extra: Json = {}) {
  sendJson(response, status, {
    error: { type: status === 401 ? "invalid_request_error" : "invalid_request_error", message, ...extra },
  });
}

const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("base64url").replaceAll("-", "a")}`;
const now = () => Math.floor(Date.now() / 1000);
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Parses Stripe's form encoding (`a[b][0][c]=v`, as the SDK's qs-style encoder writes it) into
 * nested objects and arrays of strings.
 */
export function parseStripeForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, "").split("[");
    let node: Json | unknown[] = root;
    path.forEach((segment, index) => {
      const last = index === path.length - 1;
      const container = node as Record<string, unknown>;
      if (last) {
        container[segment] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[index + 1] ?? "");
      container[segment] ??= nextIsIndex ? [] : {};
      node = container[segment] as Json;
    });
  }
  return root;
}

/** Signs a payload as Stripe does: `t=<unix>,v1=<hex HMAC-SHA256 of "t.payload">`. */
export function stripeSignatureHeader(payload: string, secret: string, timestamp: number = now()): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

interface LineItem {
  price_data?: {
    currency?: string;
    unit_amount?: string;
    product_data?: { name?: string; description?: string };
    recurring?: { interval?: string };
  };
  quantity?: string;
}

/** Validates a create request as Stripe does for the fields the service sends; the error or null. */
function createError(params: Json): { message: string; param: string } | null {
  if (params.mode !== "payment" && params.mode !== "subscription") {
    return { message: "Invalid mode: must be one of payment, setup, or subscription", param: "mode" };
  }
  if (typeof params.success_url !== "string" || !/^https?:\/\//.test(params.success_url)) {
    return { message: "Not a valid URL", param: "success_url" };
  }
  const items = params.line_items;
  if (!Array.isArray(items) || items.length === 0) {
    return { message: "line_items is required for this mode.", param: "line_items" };
  }
  for (const [index, raw] of items.entries()) {
    const item = raw as LineItem;
    const price = item.price_data;
    if (!price?.currency || !/^\d+$/.test(price.unit_amount ?? "") || !price.product_data?.name) {
      return { message: "Missing required param: price_data.", param: `line_items[${index}][price_data]` };
    }
    if (params.mode === "subscription" && !price.recurring?.interval) {
      return {
        message: "You must provide at least one recurring price in `subscription` mode when using prices.",
        param: "line_items",
      };
    }
    if (params.mode === "payment" && price.recurring) {
      return {
        message: "You can not pass `recurring` in `payment` mode.",
        param: `line_items[${index}][price_data][recurring]`,
      };
    }
  }
  return null;
}

/** The stand-in's server, and its state for the stack's and tests' own use. */
export function createStripeStandIn(options: StripeStandInOptions) {
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const idempotent = new Map<string, string>();
  const events: StandInEvent[] = [];
  const origin = () => options.publicOrigin?.() ?? "http://127.0.0.1";

  async function emit(type: string, object: Json): Promise<StandInEvent> {
    const created = now();
    const body = {
      id: newId("evt"),
      object: "event",
      api_version: "2026-10-28.endive",
      created,
      data: { object },
      livemode: false,
      pending_webhooks: options.webhookUrl ? 1 : 0,
      request: { id: null, idempotency_key: null },
      type,
    };
    const payload = JSON.stringify(body, null, 2);
    const event: StandInEvent = {
      id: body.id,
      type,
      payload,
      signature: stripeSignatureHeader(payload, options.webhookSecret, created),
      delivery: null,
      created,
    };
    events.push(event);
    if (options.webhookUrl) {
      try {
        const response = await fetch(options.webhookUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json; charset=utf-8", "Stripe-Signature": event.signature },
          body: payload,
        });
        event.delivery = { status: response.status };
        await response.body?.cancel();
      } catch (error) {
        event.delivery = { status: null, error: String(error) };
      }
    }
    return event;
  }

  function createSession(params: Json): Json {
    const items = params.line_items as LineItem[];
    const total = items.reduce(
      (sum, item) => sum + Number(item.price_data?.unit_amount ?? 0) * Number(item.quantity ?? 1),
      0,
    );
    const id = newId("cs");
    const session: Json = {
      id,
      object: "checkout.session",
      amount_subtotal: total,
      amount_total: total,
      cancel_url: params.cancel_url ?? null,
      client_reference_id: params.client_reference_id ?? null,
      created: now(),
      currency: items[0]?.price_data?.currency ?? "usd",
      customer: null,
      customer_email: params.customer_email ?? null,
      expires_at: now() + 24 * 3600,
      livemode: false,
      metadata: params.metadata ?? {},
      mode: params.mode,
      payment_status: "unpaid",
      status: "open",
      subscription: null,
      success_url: params.success_url,
      url: `${origin()}/pay/${id}`,
      // Kept for the pay page and the subscription; Stripe only shows line items on request.
      _line: items[0],
      _subscription_metadata: (params.subscription_data as Json | undefined)?.metadata ?? {},
    };
    sessions.set(id, session);
    return session;
  }

  const publicView = (session: Json) =>
    Object.fromEntries(Object.entries(session).filter(([key]) => !key.startsWith("_")));

  async function pay(session: Json): Promise<StandInEvent | null> {
    if (session.status !== "open") return null;
    if (session.mode === "subscription") {
      const subscription: Json = {
        id: newId("sub"),
        object: "subscription",
        status: "active",
        customer: newId("cus"),
        metadata: session._subscription_metadata,
        created: now(),
        cancel_at_period_end: false,
        livemode: false,
      };
      subscriptions.set(subscription.id as string, subscription);
      session.subscription = subscription.id;
      session.customer = subscription.customer;
    }
    session.status = "complete";
    session.payment_status = "paid";
    return emit("checkout.session.completed", publicView(session));
  }

  const authorized = (request: IncomingMessage, response: ServerResponse): boolean => {
    const header = request.headers.authorization;
    if (!header) {
      sendStripeError(response, 401, "You did not provide an API key.");
      return false;
    }
    if (header !== `Bearer ${options.apiKey}`) {
      sendStripeError(response, 401, "Invalid API Key provided.");
      return false;
    }
    return true;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://stripe.local");
    const path = url.pathname;
    const method = request.method ?? "GET";

    if (method === "POST" && path === "/v1/checkout/sessions") {
      if (!authorized(request, response)) return;
      const key = request.headers["idempotency-key"];
      const params = parseStripeForm(await readBody(request));
      const earlier = typeof key === "string" ? idempotent.get(key) : undefined;
      if (earlier) return sendJson(response, 200, publicView(sessions.get(earlier) as Json));
      const error = createError(params);
      if (error) return sendStripeError(response, 400, error.message, { param: error.param });
      const session = createSession(params);
      if (typeof key === "string") idempotent.set(key, session.id as string);
      return sendJson(response, 200, publicView(session));
    }
    const retrieve = /^\/v1\/(checkout\/sessions|subscriptions)\/([^/]+)$/.exec(path);
    if (method === "GET" && retrieve) {
      if (!authorized(request, response)) return;
      const [, kind, id] = retrieve as unknown as [string, string, string];
      const found = kind === "subscriptions" ? subscriptions.get(id) : sessions.get(id);
      if (!found) {
        const what = kind === "subscriptions" ? "subscription" : "checkout.session";
        return sendStripeError(response, 404, `No such ${what}: '${id}'`, { code: "resource_missing", param: "id" });
      }
      return sendJson(response, 200, publicView(found));
    }

    const payPath = /^\/pay\/([^/]+)$/.exec(path);
    if (payPath) {
      const session = sessions.get(payPath[1] as string);
      if (!session) {
        response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("No such checkout session.\n");
        return;
      }
      if (method === "GET") {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(renderPayPage(session));
        return;
      }
      if (method === "POST") {
        const event = await pay(session);
        if (request.headers.accept?.includes("application/json")) {
          return sendJson(response, 200, { session: publicView(session), event });
        }
        const target = String(session.success_url).replaceAll("{CHECKOUT_SESSION_ID}", session.id as string);
        response.writeHead(303, { location: target }).end();
        return;
      }
    }

    const control = /^\/control\/subscriptions\/([^/]+)\/(renew|cancel)$/.exec(path);
    if (method === "POST" && control) {
      const subscription = subscriptions.get(control[1] as string);
      if (!subscription) return sendStripeError(response, 404, "No such subscription", { code: "resource_missing" });
      if (control[2] === "cancel") {
        subscription.status = "canceled";
        subscription.canceled_at = now();
        return sendJson(response, 200, { event: await emit("customer.subscription.deleted", { ...subscription }) });
      }
      const invoice = {
        id: newId("in"),
        object: "invoice",
        status: "paid",
        billing_reason: "subscription_cycle",
        customer: subscription.customer,
        parent: { type: "subscription_details", subscription_details: { subscription: subscription.id } },
        created: now(),
      };
      return sendJson(response, 200, { event: await emit("invoice.paid", invoice) });
    }
    if (method === "GET" && path === "/control/events") {
      return sendJson(response, 200, events.slice().reverse());
    }
    if (method === "GET" && path === "/") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(renderIndex([...sessions.values()]));
      return;
    }
    sendStripeError(response, 404, `Unrecognized request URL (${method}: ${path}).`);
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      sendStripeError(response, 500, `The stand-in failed: ${String(error)}`);
    });
  });
  return { server, sessions, subscriptions, events };
}

const PAGE_STYLE =
  "body{font:15px/1.5 system-ui,sans-serif;max-width:40rem;margin:auto;padding:1rem}button{font:inherit;padding:.5rem 1.2rem}table{border-collapse:collapse}td,th{padding:.2rem .6rem;border-bottom:1px solid #ddd;text-align:left}";

function renderPayPage(session: Json): string {
  const line = session._line as LineItem;
  const amount = (Number(session.amount_total) / 100).toFixed(2);
  const interval = line.price_data?.recurring?.interval ? ` per ${line.price_data.recurring.interval}` : "";
  const name = escapeHtml(line.price_data?.product_data?.name ?? "Order");
  const action =
    session.status === "open"
      ? `<form method="post"><button type="submit">Pay ${amount} ${escapeHtml(String(session.currency).toUpperCase())}</button></form>
<p><a href="${escapeHtml(String(session.cancel_url ?? "/"))}">Cancel and go back</a></p>`
      : `<p>This session is ${escapeHtml(String(session.status))} (${escapeHtml(String(session.payment_status))}).</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Local checkout</title><style>${PAGE_STYLE}</style></head><body>
<h1>Local checkout (test mode)</h1>
<p>The local stack's stand-in for Stripe Checkout: no card is asked for and no money moves. Paying completes the
session, sends a signed <code>checkout.session.completed</code> webhook to the service and returns you to it.</p>
<p><b>${name}</b>: ${amount} ${escapeHtml(String(session.currency).toUpperCase())}${interval}<br>
For ${escapeHtml(String(session.customer_email ?? ""))}</p>
${action}</body></html>`;
}

function renderIndex(sessions: Json[]): string {
  const rows = sessions
    .slice()
    .reverse()
    .map(
      (session) =>
        `<tr><td><a href="/pay/${escapeHtml(String(session.id))}">${escapeHtml(String(session.id))}</a></td><td>${escapeHtml(String(session.mode))}</td><td>${escapeHtml(String(session.status))}</td><td>${escapeHtml(String(session.customer_email ?? ""))}</td><td>${escapeHtml(String(session.subscription ?? ""))}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local Stripe</title><style>${PAGE_STYLE}</style></head><body>
<h1>Local Stripe stand-in</h1><p>${sessions.length} checkout session(s), newest first. Events: <a href="/control/events">/control/events</a>.</p>
<table><tr><th>Session</th><th>Mode</th><th>Status</th><th>E-mail</th><th>Subscription</th></tr>${rows}</table></body></html>`;
}
