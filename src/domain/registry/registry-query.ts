/**
 * The ARD registry's operations over the index (ARD v0.91 §5.3): Search (ranked by the site
 * search's relevance), Explore (facets over the same matched set), List (a deterministic listing)
 * and Retrieve (one entry by identifier). Every operation only reads; the query's text is used in
 * memory and never stored or logged. Nothing paid is read: entries and their order come from the
 * sites' own crawled resources and the organic search alone.
 */
import { and, asc, gt, gte, inArray, isNotNull, sql } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import type { DomainContext } from "../context.ts";
import { DomainError } from "../errors.ts";
import type { ProblemCode } from "../problem-types.ts";
import { ARD_IDENTIFIER_PATTERN, REGISTRY_MEDIA_TYPE } from "./agent-resources.ts";
import { ENTRY_FIELDS, entriesOf, type IndexedEntry, type SiteResources } from "./catalog-entries.ts";
import { decodePageToken, encodePageToken, type PagePosition, queryFingerprint } from "./page-token.ts";
import { REGISTRY_TEXT_WINDOW, relevantSiteDomains } from "./relevant-sites.ts";

/** Filter values as the query model carries them (a bare scalar is one value). */
export type FilterInput = Record<string, string | number | boolean | (string | number | boolean)[]>;

/** A parsed constraint: one key, its values (OR). */
interface Constraint {
  key: string;
  test: (entry: IndexedEntry) => boolean;
}

const invalid = (code: ProblemCode, message: string) => new DomainError("invalid", code, message);

const SCORE_VALUE = /^(\d{1,3})(?:\.\.(\d{1,3}))?$/;

/** Parses the query model's `filter` (§5.3.1): within a key OR, across keys AND. */
export function parseFilter(filter: FilterInput | undefined): Constraint[] {
  const constraints: Constraint[] = [];
  for (const [key, raw] of Object.entries(filter ?? {})) {
    const read = ENTRY_FIELDS[key];
    if (!read) {
      throw invalid(
        "UNSUPPORTED_FILTER",
        `filter key ${JSON.stringify(key.slice(0, 80))} is not supported; supported keys: ${Object.keys(ENTRY_FIELDS).join(", ")}.`,
      );
    }
    const values = (Array.isArray(raw) ? raw : [raw]).map((value) => String(value).trim());
    if (values.length === 0) throw invalid("INVALID_FILTER", `filter ${key} has no values.`);
    constraints.push({ key, test: constraintTest(key, values, read) });
  }
  return constraints;
}

function constraintTest(key: string, values: string[], read: (entry: IndexedEntry) => string[]) {
  if (key.endsWith("agentic_score")) {
    const ranges = values.map((value) => {
      const match = SCORE_VALUE.exec(value);
      const low = match ? Number(match[1]) : Number.NaN;
      const high = match?.[2] !== undefined ? Number(match[2]) : low;
      if (!match || low > 100 || high > 100 || low > high) {
        throw invalid("INVALID_FILTER", `filter ${key} takes scores 0 to 100 or ranges such as "70..100".`);
      }
      return [low, high] as const;
    });
    return (entry: IndexedEntry) => {
      const score = Number(read(entry)[0]);
      return ranges.some(([low, high]) => score >= low && score <= high);
    };
  }
  if (key.endsWith("verified")) {
    const wanted = values.map((value) => value.toLowerCase());
    if (wanted.some((value) => value !== "true" && value !== "false")) {
      throw invalid("INVALID_FILTER", `filter ${key} takes true or false.`);
    }
    return (entry: IndexedEntry) => wanted.includes(read(entry)[0]!);
  }
  // Identifiers are exact (case-sensitive, as Retrieve is); the other keys compare case-insensitively.
  const wanted = new Set(key === "identifier" ? values : values.map((value) => value.toLowerCase()));
  return (entry: IndexedEntry) => read(entry).some((value) => wanted.has(value));
}

const matchesAll = (constraints: Constraint[]) => (entry: IndexedEntry) =>
  constraints.every((constraint) => constraint.test(entry));

/** The columns an entry is built from; sites of audit-only categories are never listed. */
const SITE_COLUMNS = {
  domain: sites.domain,
  agenticScore: sites.agenticScore,
  tags: sites.tags,
  lastCrawledAt: sites.lastCrawledAt,
  createdAt: sites.createdAt,
  resources: sites.agentResources,
};
const listed = () => and(isNotNull(sites.agentResources), sql`not search_is_audit(${sites.category})`);

