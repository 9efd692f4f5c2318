/**
 * The commerce group: the catalog, quotes, the score-fix checkout, the priority key (plan,
 * subscription, activation) and Stripe's webhook. Everything free works without it.
 */

import { withPayments } from "../../http/middleware/payments.ts";
import { createRoutes, type RouteGroup } from "../../http/routes.ts";
import type { GroupDefinition } from "../group-definition.ts";
import { registerActivateApiKey } from "./activate-api-key.ts";
import { registerCreateCheckout } from "./create-checkout.ts";
import { registerCreateQuote } from "./create-quote.ts";
import { registerCreateSubscription } from "./create-subscription.ts";
import { registerGetCatalog } from "./get-catalog.ts";
import { registerGetSubscriptionPlan } from "./get-subscription-plan.ts";
import { registerStripeWebhook } from "./stripe-webhook.ts";

/** Builds the commerce group's endpoints. */
export function createCommerceGroup(): RouteGroup {
  const routes = createRoutes();
  // Before the routes, so each of them finds Stripe on its dependencies. Mounted under /api/v1 it
  // also runs before the routes of groups mounted after this one, which ignore it.
  routes.use("*", withPayments());
  registerGetCatalog(routes);
  registerCreateQuote(routes);
  registerCreateCheckout(routes);
  registerGetSubscriptionPlan(routes);
  registerCreateSubscription(routes);
  registerActivateApiKey(routes);
  registerStripeWebhook(routes);
  return { name: "commerce", routes };
}

/** The commerce group in a Worker: its endpoints; it owns no jobs. */
export const commerceGroup: GroupDefinition = { name: "commerce", createRoutes: createCommerceGroup };
