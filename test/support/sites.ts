/**
 * Test data for the integration tests: sites, score history and raw SQL, written straight to the
 * database the Worker under test reads. Every integration test file shares that database, so each
 * test names its own sites with a unique token (see `uniqueToken`) and scopes what it asserts.
 */
import { env } from "cloudflare:workers";
import { type NewSiteRow, type SiteRow, siteScoreHistory, sites } from "../../db/schema/index.ts";
import { createDatabase, createSqlClient } from "../../src/adapters/db.ts";
import { parseSettings } from "../../src/config.ts";
import { packPresentStatuses } from "../../src/domain/checklist/checklist-definition.ts";

const settings = () =>
  parseSettings(env as unknown as Record<string, unknown>, ["DATABASE_URL", "DATABASE_LOCAL_HTTP"]);

/** drizzle over the same SQL-over-HTTP endpoint the Worker uses. */
export function testDatabase() {
  return createDatabase(settings());
}

/** Runs one raw SQL statement and returns its rows (timestamps come back as strings). */
export async function sqlRows<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await createSqlClient(settings()).query(text, params)) as T[];
}

/**
 * A word no other test uses: `zq` and ten digits. Postgres parses it as one number-word, which no
 * stemmer touches, so it matches the same way in names, descriptions and domain labels.
 */
export function uniqueToken(): string {
  const digits = Array.from(crypto.getRandomValues(new Uint8Array(10)), (byte) => byte % 10).join("");
  return `zq${digits}`;
}

/** A fixed instant, so a test knows every timestamp it will read back. */
export const CRAWLED_AT = new Date("2026-03-01T10:20:30.456Z");

/** A complete site row: plain defaults, overridden by the test. */
export function siteRow(overrides: Partial<NewSiteRow> & { domain: string }): NewSiteRow {
  return {
    url: `https://${overrides.domain}/`,
    name: `Site ${overrides.domain}`,
    description: "A site made by an integration test.",
    category: "developer",
    agenticScore: 50,
    tags: [],
    lastCrawledAt: CRAWLED_AT,
    createdAt: CRAWLED_AT,
    updatedAt: CRAWLED_AT,
    ...overrides,
    // As a crawl writes it (record-crawl.ts): the packed statuses beside the checklist.
    checklistStatuses:
      overrides.checklistStatuses ?? (overrides.checklist ? packPresentStatuses(overrides.checklist.checks) : null),
  };
}

/** Inserts sites (filled in by `siteRow`) and returns the stored rows in the order given. */
export async function insertSites(rows: (Partial<NewSiteRow> & { domain: string })[]): Promise<SiteRow[]> {
  const stored = await testDatabase().insert(sites).values(rows.map(siteRow)).returning();
  const byDomain = new Map(stored.map((row) => [row.domain, row]));
  return rows.map((row) => byDomain.get(row.domain)!);
}

/** Appends score history entries of one site. */
export async function insertScoreHistory(
  siteId: string,
  entries: { agenticScore: number; scoreVersion: number; recordedAt: Date }[],
): Promise<void> {
  await testDatabase()
    .insert(siteScoreHistory)
    .values(entries.map((entry) => ({ siteId, ...entry })));
}

/** The Site record the API must answer for a stored row (written out here, not borrowed from src). */
export function expectedSiteRecord(row: SiteRow): Record<string, unknown> {
  return {
    id: row.id,
    domain: row.domain,
    url: row.url,
    name: row.name,
    description: row.description,
    has_llms_txt: row.hasLlmsTxt,
    has_ai_plugin: row.hasAiPlugin,
    has_openapi: row.hasOpenapi,
    has_robots_ai: row.hasRobotsAi,
    has_structured_api: row.hasStructuredApi,
    has_mcp_server: row.hasMcpServer,
    has_schema_org: row.hasSchemaOrg,
    agentic_score: row.agenticScore,
    category: row.category,
    tags: row.tags,
    is_verified: row.isVerified,
    is_featured: row.isFeatured,
    has_favicon: row.hasFavicon,
    ...(row.faviconUrl === null ? {} : { favicon_url: row.faviconUrl }),
    last_crawled_at: row.lastCrawledAt.toISOString(),
    crawl_status: row.crawlStatus,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