interface SiteRow {
  domain: string;
  agenticScore: number;
  tags: string[];
  lastCrawledAt: Date;
  createdAt: Date;
  resources: SiteResources["resources"] | null;
}

const toSite = (row: SiteRow): SiteResources & { createdAt: Date } => ({
  domain: row.domain,
  agenticScore: row.agenticScore,
  tags: row.tags,
  lastCrawledAt: row.lastCrawledAt,
  createdAt: row.createdAt,
  resources: row.resources ?? [],
});

/** The sites of `domains` that have resources, in the order of `domains`. */
async function sitesInOrder(ctx: DomainContext, domains: string[]): Promise<SiteResources[]> {
  if (domains.length === 0) return [];
  const rows = (await ctx.db
    .select(SITE_COLUMNS)
    .from(sites)
    .where(and(inArray(sites.domain, domains), listed()))) as SiteRow[];
  const byDomain = new Map(rows.map((row) => [row.domain, toSite(row)]));
  return domains.flatMap((domain) => byDomain.get(domain) ?? []);
}

/** Sites with resources in domain order after `after`, a chunk at a time. */
const LIST_CHUNK = 200;
async function sitesAfter(ctx: DomainContext, after: string | null, inclusive = false) {
  const bound = after === null ? undefined : inclusive ? gte(sites.domain, after) : gt(sites.domain, after);
  const rows = (await ctx.db
    .select(SITE_COLUMNS)
    .from(sites)
    .where(and(listed(), bound))
    .orderBy(asc(sites.domain))
    .limit(LIST_CHUNK)) as SiteRow[];
  return rows.map(toSite);
}

/** Every listed site, in domain order (Explore without text: the whole registry). */
async function everySite(ctx: DomainContext): Promise<SiteResources[]> {
  const all: SiteResources[] = [];
  let after: string | null = null;
  for (;;) {
    const chunk = await sitesAfter(ctx, after);
    all.push(...chunk);
    if (chunk.length < LIST_CHUNK) return all;
    after = chunk[chunk.length - 1]!.domain;
  }
}

/**
 * The relevance score (ARD §5.3.2, 0–100) of the site at `rank` (0-based) among the sites with
 * entries, in the site search's order: 100 for the first, falling evenly to 1 at the window's end. It says how the site
 * search placed the site, nothing of trust or of the entry's quality.
 */
export function relevanceScore(rank: number): number {
  return Math.max(1, Math.round(100 - (99 * rank) / (REGISTRY_TEXT_WINDOW - 1)));
}

interface ScoredEntry extends IndexedEntry {
  score: number;
}

/** The matched set of a text query: entries of the sites it matches, in the site search's order. */
async function textMatches(ctx: DomainContext, text: string, constraints: Constraint[]): Promise<ScoredEntry[]> {
  const found = await sitesInOrder(ctx, await relevantSiteDomains(ctx, text));
  // Ranked among the sites that have entries (before the filter, so a filter never moves a score).
  const rank = new Map(found.map((site, index) => [site.domain, index]));
  const matched = entriesOf(found).filter(matchesAll(constraints));
  return matched.map((entry) => ({ ...entry, score: relevanceScore(rank.get(entry.site.domain)!) }));
}

export type Federation = "auto" | "referrals" | "none";

export interface SearchRegistryInput {
  text: string;
  filter?: FilterInput;
  pageSize: number;
  pageToken?: string;
  federation: Federation;
}

/** The most referrals a search gives (registries the index found in sites' ARD manifests). */
export const MAX_REFERRALS = 10;

/** Search (§5.3.2): entries ranked by relevance, a page at a time, with referrals on request. */
export async function searchRegistry({
  ctx,
  input,
  admit,
}: {
  ctx: DomainContext;
  input: SearchRegistryInput;
  admit: () => Promise<unknown>;
}) {
  const constraints = parseFilter(input.filter);
  const fingerprint = queryFingerprint({ op: "search", text: input.text, filter: input.filter ?? {} });
  const position = input.pageToken ? decodePageToken(input.pageToken, fingerprint) : { offset: 0 };
  if (position.offset === undefined) throw invalid("INVALID_PAGE_TOKEN", "pageToken is not a search token.");
  // Counted only once the input is valid.
  await admit();
  const [matched, referrals] = await Promise.all([
    textMatches(ctx, input.text, constraints),
    input.federation === "referrals" ? indexedRegistries(ctx) : Promise.resolve(undefined),
  ]);
  const start = position.offset;
  const page = matched.slice(start, start + input.pageSize);
  const next = start + input.pageSize < matched.length ? start + input.pageSize : null;
  return {
    results: page,
    referrals,
    pageToken: next === null ? undefined : encodePageToken(fingerprint, { offset: next }),
  };
}

