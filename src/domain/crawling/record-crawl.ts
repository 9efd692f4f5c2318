/**
 * Writes a crawl's outcome to the index. A successful crawl upserts the whole site and appends
 * its score to the history, in one transaction. A failed crawl only records its status and time
 * on a site already indexed: the last good signals, evidence and score stay as they were, and a
 * domain that never crawled successfully is not added.
 *
 * `unresolved_crawls` counts the crawls in a row that found the site's host name gone from DNS
 * (the recrawl cron backs off on it, enqueue-stale-recrawls.ts); any other outcome resets it.
 */
import { eq, sql } from "drizzle-orm";
import { siteChecklistHistory } from "../../../db/schema/checklist-history.ts";
import { siteScoreHistory } from "../../../db/schema/score-history.ts";
import { sites } from "../../../db/schema/sites.ts";
import { capabilitiesTextOf } from "../capabilities/site-capabilities.ts";
import { packPresentStatuses, packStatuses, SITE_KINDS } from "../checklist/checklist-definition.ts";
import type { DomainContext } from "../context.ts";
import { agentResourcesOf } from "../registry/agent-resources.ts";
import { mcpEndpointHealthCode } from "../signals/mcp-health.ts";
import { type SiteCrawl, signalEvidence } from "./crawl-site.ts";

export type CrawlWrite = "site" | "status" | "nothing";

export async function recordCrawl({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: {
    domain: string;
    crawl: SiteCrawl;
    /** DNS said the site's own host name does not exist (see ProbeFailure.unresolvedHost). */
    nameUnresolved?: boolean;
  };
}): Promise<CrawlWrite> {
  const { domain, crawl, nameUnresolved = false } = input;
  const crawledAt = new Date(crawl.startedAt.getTime() + crawl.durationMs);

  if (crawl.crawlStatus !== "success") {
    const updated = await ctx.db
      .update(sites)
      .set({
        crawlStatus: crawl.crawlStatus,
        lastCrawledAt: crawledAt,
        unresolvedCrawls: nameUnresolved ? sql`least(${sites.unresolvedCrawls} + 1, 32767)` : 0,
        updatedAt: sql`now()`,
      })
      .where(eq(sites.domain, domain))
      .returning({ id: sites.id });
    return updated.length > 0 ? "status" : "nothing";
  }

  const row = {
    domain,
    url: crawl.origin,
    name: crawl.name,
    description: crawl.description,
    hasLlmsTxt: crawl.flags.has_llms_txt,
    hasAiPlugin: crawl.flags.has_ai_plugin,
    hasOpenapi: crawl.flags.has_openapi,
    hasRobotsAi: crawl.flags.has_robots_ai,
    hasStructuredApi: crawl.flags.has_structured_api,
    hasMcpServer: crawl.flags.has_mcp_server,
    hasSchemaOrg: crawl.flags.has_schema_org,
    agenticScore: crawl.agenticScore,
    scoreVersion: crawl.scoreVersion,
    category: crawl.category,
    tags: crawl.tags,
    hasFavicon: crawl.faviconUrl !== null,
    faviconUrl: crawl.faviconUrl,
    lastCrawledAt: crawledAt,
    crawlStatus: "success",
    signalEvidence: signalEvidence(crawl),
    checklist: crawl.checklist,
    checklistStatuses: crawl.checklist ? packPresentStatuses(crawl.checklist.checks) : null,
    mcpEndpointHealth: mcpEndpointHealthCode(crawl.signals.has_mcp_server.details),
    unresolvedCrawls: 0,
    // What the site's documents say it does: the report's groups, and the same words for search.
    capabilities: crawl.capabilities,
    capabilitiesText: capabilitiesTextOf(crawl.capabilities),
    // What the ARD registry lists (/ard/v1): read from this crawl's findings, written with them.
    agentResources: await agentResourcesOf({
      domain,
      siteName: crawl.name,
      signals: crawl.signals,
      discovery: crawl.discovery,
      checks: crawl.checklist?.checks ?? null,
    }),
  };
  const { domain: _key, ...changes } = row;
  const checklist = crawl.checklist;
  const siteId = ctx.db.select({ id: sites.id }).from(sites).where(eq(sites.domain, domain));
  await ctx.db.batch([
    ctx.db
      .insert(sites)
      .values(row)
      .onConflictDoUpdate({ target: sites.domain, set: { ...changes, updatedAt: sql`now()` } }),
    ctx.db.insert(siteScoreHistory).select(
      ctx.db
        .select({
          siteId: sites.id,
          recordedAt: sql`now()`.as("recorded_at"),
          agenticScore: sites.agenticScore,
          scoreVersion: sites.scoreVersion,
        })
        .from(sites)
        .where(eq(sites.domain, domain)),
    ),
    ...(checklist
      ? [
          ctx.db.insert(siteChecklistHistory).values({
            siteId: sql`(${siteId})`,
            siteKind: SITE_KINDS.indexOf(checklist.summary.site_kind),
            statuses: packStatuses(checklist.checks),
          }),
        ]
      : []),
  ]);
  return "site";
}
