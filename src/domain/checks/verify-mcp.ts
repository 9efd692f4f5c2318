/**
 * GET /verify-mcp: a live Streamable HTTP handshake (initialize, initialized, tools/list) with
 * one MCP endpoint, reported as {verified, endpoint, note}. Never cached, never stored.
 */

import { checkTargetUrl } from "../crawl/address-policy.ts";
import { CRAWL_TIME_BUDGET_MS } from "../crawl/crawl-site.ts";
import { refusedTargetError, targetRefusalError } from "../crawl/crawl-target.ts";
import { probeMcpEndpoint, resolveVerifyTarget } from "../crawl/mcp-probe.ts";
import { DomainError } from "../errors.ts";
import type { CheckContext } from "./check-context.ts";

export interface McpVerification {
  verified: boolean;
  endpoint: string;
  note: string;
}

export async function verifyMcp({
  ctx,
  input,
}: {
  ctx: Pick<CheckContext, "openFetcher" | "vetHost" | "allowPrivate">;
  input: { url: string };
}): Promise<McpVerification> {
  const target = resolveVerifyTarget(input.url);
  if (!target.ok) throw new DomainError("invalid", "INVALID_URL", `url is not usable: ${target.reason}`);
  const verdict = checkTargetUrl(target.url, { allowPrivate: ctx.allowPrivate });
  if (!verdict.ok) throw targetRefusalError(verdict);

  const refusal = await ctx.vetHost(new URL(target.url).hostname);
  if (refusal) throw refusedTargetError(refusal);

  const fetch = ctx.openFetcher({ deadline: Date.now() + CRAWL_TIME_BUDGET_MS });
  const result = await probeMcpEndpoint(fetch, target.url);
  return { verified: result.verified, endpoint: result.endpoint, note: result.note };
}
