/**
 * The one catalog: what can be bought, at what price, and what the priority key allows. Checkout
 * sessions are priced from here (Stripe's inline price data), so no price lives anywhere else.
 */

export const SCORE_FIX_PRODUCT_ID: "svc_geo_fix_my_score" = "svc_geo_fix_my_score";
export const PRIORITY_PRODUCT_ID: "svc_api_unlimited" = "svc_api_unlimited";
export const PRIORITY_PLAN: "unlimited" = "unlimited";

export const PRODUCT_IDS = [SCORE_FIX_PRODUCT_ID, PRIORITY_PRODUCT_ID] as const;
export type ProductId = (typeof PRODUCT_IDS)[number];
export const PLAN_IDS = [PRIORITY_PLAN] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const CURRENCY: "usd" = "usd";

/** What a priority key allows (interface spec, Limits). */
export const PRIORITY_LIMITS = {
  /** Searches per hour per key while the monthly allocation remains. */
  searchPerHour: 5000,
  /** Live MCP verifications per hour per key while the allocation remains. */
  verifyPerHour: 100,
  /** POST /check per hour per key while the allocation remains. */
  checkPerHour: 100,
  /** Calls per calendar month (UTC) across search, verification and check; then the free tier. */
  monthlyCalls: 50_000,
} as const;

/** The priority limits as the API shows them (snake_case, like every other member). */
export const PUBLIC_PRIORITY_LIMITS = {
  search_per_hour: PRIORITY_LIMITS.searchPerHour,
  verify_per_hour: PRIORITY_LIMITS.verifyPerHour,
  check_per_hour: PRIORITY_LIMITS.checkPerHour,
  monthly_calls: PRIORITY_LIMITS.monthlyCalls,
} as const;

export interface ScoreFixProduct {
  product_id: typeof SCORE_FIX_PRODUCT_ID;
  kind: "service";
  name: string;
  description: string;
  amount: number;
  currency: typeof CURRENCY;
  billing: "one_time";
  checkout_endpoint: "/checkout";
}

export interface PriorityPlan {
  plan: PlanId;
  name: string;
  description: string;
  amount: number;
  currency: typeof CURRENCY;
  interval: "month";
  limits: typeof PUBLIC_PRIORITY_LIMITS;
}

export interface PriorityProduct {
  product_id: typeof PRIORITY_PRODUCT_ID;
  kind: "subscription";
  name: string;
  description: string;
  plans: PriorityPlan[];
  checkout_endpoint: "/api-keys/subscribe";
}

export const SCORE_FIX: ScoreFixProduct = {
  product_id: SCORE_FIX_PRODUCT_ID,
  kind: "service",
  name: "Fix my agent-readiness score",
  description:
    "A person reviews the site's seven signals and delivers the missing pieces (llms.txt, plugin manifest, OpenAPI, MCP server, robots.txt AI rules, schema.org) as changes for the named repository or as files to publish. It does not buy rank: the score changes only when a recrawl finds the signals.",
  amount: 29_900,
  currency: CURRENCY,
  billing: "one_time",
  checkout_endpoint: "/checkout",
};

export const PRIORITY_UNLIMITED: PriorityPlan = {
  plan: PRIORITY_PLAN,
  name: "Priority API key",
  description:
    "Higher ceilings for search, live MCP verification and /check while the monthly allocation lasts; the free tier applies after it. Ranking and results never change with a key.",
  amount: 4_900,
  currency: CURRENCY,
  interval: "month",
  limits: PUBLIC_PRIORITY_LIMITS,
};

export const PRIORITY_PRODUCT: PriorityProduct = {
  product_id: PRIORITY_PRODUCT_ID,
  kind: "subscription",
  name: "Priority-throughput API key",
  description: "An optional API key with higher limits, billed monthly. Baseline discovery stays free.",
  plans: [PRIORITY_UNLIMITED],
  checkout_endpoint: "/api-keys/subscribe",
};

const PLANS: Record<PlanId, PriorityPlan> = { unlimited: PRIORITY_UNLIMITED };

/** The priority plan of this id. */
export function planOf(plan: PlanId): PriorityPlan {
  return PLANS[plan];
}

/** Cents as "$299.00" for people. */
export function formatAmount(cents: number, currency: string = CURRENCY): string {
  const value = (cents / 100).toFixed(2);
  return currency === "usd" ? `$${value}` : `${value} ${currency.toUpperCase()}`;
}
