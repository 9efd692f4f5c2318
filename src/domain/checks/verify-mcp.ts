/**
 * GET /verify-mcp: a live Streamable HTTP exchange with one MCP endpoint in either era of the
 * protocol (server/discover and tools/list of 2026-07-28 first, then the 2025 initialize,
 * initialized, tools/list: see mcp-probe.ts), reported as {verified, endpoint, note}; the note
 * names the era that answered. Never cached, never stored.
 */

import { CRAWL_TIME_BUDGET_MS } from "../crawling/crawl-budget.ts";
import { refusedTargetError } from "../crawling/crawl-target.ts";
import { probeMcpEndpoint } from "../signals/mcp-probe.ts";
import { type CheckContext, mayBePrivate } from "./check-context.ts";
import { parseVerifyTarget } from "./verify-target.ts";

export interface McpVerification {
  verified: boolean;
  endpoint: string;
  note: string;
}

/** Probes the endpoint `input.url` names once its host is vetted (parseVerifyTarget refuses an unusable URL). */
export async function verifyMcp({
  ctx,
  input,
}: {
  ctx: Pick<CheckContext, "openFetcher" | "vetHost" | "allowPrivate" | "trustedHosts">;
  input: { url: string };
}): Promise<McpVerification> {
  // The local demo sites of `npm start` are exempt as they are for a live check (local stack only).
  const endpoint = parseVerifyTarget(input.url, mayBePrivate(input.url, ctx));

  const refusal = await ctx.vetHost(new URL(endpoint).hostname);
  if (refusal) throw refusedTargetError(refusal);

  const fetch = ctx.openFetcher({ deadline: Date.now() + CRAWL_TIME_BUDGET_MS });
  const result = await probeMcpEndpoint(fetch, endpoint);
  return { verified: result.verified, endpoint: result.endpoint, note: result.note };
}
