/**
 * Quotes and checkouts: an order is recorded first (pending), then Stripe makes the hosted
 * Checkout Session for it (the service never sees card data), and the order keeps the session's
 * id. Payment is confirmed later, by the verified webhook or by the activation's own look-up.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import type { CheckoutSessionView, Payments } from "../../adapters/stripe.ts";
import { parseCrawlTarget } from "../crawling/crawl-target.ts";
import { DomainError } from "../errors.ts";
import {
  CURRENCY,
  type PlanId,
  PRIORITY_PLAN,
  PRIORITY_PRODUCT,
  PRIORITY_PRODUCT_ID,
  type ProductId,
  planOf,
  SCORE_FIX,
  SCORE_FIX_PRODUCT_ID,
} from "./catalog.ts";

const API = "/api/v1";

/** What checkout operations work with. */
export interface CommerceContext {
  db: Database;
  /** Undefined when payments are not configured: the paid endpoints answer 503. */
  payments: Payments | undefined;
  /** The public origin: checkout return links and activation URLs point there. */
  origin: string;
  /** FETCH_ALLOW_PRIVATE: a development host such as 127.0.0.1:8080 is accepted as in /submit. */
  allowPrivate: boolean;
}

export const paymentsUnavailable = () =>
  new DomainError(
    "unavailable",
    "PAYMENTS_UNAVAILABLE",
    "Payments are not available right now; the free service works as usual.",
  );

/** The activation URL Stripe sends the buyer back to; Stripe fills in the session id. */
export const activationUrl = (origin: string, sessionId: string) =>
  `${origin}${API}/api-keys/activate?session_id=${encodeURIComponent(sessionId)}`;

/** The quote of one catalog item: its price and what the checkout needs. */
export function createQuote(origin: string, input: { product_id?: ProductId; plan?: PlanId }) {
  // A plan alone names the subscription; nothing at all names the score fix (the checkout's default).
  const productId = input.product_id ?? (input.plan ? PRIORITY_PRODUCT_ID : SCORE_FIX_PRODUCT_ID);
  if (productId === SCORE_FIX_PRODUCT_ID) {
    if (input.plan) {
      throw new DomainError("invalid", "PLAN_NOT_APPLICABLE", `plan applies only to ${PRIORITY_PRODUCT_ID}.`);
    }
    return {
      product_id: SCORE_FIX_PRODUCT_ID,
      plan: null,
      name: SCORE_FIX.name,
      quantity: 1 as const,
      amount: SCORE_FIX.amount,
      total: SCORE_FIX.amount,
      currency: CURRENCY,
      interval: null,
      checkout: {
        method: "POST" as const,
        url: `${origin}${API}/checkout`,
        payment_mode: "card_checkout" as const,
        required_fields: ["host", "email"],
        optional_fields: ["product_id", "payment_mode", "repo_url", "notes"],
        metadata: { product_id: SCORE_FIX_PRODUCT_ID },
      },
    };
  }
  const plan = planOf(input.plan ?? PRIORITY_PLAN);
  return {
    product_id: PRIORITY_PRODUCT_ID,
    plan: plan.plan,
    name: plan.name,
    quantity: 1 as const,
    amount: plan.amount,
    total: plan.amount,
    currency: CURRENCY,
    interval: plan.interval,
    checkout: {
      method: "POST" as const,
      url: `${origin}${API}/api-keys/subscribe`,
      payment_mode: "card_checkout" as const,
      required_fields: ["email", "plan"],
      optional_fields: [],
      metadata: { product_id: PRIORITY_PRODUCT_ID, plan: plan.plan },
    },
  };
}

/**
 * The host a score fix is for, normalised as a submitted URL is (IDNA, lower case, no trailing
 * dot; a bare host is read as https://host). The checkout rejects what /submit would reject.
 */
export function normalizeOrderHost(host: string, allowPrivate: boolean): string {
  const trimmed = host.trim();
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    return parseCrawlTarget(url, allowPrivate).domain;
  } catch (error) {
    if (error instanceof DomainError) {
      throw new DomainError("invalid", "INVALID_HOST", `host must be a site's domain name: ${error.message}`);
    }
    throw error;
  }
}

interface OrderRow {
  id: string;
  created_at: string | Date;
}

/** Asks Stripe for the order's session; on failure the order is marked failed and nothing is owed. */
async function openSession(
  ctx: CommerceContext & { payments: Payments },
  orderId: string,
  create: () => Promise<CheckoutSessionView>,
): Promise<CheckoutSessionView> {
  let session: CheckoutSessionView;
  try {
    session = await create();
  } catch (error) {
    await ctx.db.execute(
      sql`update commerce_orders set status = 'failed' where id = ${orderId} and status = 'pending'`,
    );
    console.error("checkout session not created", String(error));
    throw paymentsUnavailable();
  }
  await ctx.db.execute(
    sql`update commerce_orders set stripe_checkout_session_id = ${session.id} where id = ${orderId}`,
  );
  return session;
}

export interface ScoreFixCheckoutInput {
  host: string;
  email: string;
  repoUrl?: string;
  notes?: string;
}

