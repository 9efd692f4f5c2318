/**
 * ARD entries (ARD v0.91 §4) of the agent resources the index keeps per site, and the values of
 * each filter and facet key an entry has (§5.3.1). Everything here reads the site's own stored
 * fields; nothing paid (offers, tickets, keys) and nothing about the caller.
 */
import { AUDIT_ONLY_CATEGORIES } from "../sites/site-fields.ts";
import { type AgentResource, publisherOf } from "./agent-resources.ts";

/** ARD's base context (§4.1). */
export const ARD_BASE_CONTEXT = "https://agenticresourcediscovery.org/context/v1";
/** The prefix of this registry's own terms (the verification beside each entry). */
export const READINESS_PREFIX = "agentReadiness";
/** The term carrying our verification of an entry. */
export const VERIFICATION_TERM = `${READINESS_PREFIX}:verification`;
/** Where the ARD registry is served, relative to the origin. */
export const ARD_BASE_PATH = "/ard/v1";

/** The namespace of this registry's own terms, under the deployment's origin. */
export const readinessNamespace = (origin: string) => `${origin}${ARD_BASE_PATH}/ns#`;

/** The registry's base URL as entries' `source` names it (ARD §5.3.2). */
export const registrySource = (origin: string) => `${origin}${ARD_BASE_PATH}/`;

/** The site fields an entry is built from (one row of `sites`). */
export interface SiteResources {
  domain: string;
  agenticScore: number;
  tags: string[];
  lastCrawledAt: Date;
  resources: AgentResource[];
}

/** One entry of the registry: the resource, its site, its place in the site's list. */
export interface IndexedEntry {
  site: SiteResources;
  resource: AgentResource;
  position: number;
}

/** Every entry of the sites, in their order and each site's list order. */
export function entriesOf(sites: SiteResources[]): IndexedEntry[] {
  return sites.flatMap((site) => site.resources.map((resource, position) => ({ site, resource, position })));
}

/** Whether our crawl proved it works: an MCP handshake, or a passing check of a card, document or index. */
export function isVerified(resource: AgentResource): boolean {
  return resource.verification === "handshake" || resource.verification === "pass";
}

/** The entry's tags: its own (from the site's manifest), else the index's tags of its site. */
export function tagsOf(entry: IndexedEntry): string[] {
  return entry.resource.tags ?? entry.site.tags;
}

/** The base media type, lower-case, as filters compare it. */
const mediaType = (type: string) => type.split(";")[0]!.trim().toLowerCase();

/**
 * The filter and facet keys this registry supports, each with the values an entry has for it.
 * `verified` and `agentic_score` are ours, also spelt with the prefix of our terms.
 */
export const ENTRY_FIELDS: Record<string, (entry: IndexedEntry) => string[]> = {
  type: (entry) => [mediaType(entry.resource.type)],
  tags: (entry) => tagsOf(entry).map((tag) => tag.toLowerCase()),
  capabilities: (entry) => (entry.resource.capabilities ?? []).map((capability) => capability.toLowerCase()),
  publisher: (entry) => [publisherOf(entry.resource.identifier)],
  identifier: (entry) => [entry.resource.identifier],
  verified: (entry) => [String(isVerified(entry.resource))],
  agentic_score: (entry) => [String(entry.site.agenticScore)],
  [`${READINESS_PREFIX}:verified`]: (entry) => [String(isVerified(entry.resource))],
  [`${READINESS_PREFIX}:agentic_score`]: (entry) => [String(entry.site.agenticScore)],
};

/** The filter keys, in the order the docs list them. */
export const FILTER_KEYS = Object.keys(ENTRY_FIELDS);

/** Why audit-only categories are left out: the organic search leaves them out unless named. */
export const LISTED_CATEGORIES_RULE = `sites of the audit-only categories (${AUDIT_ONLY_CATEGORIES.join(", ")}) are not listed`;

export interface EntryView {
  /** The complete entry (Retrieve, List) or the search view (without representativeQueries). */
  complete: boolean;
}

/** The ARD entry of an indexed resource, with our verification beside it under our own prefix. */
export function ardEntry(entry: IndexedEntry, origin: string, view: EntryView): Record<string, unknown> {
  const { resource, site } = entry;
  const tags = tagsOf(entry);
  return {
    "@context": [ARD_BASE_CONTEXT, { [READINESS_PREFIX]: readinessNamespace(origin) }],
    identifier: resource.identifier,
    displayName: resource.displayName,
    type: resource.type,
    ...(resource.url !== undefined ? { url: resource.url } : { data: resource.data ?? {} }),
    ...(resource.description ? { description: resource.description } : {}),
    ...(tags.length ? { tags } : {}),
    ...(resource.capabilities?.length ? { capabilities: resource.capabilities } : {}),
    ...(view.complete && resource.representativeQueries?.length
      ? { representativeQueries: resource.representativeQueries }
      : {}),
    ...(resource.version ? { version: resource.version } : {}),
    updatedAt: site.lastCrawledAt.toISOString(),
    [VERIFICATION_TERM]: {
      verified: isVerified(resource),
      status: resource.verification,
      ...(resource.endpoint ? { endpoint: resource.endpoint } : {}),
      last_seen: site.lastCrawledAt.toISOString(),
      site: site.domain,
      agentic_score: site.agenticScore,
      identifier_source: resource.identifierSource,
      resource_kind: resource.kind,
    },
  };
}
