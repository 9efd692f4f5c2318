/**
 * Fulfilment from Stripe's verified webhook events. Each event is handled once: its id goes into
 * the append-only `stripe_events` table in the same statement as its effect, so a replayed or
 * redelivered event changes nothing (the id's primary key decides, whatever the concurrency).
 */
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import { type Payments, type VerifiedEvent, WebhookSignatureError } from "../../adapters/stripe.ts";
import { DomainError } from "../errors.ts";
import { paymentsUnavailable } from "./checkout.ts";

/** The event types that change something; every other verified event is recorded and ignored. */
export const HANDLED_EVENT_TYPES = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "invoice.paid",
  "customer.subscription.updated",
  "customer.subscription.deleted",
] as const;

export interface WebhookOutcome {
  /** False when the event was handled before (a replay): nothing changed this time. */
  recorded: boolean;
  /** Rows the event changed (orders or keys). */
  applied: number;
}

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

/** A key's state for a subscription's Stripe status; canceled ends it for good. */
export function keyStatusFor(subscriptionStatus: string): "active" | "suspended" | "canceled" {
  if (["active", "trialing", "past_due"].includes(subscriptionStatus)) return "active";
  if (["canceled", "incomplete_expired"].includes(subscriptionStatus)) return "canceled";
  return "suspended";
}

/** The subscription an invoice belongs to, wherever the API version puts it. */
function invoiceSubscription(invoice: Record<string, unknown>): string | null {
  const parent = invoice.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
  return text(parent?.subscription_details?.subscription) ?? text(invoice.subscription);
}

/** The changes an event makes: data-modifying statements, each conditional on `ev` (the new event row). */
function effectsOf(event: VerifiedEvent): SQL[] {
  const object = event.object;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const sessionId = text(object.id);
      const paid = object.payment_status === "paid" || object.payment_status === "no_payment_required";
      if (!sessionId || !paid) return [];
      return [
        sql`update commerce_orders
          set status = 'paid', paid_at = now(),
              stripe_subscription_id = coalesce(stripe_subscription_id, ${text(object.subscription)})
          where stripe_checkout_session_id = ${sessionId} and status = 'pending' and exists (select 1 from ev)
          returning id`,
      ];
    }
    case "invoice.paid": {
      const subscriptionId = invoiceSubscription(object);
      if (!subscriptionId) return [];
      // A paid renewal: the key works again if unpaid invoices had suspended it; ended keys stay ended.
      return [
        sql`update priority_api_keys set status = 'active', renewed_at = now()
          where stripe_subscription_id = ${subscriptionId} and status in ('active', 'suspended')
            and exists (select 1 from ev)
          returning id`,
      ];
    }
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const subscriptionId = text(object.id);
      const stripeStatus = event.type === "customer.subscription.deleted" ? "canceled" : text(object.status);
      if (!subscriptionId || !stripeStatus) return [];
      const status = keyStatusFor(stripeStatus);
      // The subscription carries its order's id (subscription_data.metadata), so it is found even
      // when this event arrives before checkout.session.completed has linked the two.
      const orderId = text((object.metadata as Record<string, unknown> | null | undefined)?.order_id) ?? "";
      return [
        // Kept on the order too, so an activation after a cancellation issues nothing.
        sql`update commerce_orders
          set subscription_status = ${stripeStatus},
              stripe_subscription_id = coalesce(stripe_subscription_id, ${subscriptionId})
          where (stripe_subscription_id = ${subscriptionId} or (id::text = ${orderId} and kind = 'priority_key'))
            and exists (select 1 from ev)
            and coalesce(subscription_status, '') not in ('canceled', 'incomplete_expired')
          returning id`,
        sql`update priority_api_keys
          set status = ${status}, ended_at = case when ${status} = 'canceled' then now() end
          where (stripe_subscription_id = ${subscriptionId} or order_id::text = ${orderId})
            and status not in ('canceled', 'revoked')
            and exists (select 1 from ev)
          returning id`,
      ];
    }
    default:
      return [];
  }
}

/** Applies one verified event once; a replay is recorded as such and changes nothing. */
export async function handleStripeEvent({
  ctx,
  event,
}: {
  ctx: { db: Database };
  event: VerifiedEvent;
}): Promise<WebhookOutcome> {
  const effects = effectsOf(event);
  // One statement: the event row and its effects commit together or not at all.
  const ctes = effects.map((effect, index) => sql`, ${sql.raw(`e${index}`)} as (${effect})`);
  const applied = effects.length
    ? sql.join(
        effects.map((_, index) => sql`(select count(*)::int from ${sql.raw(`e${index}`)})`),
        sql` + `,
      )
    : sql`0`;
  const result = await ctx.db.execute(sql`
    with ev as (
      insert into stripe_events (event_id, type) values (${event.id}, ${event.type})
      on conflict (event_id) do nothing returning event_id
    )${sql.join(ctes, sql``)}
    select (select count(*)::int from ev) as recorded, ${applied} as applied`);
  const row = result.rows[0] as { recorded: number | string; applied: number | string };
  return { recorded: Number(row.recorded) === 1, applied: Number(row.applied) };
}

const signatureInvalid = (why: string) =>
  new DomainError("invalid", "WEBHOOK_SIGNATURE_INVALID", `The Stripe-Signature header does not verify: ${why}`);

/**
 * Verifies a webhook delivery over its exact bytes (400 WEBHOOK_SIGNATURE_INVALID when the
 * signature is missing, wrong or stale; 503 when payments are not configured), then applies it once.
 */
export async function receiveStripeWebhook({
  ctx,
  input,
}: {
  ctx: { db: Database; payments: Payments | undefined };
  input: { payload: string; signature: string | undefined };
}): Promise<{ event: VerifiedEvent; outcome: WebhookOutcome }> {
  if (!ctx.payments) throw paymentsUnavailable();
  if (!input.signature) throw signatureInvalid("the header is missing.");
  let event: VerifiedEvent;
  try {
    event = await ctx.payments.verifyWebhook(input.payload, input.signature);
  } catch (error) {
    if (error instanceof WebhookSignatureError) throw signatureInvalid(error.message);
    throw error;
  }
  return { event, outcome: await handleStripeEvent({ ctx, event }) };
}
