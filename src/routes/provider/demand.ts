import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { verifyProviderKey } from "../../domain/claims/provider-keys.ts";
import {
  ACTION_INTEREST_COHORT,
  ACTION_INTEREST_RECEIPT_THRESHOLD,
  DEMAND_DEFAULT_DAYS,
  DEMAND_MAX_DAYS,
  DEMAND_MIN_DAYS,
  DEMAND_RETENTION_DAYS,
  DEMAND_SURFACES,
  RESULT_SELECTION_RECEIPT_THRESHOLD,
  TOPIC_RECEIPT_THRESHOLD,
} from "../../domain/demand/demand-constants.ts";
import { readDemand } from "../../domain/demand/read-demand.ts";
import { DEMAND_TOPICS } from "../../domain/demand/topics.ts";
import { DomainError } from "../../domain/errors.ts";
import { ACTION_TYPES } from "../../domain/search-receipts/receipt-constants.ts";
import type { AppEnv } from "../../http/context.ts";
import { providerKeyActorOf, requireProviderKey } from "../../http/middleware/require-provider-key.ts";
import { spendRateLimit } from "../../http/middleware/spend-rate-limit.ts";
import { HttpProblem } from "../../http/problem.ts";
import { storeUnavailableProblem } from "../../http/store-unavailable.ts";
import { problemResponses } from "../shared/schemas.ts";
import { PROVIDER_KEY_SECURITY } from "./schemas.ts";

/**
 * Provider reads: 240 per hour per key per read surface (the spec's Limits). Its own name, so
 * demand and pilot status count in separate windows.
 */
export const DEMAND_LIMIT = { name: "provider-demand", limit: 240, window: "1 h" } as const;

const DAYS_MESSAGE = `must be an integer from ${DEMAND_MIN_DAYS} to ${DEMAND_MAX_DAYS}`;

const DemandQuerySchema = z.strictObject({
  days: z.coerce
    .number({ error: DAYS_MESSAGE })
    .int(DAYS_MESSAGE)
    .min(DEMAND_MIN_DAYS, DAYS_MESSAGE)
    .max(DEMAND_MAX_DAYS, DAYS_MESSAGE)
    .default(DEMAND_DEFAULT_DAYS)
    .openapi({
      param: { name: "days", in: "query" },
      description: `Inclusive lookback in days (${DEMAND_MIN_DAYS} to ${DEMAND_MAX_DAYS}, default ${DEMAND_DEFAULT_DAYS}) in whole UTC days: 1 is today so far, 30 is today and the 29 days before`,
    }),
});

const count = z.number().int().min(0);
const suppressible = count
  .nullable()
  .openapi({ description: "null when suppressed (the matching *_suppressed is true)" });
const rateSchema = z.number().min(0).max(1).nullable();

const DemandSchema = z
  .object({
    demand: z
      .object({
        domain: z.string().openapi({ description: "The authenticated claim's domain" }),
        days: z.number().int().min(DEMAND_MIN_DAYS).max(DEMAND_MAX_DAYS),
        retention_days: z
          .number()
          .int()
          .openapi({ description: `Always ${DEMAND_RETENTION_DAYS}` }),
        action_interest_cohort: z.string().openapi({
          description: `Always ${ACTION_INTEREST_COHORT}: interests (and selections) count in the window of their source search`,
        }),
        topic_receipt_threshold: z
          .number()
          .int()
          .openapi({ description: `Always ${TOPIC_RECEIPT_THRESHOLD}` }),
        result_selection_receipt_threshold: z
          .number()
          .int()
          .openapi({ description: `Always ${RESULT_SELECTION_RECEIPT_THRESHOLD}` }),
        action_interest_receipt_threshold: z
          .number()
          .int()
          .openapi({ description: `Always ${ACTION_INTEREST_RECEIPT_THRESHOLD}` }),
        synthetic_excluded: z.literal(true),
        summary: z
          .object({
            organic_results_returned: count,
            search_receipts: count.openapi({ description: "Retained receipts, not unique agents" }),
            average_organic_position: z.number().min(0),
            result_selections: suppressible,
            result_selection_rate: rateSchema,
            result_selection_suppressed: z.boolean(),
            action_interest_receipts: suppressible,
            action_interest_rate: rateSchema,
            action_interest_suppressed: z.boolean(),
          })
          .strict(),
        surfaces: z.array(
          z
            .object({
              surface: z.enum(DEMAND_SURFACES),
              organic_results_returned: count,
              result_selections: suppressible,
              result_selection_suppressed: z.boolean(),
              action_interest_receipts: suppressible,
              action_interest_suppressed: z.boolean(),
            })
            .strict(),
        ),
        demand_topics: z.array(
          z
            .object({
              topic: z.enum(DEMAND_TOPICS),
              search_receipts: z.number().int().min(TOPIC_RECEIPT_THRESHOLD),
              average_organic_position: z.number().min(0),
              result_selections: suppressible,
              result_selection_suppressed: z.boolean(),
              action_interest_receipts: suppressible,
              action_interest_suppressed: z.boolean(),
            })
            .strict(),
        ),
        action_types: z.array(
          z
            .object({
              action_type: z.enum(ACTION_TYPES),
              receipt_count: z.number().int().min(TOPIC_RECEIPT_THRESHOLD),
            })
            .strict(),
        ),
      })
      .strict(),
    evidence_scope: z.string(),
  })
  .openapi("ProviderDemandResponse");

