/**
 * The current score of one indexed site, and nothing else: what a badge shows. One indexed
 * lookup by the domain's unique index, so badges stay cheap however often READMEs load them.
 */
import { eq } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import type { DomainContext } from "../context.ts";
import { normalizeDomain } from "./domain-name.ts";

export interface SiteScore {
  domain: string;
  agentic_score: number;
}

/** The site's score, or null when the index holds no site by this name (or it is no domain name). */
export async function getSiteScore({
  ctx,
  input,
}: {
  ctx: Pick<DomainContext, "db">;
  input: { domain: string };
}): Promise<SiteScore | null> {
  const domain = normalizeDomain(input.domain);
  if (!domain) return null;
  const [row] = await ctx.db
    .select({ domain: sites.domain, agenticScore: sites.agenticScore })
    .from(sites)
    .where(eq(sites.domain, domain))
    .limit(1);
  return row ? { domain: row.domain, agentic_score: row.agenticScore } : null;
}
