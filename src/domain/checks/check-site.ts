/**
 * POST /check: a live crawl of one URL's site, answered with its score, the seven signals and
 * their evidence. It never writes the index; when the site is indexed and the live result
 * differs from the stored one, it asks for a recrawl, which the queue's consumer writes.
 */
import { eq } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import type { CheckResult as ChecklistCheck, ChecklistSummary } from "../checklist/checklist-definition.ts";
import { createConcurrencyLimiter, WORKER_CONNECTION_LIMIT } from "../crawling/crawl-fetcher.ts";
import {
  CRAWL_TIME_BUDGET_MS,
  type CrawlStatus,
  crawlSite,
  type SiteCrawl,
  signalEvidence,
} from "../crawling/crawl-site.ts";
import { type CrawlTarget, parseCrawlTarget, refusedTargetError } from "../crawling/crawl-target.ts";
import { requestCrawls } from "../crawling/request-crawls.ts";
import { readBesideGuard } from "../read-beside-guard.ts";
import type { SignalEvidence } from "../signals/types.ts";
import { type Category, SIGNAL_FIELDS, type SignalField } from "../sites/site-fields.ts";
import { type CheckContext, mayBePrivate } from "./check-context.ts";

export interface CheckResult extends Record<SignalField, boolean> {
  url: string;
  domain: string;
  agentic_score: number;
  score_version: number;
  signals: Record<SignalField, SignalEvidence>;
  name: string;
  description: string;
  category: Category;
  tags: string[];
  has_favicon: boolean;
  favicon_url?: string;
  crawl_status: CrawlStatus;
  crawl_note: string;
  checked_at: string;
  duration_ms: number;
  indexed: boolean;
  recrawl_queued: boolean;
  /** The agent-readiness checklist: never part of agentic_score. */
  checks: ChecklistCheck[];
  /** The kind of site inferred and how many of the checks that apply to it pass. */
  checks_summary: ChecklistSummary;
}

function differsFromIndex(crawl: SiteCrawl, stored: { agenticScore: number; flags: Record<SignalField, boolean> }) {
  return (
    stored.agenticScore !== crawl.agenticScore ||
    SIGNAL_FIELDS.some((field) => stored.flags[field] !== crawl.flags[field])
  );
}

/** What a live check needs to reach a site: the guarded fetcher and the host vetting. */
export type LiveCheckContext = Pick<
  CheckContext,
  "openFetcher" | "vetHost" | "allowPrivate" | "trustedHosts" | "dnsRecords"
>;

/**
 * The live crawl behind a check, without the index: the target parsed and vetted, then crawled
 * within the crawl's time budget. POST /check and the command-line checker (scripts/readiness.ts)
 * both run it, so a site owner's own run gives the verdicts the service gives.
 */
export async function crawlCheckTarget({
  ctx,
  input,
}: {
  ctx: LiveCheckContext;
  input: { url: string };
}): Promise<{ target: CrawlTarget; crawl: SiteCrawl }> {
  const target = parseCrawlTarget(input.url, mayBePrivate(input.url, ctx));
  // A name that resolves to a private address is as bad a URL as the address itself.
  const refusal = await ctx.vetHost(new URL(target.origin).hostname);
  if (refusal) throw refusedTargetError(refusal);
  const crawl = await crawlSite({
    origin: target.origin,
    fetcher: ctx.openFetcher({ deadline: Date.now() + CRAWL_TIME_BUDGET_MS }),
    limiter: createConcurrencyLimiter(WORKER_CONNECTION_LIMIT),
    ...(ctx.dnsRecords ? { dnsRecords: ctx.dnsRecords } : {}),
  });
  return { target, crawl };
}

/** The body of a check: the crawl's findings, and what the index holds of the site. */
export function checkResultOf(
  target: CrawlTarget,
  crawl: SiteCrawl,
  index: { indexed: boolean; recrawlQueued: boolean },
): CheckResult {
  return {
    url: target.origin,
    domain: target.domain,
    agentic_score: crawl.agenticScore,
    score_version: crawl.scoreVersion,
    ...crawl.flags,
    signals: signalEvidence(crawl),
    name: crawl.name,
    description: crawl.description,
    category: crawl.category,
    tags: crawl.tags,
    has_favicon: crawl.faviconUrl !== null,
    ...(crawl.faviconUrl ? { favicon_url: crawl.faviconUrl } : {}),
    crawl_status: crawl.crawlStatus,
    crawl_note: crawl.crawlNote,
    checked_at: crawl.startedAt.toISOString(),
    duration_ms: crawl.durationMs,
    indexed: index.indexed,
    recrawl_queued: index.recrawlQueued,
    // A check probes everything whatever the home page answered, so its checklist is always there.
    checks: crawl.checklist?.checks ?? [],
    checks_summary: crawl.checklist!.summary,
  };
}

/** The domain of a URL the crawl accepts; undefined for one it refuses. */
function usableDomain(url: string, allowPrivate: boolean): string | undefined {
  try {
    return parseCrawlTarget(url, allowPrivate).domain;
  } catch {
    return undefined;
  }
}

/** What the index holds of a site: its score and signal flags; undefined when it is not indexed. */
async function readIndexedSignals(ctx: Pick<CheckContext, "db">, domain: string) {
  const [stored] = await ctx.db
    .select({
      agenticScore: sites.agenticScore,
      has_llms_txt: sites.hasLlmsTxt,
      has_ai_plugin: sites.hasAiPlugin,
      has_openapi: sites.hasOpenapi,
      has_structured_api: sites.hasStructuredApi,
      has_mcp_server: sites.hasMcpServer,
      has_robots_ai: sites.hasRobotsAi,
      has_schema_org: sites.hasSchemaOrg,
    })
    .from(sites)
    .where(eq(sites.domain, domain))
    .limit(1);
  return stored;
}

/**
 * The check. `admit` is the caller's admission check (its rate limit), passed before anything is
 * fetched: the index lookup only reads, so it runs beside it instead of after the crawl (one store
 * round trip for both, as search does), and a refused request throws the admission's error as
 * before, having written nothing.
 */
export async function checkSite({
  ctx,
  input,
  admit = async () => undefined,
}: {
  ctx: CheckContext;
  input: { url: string };
  admit?: () => Promise<unknown>;
}): Promise<CheckResult> {
  // An unusable URL is refused by the crawl below, after the count, as it always was: a caller
  // that counts such URLs (the web form) still does.
  const domain = usableDomain(input.url, mayBePrivate(input.url, ctx));
  const stored = await readBesideGuard(admit(), async () =>
    domain === undefined ? undefined : readIndexedSignals(ctx, domain),
  );
  const { target, crawl } = await crawlCheckTarget({ ctx, input });

  let recrawlQueued = false;
  if (
    stored &&
    crawl.crawlStatus === "success" &&
    differsFromIndex(crawl, { agenticScore: stored.agenticScore, flags: stored })
  ) {
    const [outcome] = await requestCrawls({
      ctx,
      input: { targets: [{ domain: target.domain, origin: target.origin }], reason: "check" },
    }).catch((error) => {
      // The check itself succeeded; a recrawl that cannot be queued now is queued by the cron later.
      console.warn("recrawl after check not queued", String(error));
      return [];
    });
    recrawlQueued = outcome?.queued ?? false;
  }

  return checkResultOf(target, crawl, { indexed: stored !== undefined, recrawlQueued });
}