export const demandRoute = createRoute({
  method: "get",
  path: "/provider/demand",
  operationId: "getProviderDemand",
  tags: ["provider"],
  summary: "Privacy-thresholded demand for the key's own claim domain",
  description: [
    "Aggregate organic demand for the authenticated claim's domain only (the caller cannot choose the domain), over `days` whole UTC days up to now (1: today so far) of retained receipts (30-day retention); synthetic traffic is excluded and no individual receipt, query or identity is returned.",
    `Topic and action-type rows below ${TOPIC_RECEIPT_THRESHOLD} receipts are omitted; selection counts below ${RESULT_SELECTION_RECEIPT_THRESHOLD} and action-interest counts below ${ACTION_INTEREST_RECEIPT_THRESHOLD} are null with their *_suppressed flag true.`,
    "No differencing: two windows of one figure are either equal or differ by at least its threshold, and the summary minus the visible rows of a family is 0 or at least the threshold; more is suppressed where needed (docs/demand.md).",
    "Cache-Control: private, no-store. 240 per hour per key, counted apart from pilot status. 404 when the claim is no longer verified and fresh; 500 when the demand query fails; 503 when keys cannot be checked.",
  ].join(" "),
  security: PROVIDER_KEY_SECURITY,
  middleware: [requireProviderKey({ verify: verifyProviderKey, whenClaimNotFresh: 404 })],
  request: { query: DemandQuerySchema },
  responses: {
    200: { description: "Demand analytics", content: { "application/json": { schema: DemandSchema } } },
    ...problemResponses(400, 401, 404, 429, 500, 503),
  },
});

/**
 * What a failed demand read answers: the interface's 500 `DEMAND_QUERY_FAILED` for a query that
 * failed; a lost database stays 503 and a domain answer (404) stays itself.
 */
export function demandQueryFailed(error: unknown): unknown {
  if (error instanceof DomainError || error instanceof HttpProblem) return error;
  const unavailable = storeUnavailableProblem(error);
  if (unavailable) return unavailable;
  // The driver's cause only: drizzle's own message repeats the statement and its parameters.
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  console.error("demand query failed:", cause instanceof Error ? `${cause.name}: ${cause.message}` : "no cause given");
  return new HttpProblem(500, "DEMAND_QUERY_FAILED", "The demand query failed; try again later.");
}

export function registerDemand(app: OpenAPIHono<AppEnv>) {
  app.openapi(demandRoute, async (c) => {
    const { days } = c.req.valid("query");
    const actor = providerKeyActorOf(c.var.actor);
    await spendRateLimit(c, { ...DEMAND_LIMIT, identify: () => `key:${actor.keyId}` });
    let answer: Awaited<ReturnType<typeof readDemand>>;
    try {
      answer = await readDemand({ ctx: c.var.deps, actor, days });
    } catch (error) {
      throw demandQueryFailed(error);
    }
    c.header("Cache-Control", "private, no-store");
    return c.json(answer, 200);
  });
}