/** Registries (entries of type application/ai-registry+json) the index found, in domain order. */
async function indexedRegistries(ctx: DomainContext): Promise<IndexedEntry[]> {
  const containing = JSON.stringify([{ type: REGISTRY_MEDIA_TYPE }]);
  const rows = (await ctx.db
    .select(SITE_COLUMNS)
    .from(sites)
    .where(and(listed(), sql`${sites.agentResources} @> ${containing}::jsonb`))
    .orderBy(asc(sites.domain))
    .limit(MAX_REFERRALS)) as SiteRow[];
  return entriesOf(rows.map(toSite))
    .filter((entry) => entry.resource.type === REGISTRY_MEDIA_TYPE && entry.resource.url !== undefined)
    .slice(0, MAX_REFERRALS);
}

export interface FacetRequest {
  field: string;
  limit: number;
  minCount: number;
}

export interface FacetResult {
  buckets: { value: string; count: number }[];
  otherCount?: number;
}

/** Explore (§5.3.3): facet counts over the matched set (the whole registry without text or filter). */
export async function exploreRegistry({
  ctx,
  input,
  admit,
}: {
  ctx: DomainContext;
  input: { text?: string; filter?: FilterInput; facets: FacetRequest[] };
  admit: () => Promise<unknown>;
}): Promise<Record<string, FacetResult>> {
  const constraints = parseFilter(input.filter);
  for (const facet of input.facets) {
    if (!ENTRY_FIELDS[facet.field]) {
      throw invalid(
        "UNSUPPORTED_FACET",
        `facet field ${JSON.stringify(facet.field.slice(0, 80))} is not supported; supported fields: ${Object.keys(ENTRY_FIELDS).join(", ")}.`,
      );
    }
  }
  await admit();
  const matched = input.text
    ? await textMatches(ctx, input.text, constraints)
    : entriesOf(await everySite(ctx)).filter(matchesAll(constraints));
  return Object.fromEntries(input.facets.map((facet) => [facet.field, facetOf(matched, facet)]));
}

/** One facet: buckets by count (most first, then value), `otherCount` the entries in buckets past the limit. */
export function facetOf(entries: IndexedEntry[], facet: FacetRequest): FacetResult {
  const read = ENTRY_FIELDS[facet.field]!;
  const counts = new Map<string, number>();
  for (const entry of entries) {
    for (const value of new Set(read(entry))) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  const buckets = [...counts]
    .filter(([, count]) => count >= facet.minCount)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([value, count]) => ({ value, count }));
  const shown = buckets.slice(0, facet.limit);
  const other = buckets.slice(facet.limit).reduce((sum, bucket) => sum + bucket.count, 0);
  return other > 0 ? { buckets: shown, otherCount: other } : { buckets: shown };
}

/** A List filter (§5.3.5, Appendix A) parsed: the query-model constraints and the time bounds. */
export interface ListFilter {
  constraints: Constraint[];
  /** Lower-case substring of displayName. */
  displayName?: string;
  createdAfter?: Date;
  updatedAfter?: Date;
}

/** Appendix A's fields and the query model's keys, as List's filter expression names them. */
const LIST_KEY_ALIASES: Record<string, string> = { publisherId: "publisher" };
const CLAUSE = /^\s*([A-Za-z_][A-Za-z0-9_.:]*)\s*(=|>)\s*(?:'([^']*)'|"([^"]*)"|([^\s'"]+))\s*$/;

/**
 * Parses List's filter expression: clauses `field = value` (a comma-separated value is OR) or
 * `createdAfter > 'ISO 8601'` / `updatedAfter > …`, joined by AND (docs/discovery.md).
 */
