/** POST /submit: queue a crawl of a URL's site, at most once per domain within the dedupe window. */
import { parseCrawlTarget, refusedTargetError } from "../crawling/crawl-target.ts";
import { CRAWL_DEDUPE_WINDOW_SECONDS, requestCrawls } from "../crawling/request-crawls.ts";
import { type CheckContext, mayBePrivate } from "./check-context.ts";

export interface Submission {
  domain: string;
  url: string;
  /** queued: this submission queued a crawl; already_queued: one was queued within the window. */
  status: "queued" | "already_queued";
  queued_at: string;
  dedupe_window_seconds: number;
}

export async function submitSite({
  ctx,
  input,
}: {
  ctx: Pick<CheckContext, "db" | "cache" | "origin" | "crawlQueue" | "allowPrivate" | "vetHost" | "trustedHosts">;
  input: { url: string };
}): Promise<Submission> {
  // The local demo sites of `npm start` are exempt as they are for a live check (local stack
  // only); their crawl goes through the same guarded fetcher, which exempts them too.
  const target = parseCrawlTarget(input.url, mayBePrivate(input.url, ctx));
  // Nothing is fetched now, but a name behind which sits a private address is refused already.
  const refusal = await ctx.vetHost(new URL(target.origin).hostname);
  if (refusal) throw refusedTargetError(refusal);
  const [outcome] = await requestCrawls({ ctx, input: { targets: [target], reason: "submit" } });
  return {
    domain: target.domain,
    url: target.origin,
    status: outcome?.queued ? "queued" : "already_queued",
    queued_at: (outcome?.queuedAt ?? new Date()).toISOString(),
    dedupe_window_seconds: CRAWL_DEDUPE_WINDOW_SECONDS,
  };
}
