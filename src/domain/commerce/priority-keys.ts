/**
 * Priority keys: issued once per paid subscription order (the unique order id is the guard, so
 * racing activations issue one key), prefixed, 256-bit, stored as SHA-256, shown once. A key
 * raises ceilings only, while its calendar month's allocation lasts.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import { newSecret, SECRET_PREFIXES } from "../accounts/secrets.ts";
import { DomainError } from "../errors.ts";
import { sha256Hex } from "../sha256.ts";
import { PRIORITY_LIMITS, PUBLIC_PRIORITY_LIMITS } from "./catalog.ts";
import { type CommerceContext, paymentsUnavailable } from "./checkout.ts";

/** How a priority key is presented on a request. */
export const PRIORITY_KEY_PRESENTATION = "Authorization: Bearer <key>";
/** How many characters of a key are kept in the clear to tell keys apart (the prefix and 4 more). */
const SHOWN_KEY_CHARACTERS = SECRET_PREFIXES.priorityKey.length + 4;
const PRIORITY_KEY_FORM = /^svcpri_[A-Za-z0-9_-]{43}$/;
/** A Checkout Session id as Stripe makes them. */
export const CHECKOUT_SESSION_ID_FORM = /^cs_[A-Za-z0-9_]{1,250}$/;

/** Subscription states after which a key never works again. */
const ENDED_SUBSCRIPTION = new Set(["canceled", "incomplete_expired"]);

/** The first day of `now`'s calendar month in UTC, as a date: the allocation's period. */
export function monthOf(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}-01`;
}

interface KeyRow {
  id: string | number;
  key_prefix: string;
  plan: string;
  status: string;
  created_at: string | Date;
}

const keyMetadata = (row: KeyRow) => ({
  priority_api_key_id: Number(row.id),
  key_prefix: row.key_prefix,
  plan: row.plan,
  status: row.status,
  created_at: new Date(row.created_at).toISOString(),
  presentation: PRIORITY_KEY_PRESENTATION,
  limits: PUBLIC_PRIORITY_LIMITS,
});

/**
 * Activates the priority key bought in Checkout Session `sessionId`: the order must be ours and
 * Stripe's API must say the session is complete and paid (the query string alone proves nothing).
 * The first activation issues the key and returns it; any later one returns only its metadata.
 */
export async function activatePriorityKey({ ctx, input }: { ctx: CommerceContext; input: { sessionId: string } }) {
  const { payments } = ctx;
  if (!payments) throw paymentsUnavailable();
  const notFound = () =>
    new DomainError("not_found", "CHECKOUT_SESSION_NOT_FOUND", "No priority-key checkout has this session id.");
  const orders = await ctx.db.execute(sql`
    select id, subscription_status from commerce_orders
    where stripe_checkout_session_id = ${input.sessionId} and kind = 'priority_key'`);
  const order = orders.rows[0] as { id: string; subscription_status: string | null } | undefined;
  if (!order) throw notFound();

  const session = await payments.retrieveCheckoutSession(input.sessionId).catch(() => {
    throw paymentsUnavailable();
  });
  if (!session || session.clientReferenceId !== order.id) throw notFound();
  const paid = session.paymentStatus === "paid" || session.paymentStatus === "no_payment_required";
  if (session.status !== "complete" || !paid) {
    throw new DomainError(
      "conflict",
      "CHECKOUT_NOT_PAID",
      "This checkout is not paid yet: finish it on the checkout page, then open this link again.",
      { checkout_status: session.status, payment_status: session.paymentStatus },
    );
  }
  if (order.subscription_status && ENDED_SUBSCRIPTION.has(order.subscription_status)) {
    throw new DomainError("conflict", "SUBSCRIPTION_ENDED", "The subscription of this checkout has ended.");
  }

  const key = newSecret("priorityKey");
  const keySha256 = await sha256Hex(key);
  // One statement: the order is marked paid and the key inserted, or, when another activation
  // got there first, nothing is inserted (the unique order id decides, whatever the concurrency).
  const issued = await ctx.db.execute(sql`
    with paid as (
      update commerce_orders
      set status = 'paid', paid_at = coalesce(paid_at, now()),
          stripe_subscription_id = coalesce(stripe_subscription_id, ${session.subscriptionId})
      where id = ${order.id} and status <> 'failed'
      returning id, plan, stripe_subscription_id
    )
    insert into priority_api_keys (order_id, key_sha256, key_prefix, plan, stripe_subscription_id)
    select id, ${keySha256}, ${key.slice(0, SHOWN_KEY_CHARACTERS)}, plan, stripe_subscription_id from paid
    on conflict (order_id) do nothing
    returning id, key_prefix, plan, status, created_at`);
  const row = issued.rows[0] as KeyRow | undefined;
  if (row) {
    return { activated: true, api_key_returned: true, api_key: key, key: keyMetadata(row) };
  }
  const existing = await ctx.db.execute(sql`
    select id, key_prefix, plan, status, created_at from priority_api_keys where order_id = ${order.id}`);
  const earlier = existing.rows[0] as KeyRow | undefined;
  if (!earlier) throw notFound();
  return { activated: true, api_key_returned: false, key: keyMetadata(earlier) };
}

/** A presented key that may be used: its id and the calls its current month has spent. */
export interface UsablePriorityKey {
  keyId: string;
  usedThisMonth: number;
}

/** The 401 of a key that is malformed, unknown, cancelled, suspended or revoked. */
export const priorityKeyInvalid = () =>
  new DomainError(
    "unauthenticated",
    "PRIORITY_KEY_INVALID",
    "The priority key is not valid or no longer active. Send a working key, or no Authorization header for the free tier.",
  );

/** Looks a presented key up by its hash; throws PRIORITY_KEY_INVALID unless it is active. */
export async function authenticatePriorityKey(db: Database, key: string, now: Date): Promise<UsablePriorityKey> {
  if (!PRIORITY_KEY_FORM.test(key)) throw priorityKeyInvalid();
  const result = await db.execute(sql`
    select k.id, k.status, coalesce(u.calls, 0) as calls
    from priority_api_keys k
    left join priority_key_usage u on u.key_id = k.id and u.month = ${monthOf(now)}::date
    where k.key_sha256 = ${await sha256Hex(key)}`);
  const row = result.rows[0] as { id: string | number; status: string; calls: string | number } | undefined;
  if (row?.status !== "active") throw priorityKeyInvalid();
  return { keyId: String(row.id), usedThisMonth: Number(row.calls) };
}

/**
 * Takes one call of the key's allocation for `now`'s month, atomically: the upsert adds one only
 * while the month's count is under the allocation. Returns the calls left after it, or null when
 * the allocation was already used up (the free tier applies then).
 */
export async function takeMonthlyCall(db: Database, keyId: string, now: Date): Promise<number | null> {
  const result = await db.execute(sql`
    insert into priority_key_usage as u (key_id, month, calls)
    values (${keyId}, ${monthOf(now)}::date, 1)
    on conflict (key_id, month) do update set calls = u.calls + 1
    where u.calls < ${PRIORITY_LIMITS.monthlyCalls}
    returning calls`);
  const row = result.rows[0] as { calls: string | number } | undefined;
  return row ? PRIORITY_LIMITS.monthlyCalls - Number(row.calls) : null;
}