export function parseListFilter(expression: string | undefined): ListFilter {
  const result: ListFilter = { constraints: [] };
  if (!expression?.trim()) return result;
  const filter: FilterInput = {};
  for (const clause of expression.split(/\s+AND\s+/i)) {
    const match = CLAUSE.exec(clause);
    if (!match) {
      throw invalid(
        "INVALID_FILTER",
        `filter clause ${JSON.stringify(clause.trim().slice(0, 80))} is not of the form field = 'value'.`,
      );
    }
    const [, field, operator, single, double, bare] = match;
    const value = (single ?? double ?? bare ?? "").trim();
    if (field === "createdAfter" || field === "updatedAfter") {
      const date = new Date(value);
      if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
        throw invalid("INVALID_FILTER", `filter ${field} takes an ISO 8601 date or time.`);
      }
      result[field] = date;
      continue;
    }
    if (operator !== "=") throw invalid("INVALID_FILTER", `filter ${field} takes =, not ${operator}.`);
    if (field === "displayName") {
      result.displayName = value.toLowerCase();
      continue;
    }
    const key = LIST_KEY_ALIASES[field!] ?? field!;
    filter[key] = value.split(",").map((part) => part.trim());
  }
  result.constraints = parseFilter(filter);
  return result;
}

function listMatches(filter: ListFilter) {
  const all = matchesAll(filter.constraints);
  return (entry: IndexedEntry & { site: SiteResources & { createdAt?: Date } }) =>
    all(entry) &&
    (filter.displayName === undefined || entry.resource.displayName.toLowerCase().includes(filter.displayName)) &&
    (filter.updatedAfter === undefined || entry.site.lastCrawledAt > filter.updatedAfter) &&
    (filter.createdAfter === undefined || (entry.site.createdAt ?? entry.site.lastCrawledAt) > filter.createdAfter);
}

/**
 * List (§5.3.5): every entry in one deterministic order, the site's domain (byte order) then the
 * entry's place in the site's list, a page at a time. Reads only; no relevance.
 */
export async function listRegistry({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { filter?: string; pageSize: number; pageToken?: string };
}) {
  const filter = parseListFilter(input.filter);
  const fingerprint = queryFingerprint({ op: "list", filter: input.filter?.trim() ?? "" });
  const position: PagePosition = input.pageToken ? decodePageToken(input.pageToken, fingerprint) : {};
  if (position.offset !== undefined) throw invalid("INVALID_PAGE_TOKEN", "pageToken is not a listing token.");
  const matches = listMatches(filter);
  const items: IndexedEntry[] = [];
  let cursor = position.after?.domain ?? null;
  let first = position.after;
  // One more than a page tells whether another page follows.
  while (items.length <= input.pageSize) {
    // The site of the last entry given is read again for the entries after it.
    const chunk = first ? await sitesAfter(ctx, first.domain, true) : await sitesAfter(ctx, cursor);
    for (const entry of entriesOf(chunk)) {
      if (
        first &&
        (entry.site.domain < first.domain || (entry.site.domain === first.domain && entry.position <= first.position))
      ) {
        continue;
      }
      if (matches(entry)) items.push(entry);
      if (items.length > input.pageSize) break;
    }
    first = undefined;
    if (chunk.length < LIST_CHUNK || items.length > input.pageSize) break;
    cursor = chunk[chunk.length - 1]!.domain;
  }
  const page = items.slice(0, input.pageSize);
  const last = page[page.length - 1];
  return {
    items: page,
    pageToken:
      items.length > input.pageSize && last
        ? encodePageToken(fingerprint, { after: { domain: last.site.domain, position: last.position } })
        : undefined,
  };
}

/** Retrieve (§5.3.4): the complete entry of an identifier, exactly (case-sensitive). */
export async function retrieveEntry({ ctx, identifier }: { ctx: DomainContext; identifier: string }) {
  if (!ARD_IDENTIFIER_PATTERN.test(identifier)) {
    throw invalid(
      "INVALID_IDENTIFIER",
      "identifier must be an ARD identifier, urn:air:<publisher>:<namespace>:<name>.",
    );
  }
  const containing = JSON.stringify([{ identifier }]);
  const rows = (await ctx.db
    .select(SITE_COLUMNS)
    .from(sites)
    .where(and(listed(), sql`${sites.agentResources} @> ${containing}::jsonb`))
    .orderBy(asc(sites.domain))
    .limit(1)) as SiteRow[];
  const entry = entriesOf(rows.map(toSite)).find((each) => each.resource.identifier === identifier);
  if (!entry) throw new DomainError("not_found", "NOT_FOUND", "No entry of this registry has that identifier.");
  return entry;
}
