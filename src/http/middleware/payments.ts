/**
 * Puts Stripe on the request's dependencies for the commerce group's routes, the only ones that
 * pay. The adapter lives here rather than in src/deps.ts so that the Workers of the other groups
 * do not bundle the Stripe SDK (the largest of the service's libraries).
 */
import type { MiddlewareHandler } from "hono";
import { createStripePayments } from "../../adapters/stripe.ts";
import type { AppEnv } from "../context.ts";

/** Sets `deps.payments` when the payments capability is configured (else it stays undefined: 503). */
export function withPayments(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { deps } = c.var;
    const settings = deps.config.capabilities.payments;
    if (settings && !deps.payments) {
      c.set("deps", {
        ...deps,
        payments: createStripePayments({
          secretKey: settings.STRIPE_SECRET_KEY,
          webhookSecret: settings.STRIPE_WEBHOOK_SECRET,
          apiUrl: settings.STRIPE_API_URL,
        }),
      });
    }
    await next();
  };
}
