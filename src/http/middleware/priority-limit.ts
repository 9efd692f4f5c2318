/**
 * The limits of an endpoint a priority key raises (search, live verification, /check): spent in
 * the handler once the input is valid, like `spendRateLimit`. The key is presented as
 * `Authorization: Bearer <key>`; it changes how many calls are allowed, never what they answer.
 */
import type { Context } from "hono";
import { PRIORITY_LIMITS } from "../../domain/commerce/catalog.ts";
import {
  authenticatePriorityKey,
  priorityKeyInvalid,
  takeMonthlyCall,
  type UsablePriorityKey,
} from "../../domain/commerce/priority-keys.ts";
import { DomainError } from "../../domain/errors.ts";
import type { AppEnv } from "../context.ts";
import { domainErrorProblem } from "../domain-error-table.ts";
import { HttpProblem } from "../problem.ts";
import { consumeRateLimit, type RateLimitOptions } from "./rate-limit.ts";

export interface TieredLimit {
  /** The free tier, counted per client. */
  free: RateLimitOptions;
  /** The key's own hourly ceiling while its monthly allocation lasts; counted per key. */
  priority: Omit<RateLimitOptions, "identify">;
}

/** Tells the caller which tier counted the request and how much of the month's allocation is left. */
export const ACCESS_TIER_HEADER = "X-SVC-Access-Tier";
export const PRIORITY_REMAINING_HEADER = "X-SVC-Priority-Remaining";

const BEARER = /^Bearer[ ]+(\S+)$/i;

/**
 * Counts this request: without an Authorization header against the free tier (per client). With
 * one, the key must be active (401 `PRIORITY_KEY_INVALID` otherwise, never a silent fall back);
 * then, while its calendar month's allocation lasts, against the key's hourly ceiling and one call
 * of the allocation; once the allocation is used up, against the free tier like any client.
 * A request refused by the key's hourly ceiling (429) takes nothing from the allocation.
 *
 * @example await spendTieredLimit(c, { free: SEARCH_LIMIT, priority: PRIORITY_SEARCH_LIMIT });
 */
export async function spendTieredLimit(c: Context<AppEnv>, limits: TieredLimit, now: Date = new Date()): Promise<void> {
  const authorization = c.req.header("authorization");
  if (authorization === undefined) {
    c.set("rateLimitHeaders", await consumeRateLimit(c, limits.free));
    return;
  }
  const { db } = c.var.deps;
  const key = await authenticate(db, BEARER.exec(authorization.trim())?.[1], now);
  if (key.usedThisMonth < PRIORITY_LIMITS.monthlyCalls) {
    const headers = await consumePriorityLimit(c, limits.priority, key.keyId);
    const remaining = await takeMonthlyCall(db, key.keyId, now);
    if (remaining !== null) {
      c.set("rateLimitHeaders", {
        ...headers,
        [ACCESS_TIER_HEADER]: "priority",
        [PRIORITY_REMAINING_HEADER]: String(remaining),
      });
      return;
    }
    // Another request took the allocation's last call in between: this one is a free-tier call.
  }
  const headers = await consumeRateLimit(c, limits.free);
  c.set("rateLimitHeaders", { ...headers, [ACCESS_TIER_HEADER]: "free", [PRIORITY_REMAINING_HEADER]: "0" });
}

/** The key's state, or the 401 with the challenge RFC 6750 asks of a bearer scheme. */
async function authenticate(
  db: AppEnv["Variables"]["deps"]["db"],
  presented: string | undefined,
  now: Date,
): Promise<UsablePriorityKey> {
  try {
    if (!presented) throw priorityKeyInvalid();
    return await authenticatePriorityKey(db, presented, now);
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== "PRIORITY_KEY_INVALID") throw error;
    const problem = domainErrorProblem(error);
    Object.assign(problem.headers, { "WWW-Authenticate": 'Bearer realm="priority", error="invalid_token"' });
    throw problem;
  }
}

/** The key's hourly ceiling, counted per key; over it, a 429 that names the key's limit, not the free one. */
async function consumePriorityLimit(
  c: Context<AppEnv>,
  limit: TieredLimit["priority"],
  keyId: string,
): Promise<Record<string, string>> {
  try {
    return await consumeRateLimit(c, { ...limit, identify: () => `priority-key:${keyId}` });
  } catch (error) {
    if (!(error instanceof HttpProblem) || error.status !== 429) throw error;
    const retry = error.extensions.retry_after_seconds;
    throw new HttpProblem(
      429,
      error.code,
      `This priority key's limit of ${limit.limit} requests per ${limit.window} is used up; it resumes after ${retry} s.`,
      error.extensions,
      { ...error.headers, [ACCESS_TIER_HEADER]: "priority" },
    );
  }
}
