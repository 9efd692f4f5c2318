/**
 * GET /verify-mcp: a live Streamable HTTP handshake (initialize, initialized, tools/list) with
 * one MCP endpoint, reported as {verified, endpoint, note}. Never cached, never stored.
 */

import { checkTargetUrl } from "../../adapters/outbound/address-policy.ts";
import { CRAWL_TIME_BUDGET_MS } from "../crawling/crawl-budget.ts";
import { refusedTargetError, targetRefusalError } from "../crawling/crawl-target.ts";
import { DomainError } from "../errors.ts";
import { probeMcpEndpoint, resolveVerifyTarget } from "../signals/mcp-probe.ts";
import type { CheckContext } from "./check-context.ts";

export interface McpVerification {
  verified: boolean;
  endpoint: string;
  note: string;
}

/**
 * The endpoint a verification would probe, or the 400 that refuses `url` without any lookup
 * (unusable, or an address the guards never fetch). Callers may check it before spending quota.
 */
export function parseVerifyTarget(url: string, allowPrivate: boolean): string {
  const target = resolveVerifyTarget(url);
  if (!target.ok) throw new DomainError("invalid", "INVALID_URL", `url is not usable: ${target.reason}`);
  const verdict = checkTargetUrl(target.url, { allowPrivate });
  if (!verdict.ok) throw targetRefusalError(verdict);
  return target.url;
}

export async function verifyMcp({
  ctx,
  input,
}: {
  ctx: Pick<CheckContext, "openFetcher" | "vetHost" | "allowPrivate">;
  input: { url: string };
}): Promise<McpVerification> {
  const endpoint = parseVerifyTarget(input.url, ctx.allowPrivate);

  const refusal = await ctx.vetHost(new URL(endpoint).hostname);
  if (refusal) throw refusedTargetError(refusal);

  const fetch = ctx.openFetcher({ deadline: Date.now() + CRAWL_TIME_BUDGET_MS });
  const result = await probeMcpEndpoint(fetch, endpoint);
  return { verified: result.verified, endpoint: result.endpoint, note: result.note };
}