/** Records a score-fix order and opens its hosted checkout; 503 when payments are not configured. */
export async function createScoreFixCheckout({ ctx, input }: { ctx: CommerceContext; input: ScoreFixCheckoutInput }) {
  const host = normalizeOrderHost(input.host, ctx.allowPrivate);
  const { payments } = ctx;
  if (!payments) throw paymentsUnavailable();
  const email = input.email.trim().toLowerCase();
  const result = await ctx.db.execute(sql`
    insert into commerce_orders (kind, product_id, email, host, repo_url, notes, amount_cents, currency)
    values ('score_fix', ${SCORE_FIX_PRODUCT_ID}, ${email}, ${host}, ${input.repoUrl ?? null}, ${input.notes ?? null},
      ${SCORE_FIX.amount}, ${CURRENCY})
    returning id, created_at`);
  const order = result.rows[0] as unknown as OrderRow;
  const session = await openSession({ ...ctx, payments }, order.id, () =>
    payments.createCheckoutSession({
      mode: "payment",
      line: {
        name: SCORE_FIX.name,
        description: `For ${host}`,
        amountCents: SCORE_FIX.amount,
        currency: CURRENCY,
      },
      email,
      orderId: order.id,
      metadata: { order_id: order.id, product_id: SCORE_FIX_PRODUCT_ID, host },
      successUrl: `${ctx.origin}/?checkout=complete&order_id=${order.id}`,
      cancelUrl: `${ctx.origin}/?checkout=canceled&order_id=${order.id}`,
    }),
  );
  return {
    order_id: order.id,
    status: "pending" as const,
    product_id: SCORE_FIX_PRODUCT_ID,
    host,
    email,
    amount: SCORE_FIX.amount,
    total: SCORE_FIX.amount,
    currency: CURRENCY,
    payment_mode: "card_checkout" as const,
    checkout_url: session.url ?? "",
    checkout_session_id: session.id,
    created_at: new Date(order.created_at).toISOString(),
  };
}

/** The plan and checkout contract of the priority key (GET /api-keys/subscribe). */
export function priorityPlanContract(origin: string) {
  return {
    product_id: PRIORITY_PRODUCT_ID,
    name: PRIORITY_PRODUCT.name,
    description: PRIORITY_PRODUCT.description,
    plans: PRIORITY_PRODUCT.plans,
    checkout: {
      method: "POST" as const,
      url: `${origin}${API}/api-keys/subscribe`,
      body: { email: "string (e-mail, required)", plan: `${PRIORITY_PLAN} (required; default ${PRIORITY_PLAN})` },
      returns: ["checkout_url", "activation_url"],
    },
    activation: {
      method: "GET" as const,
      url: `${origin}${API}/api-keys/activate?session_id={CHECKOUT_SESSION_ID}`,
      rule: "Confirms the paid session with Stripe, then shows the key once; a second activation of the same session issues no second key.",
    },
    presentation: "Authorization: Bearer <key>" as const,
    rules: [
      "A key raises ceilings only: ranking and results are the same with or without it.",
      "The monthly allocation counts calls to search, live verification and /check per calendar month (UTC); once it is used up the free tier applies until the next month.",
      "A bad, cancelled or revoked key is refused with 401, never served as the free tier.",
    ],
  };
}

/** Records a priority-key order and opens its hosted subscription checkout. */
export async function createPrioritySubscription({
  ctx,
  input,
}: {
  ctx: CommerceContext;
  input: { email: string; plan: PlanId };
}) {
  const { payments } = ctx;
  if (!payments) throw paymentsUnavailable();
  const plan = planOf(input.plan);
  const email = input.email.trim().toLowerCase();
  const result = await ctx.db.execute(sql`
    insert into commerce_orders (kind, product_id, plan, email, amount_cents, currency)
    values ('priority_key', ${PRIORITY_PRODUCT_ID}, ${plan.plan}, ${email}, ${plan.amount}, ${CURRENCY})
    returning id, created_at`);
  const order = result.rows[0] as unknown as OrderRow;
  const session = await openSession({ ...ctx, payments }, order.id, () =>
    payments.createCheckoutSession({
      mode: "subscription",
      line: {
        name: plan.name,
        description: plan.description,
        amountCents: plan.amount,
        currency: CURRENCY,
        interval: plan.interval,
      },
      email,
      orderId: order.id,
      metadata: { order_id: order.id, product_id: PRIORITY_PRODUCT_ID, plan: plan.plan },
      // Stripe replaces {CHECKOUT_SESSION_ID} with the session's id when it sends the buyer back.
      successUrl: `${ctx.origin}${API}/api-keys/activate?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${ctx.origin}/?checkout=canceled&order_id=${order.id}`,
    }),
  );
  return {
    order_id: order.id,
    product_id: PRIORITY_PRODUCT_ID,
    plan: plan.plan,
    amount: plan.amount,
    currency: CURRENCY,
    interval: plan.interval,
    checkout_url: session.url ?? "",
    checkout_session_id: session.id,
    activation_url: activationUrl(ctx.origin, session.id),
  };
}
