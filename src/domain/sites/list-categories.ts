/**
 * The discovery categories and how many sites each holds, in the spec's order, empty ones
 * included. The audit-only buckets (other, spam) are not listed: they are not discovery inventory.
 * Cached for 5 minutes.
 */
import { count, notInArray } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import type { DomainContext } from "../context.ts";
import { AUDIT_ONLY_CATEGORIES, CATEGORIES, type Category } from "./site-fields.ts";

export const CATEGORIES_CACHE_SECONDS = 300;

const auditOnly = new Set<Category>(AUDIT_ONLY_CATEGORIES);
export const DISCOVERY_CATEGORIES = CATEGORIES.filter((category) => !auditOnly.has(category));

export async function listCategories({ ctx }: { ctx: DomainContext }) {
  const { value } = await ctx.cache.remember("categories:v1", CATEGORIES_CACHE_SECONDS, async () => {
    const rows = await ctx.db
      .select({ name: sites.category, count: count() })
      .from(sites)
      .where(notInArray(sites.category, [...AUDIT_ONLY_CATEGORIES]))
      .groupBy(sites.category);
    const counts = new Map(rows.map((row) => [row.name, row.count]));
    return {
      categories: DISCOVERY_CATEGORIES.map((name) => ({ name, count: counts.get(name) ?? 0 })),
    };
  });
  return value;
}
