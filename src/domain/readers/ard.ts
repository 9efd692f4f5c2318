/**
 * The ARD / AI Catalog reader. Agentic Resource Discovery (ARD v0.91 of 2026-08-26, the AI
 * Catalog's successor) serves the manifest at `/.well-known/ard.json`, announced by `rel="ard"`
 * (Link header or HTML) and a robots.txt `Agentmap:` line; `/.well-known/ai-catalog.json` and
 * `rel="ai-catalog"` are its predecessor's names, still read. One format, one reader: the
 * detectors take the entries as leads (leniently, below), the checklist's ai_catalog check judges
 * the same reading's `problems` (departures from ARD's required fields).
 *
 * The AI Catalog (`/.well-known/ai-catalog.json`, media type `application/ai-catalog+json`): a
 * site's list of its AI artifacts — MCP server cards, A2A agent cards, OpenAPI documents, skills,
 * nested catalogs — each an entry `{identifier, type, url | data}` whose `type` is the artifact's
 * media type, naming it by `url` or carrying it inline in `data` (AI Catalog specification,
 * ai-catalog.io/spec, v0.9). The catalog is a lead, never proof: the MCP detector probes the
 * endpoints its server cards name, the OpenAPI detector parses the documents it names.
 *
 * Read leniently where real catalogs differ: `entries` as the specification has it, or the
 * `capabilities` list of the earlier Agentic Resource Discovery drafts; an entry's media type under
 * `type`, or under `mediaType` as an earlier MCP Catalog draft wrote it; a media type with
 * parameters (`application/vnd.oai.openapi+json;version=3.1`) is read by its base type.
 *
 * The MCP Catalog (`/.well-known/mcp/catalog.json`, the MCP server-card extension's
 * docs/discovery.md) is "a minimal, MCP-scoped subset" of the AI Catalog, so it is read by the same
 * code: `{specVersion: "draft", entries: [{identifier, displayName, type, url}]}`.
 *
 * Nested catalogs (an entry typed `application/ai-catalog+json`, by `url` or inline in `data`) are
 * followed by crawl-state.ts within a depth and request budget (see MAX_NESTING_DEPTH).
 */

import { isHtmlAnswer, isRecord, parseJson, resolveHttpUrl } from "../signals/blocking.ts";
import type { ProbeAnswer } from "../signals/types.ts";
import { htmlLinks } from "./html.ts";
import { findLink, readLinkHeader } from "./link-header.ts";

/** ARD v0.91's well-known path. */
export const ARD_PATH = "/.well-known/ard.json";

/** The AI Catalog's well-known path: ARD's predecessor, kept for compatibility. */
export const AI_CATALOG_PATH = "/.well-known/ai-catalog.json";

/** The MCP Catalog's well-known path (MCP server-card extension, docs/discovery.md). */
export const MCP_CATALOG_PATH = "/.well-known/mcp/catalog.json";

/**
 * How deep nested catalogs are followed: the AI Catalog specification RECOMMENDS a limit of 4
 * ("Nested Catalog Depth and Circular References"). The site's catalog is depth 0.
 */
export const MAX_NESTING_DEPTH = 4;

/** At most this many nested catalogs are fetched by `url` per crawl (inline ones cost nothing). */
export const MAX_NESTED_FETCHES = 4;

/** What an entry names, by its media type. */
export type AiCatalogEntryKind =
  | "mcp-server-card"
  | "mcp-endpoint"
  | "openapi"
  | "a2a-agent-card"
  | "api-catalog"
  | "ai-catalog"
  | "other";

export interface AiCatalogEntry {
  identifier: string | null;
  /** The entry's human-readable name (required by ARD). */
  displayName: string | null;
  /** What the entry says it is for, in its own words (ARD's optional descriptive terms). */
  description: string | null;
  tags: string[];
  capabilities: string[];
  representativeQueries: string[];
  /** The entry's media type as written. */
  type: string | null;
  kind: AiCatalogEntryKind;
  /** The artifact's URL made absolute against the catalog, when named by `url`. */
  url: string | null;
  /** The artifact inline, when carried in `data`. */
  data: unknown;
  /**
   * The nested catalogs the entry was reached through, outermost first (empty for an entry of the
   * site's catalog itself): each the nested catalog's URL, or null for one carried inline.
   */
  via: (string | null)[];
}

export interface AiCatalog {
  /** The catalog's URL (after redirects): the base of its relative references. */
  url: string;
  specVersion: string | null;
  /** `entries` as ARD and the AI Catalog have it, or the `capabilities` list of earlier ARD drafts. */
  shape: "entries" | "capabilities";
  /** The manifest's host object's identifier, when it has one (a DID or a domain). */
  hostIdentifier: string | null;
  /**
   * Departures from ARD's required structure, in order (the detectors read the entries anyway; the
   * ai_catalog check fails on the first): no specVersion, an entry that is not an object, lacks
   * its identifier or type, has neither or both of url and data, or a url that is not http(s).
   */
  problems: string[];
  /** Lesser departures agents can live with: entries without a displayName. */
  warnings: string[];
  /** The catalog's own entries, as written (nested catalogs' entries are not among them). */
  entries: AiCatalogEntry[];
  /**
   * Every entry reachable from the catalog: its own, then those of the nested catalogs followed
   * (crawl-state.ts), each with the chain it was reached through. Equal to `entries` until
   * nested catalogs are resolved.
   */
  reachable: AiCatalogEntry[];
}

/** The kind of artifact a media type names. */
export function entryKindOf(type: string | null): AiCatalogEntryKind {
  const base = (type ?? "").split(";")[0]!.trim().toLowerCase();
  // `application/mcp-server+json`: the server-card media type of the MCP Catalog's earlier draft.
  if (base === "application/mcp-server-card+json" || base === "application/mcp-server+json") return "mcp-server-card";
  if (base === "application/vnd.mcp+json" || base === "application/mcp+json") return "mcp-endpoint";
  if (
    /^application\/(?:vnd\.oai\.)?openapi(?:\+(?:json|yaml))?$|^application\/(?:x-)?(?:openapi|swagger)\+(?:json|yaml)$/.test(
      base,
    )
  ) {
    return "openapi";
  }
  if (base === "application/a2a-agent-card+json") return "a2a-agent-card";
  if (base === "application/linkset+json") return "api-catalog";
  if (base === "application/ai-catalog+json") return "ai-catalog";
  return "other";
}

/** Where the site names its manifest: the link relation (`ard`, or the older `ai-catalog`), or robots.txt. */
export interface LinkedCatalog {
  url: string;
  via: "Link header" | "HTML link" | "robots.txt Agentmap";
  /** The relation that named it (`ard` or `ai-catalog`), or `agentmap`. */
  rel: "ard" | "ai-catalog" | "agentmap";
}

/**
 * The manifest the home page names: `rel="ard"` (ARD v0.91) in a Link header (RFC 8288), else in
 * an HTML `<link>` (resolved against the page's `<base>`), else the same with the older
 * `ai-catalog` relation (AI Catalog v0.9, "Link Relation Discovery"). Null when none names one.
 */
export function linkedCatalogOf(home: ProbeAnswer): LinkedCatalog | null {
  const pageUrl = home.finalUrl || home.url;
  const headerLinks = readLinkHeader(home.headers.get("link"), pageUrl, resolveHttpUrl);
  const elementLinks = isHtmlAnswer(home) ? htmlLinks(home.body, pageUrl, resolveHttpUrl) : [];
  for (const rel of ["ard", "ai-catalog"] as const) {
    const header = findLink(headerLinks, rel);
    if (header) return { url: header.href, via: "Link header", rel };
    const element = findLink(elementLinks, rel);
    if (element) return { url: element.href, via: "HTML link", rel };
  }
  return null;
}

/** The manifest a robots.txt names with ARD's `Agentmap:` line (the first that is an http(s) URL), or null. */
export function agentmapOf(agentmaps: readonly string[], robotsUrl: string): LinkedCatalog | null {
  for (const value of agentmaps) {
    const url = resolveHttpUrl(value, robotsUrl);
    if (url) return { url, via: "robots.txt Agentmap", rel: "agentmap" };
  }
  return null;
}

/** The strings of a list (at most ENTRY_TERMS_KEPT), or none when it is not a list. */
function stringsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is string => typeof item === "string" && item.trim() !== "")
    .slice(0, ENTRY_TERMS_KEPT);
}

/** At most this many of an entry's tags, capabilities or representative queries are read. */
export const ENTRY_TERMS_KEPT = 32;

/** Reads an AI Catalog answer, or says why it is not one. */
export function readAiCatalog(answer: ProbeAnswer): AiCatalog | { problem: string } {
  if (isHtmlAnswer(answer)) return { problem: "is an HTML page" };
  const document = parseJson(answer.body);
  if (document === undefined) return { problem: "is not JSON" };
  return readAiCatalogDocument(document, answer.finalUrl || answer.url);
}

/**
 * Reads a parsed AI Catalog whose relative references resolve against `url` (the URL it was
 * fetched from, or for one carried inline the URL of the catalog that carries it).
 */
export function readAiCatalogDocument(
  document: unknown,
  catalogUrl: string,
  via: (string | null)[] = [],
): AiCatalog | { problem: string } {
  if (!isRecord(document)) return { problem: "is not a JSON object" };
  const list = Array.isArray(document.entries)
    ? document.entries
    : Array.isArray(document.capabilities)
      ? document.capabilities
      : null;
  if (!list) return { problem: "has no entries list" };
  const entries: AiCatalogEntry[] = [];
  const problems: string[] = [];
  const warnings: string[] = [];
  if (!Array.isArray(document.entries))
    problems.push("has no entries array (an earlier ARD draft's capabilities list)");
  if (typeof document.specVersion !== "string") problems.push("has no specVersion");
  for (const [index, item] of list.entries()) {
    const which = `entry ${index + 1}`;
    if (!isRecord(item)) {
      problems.push(`${which} is not an object`);
      continue;
    }
    const type = typeof item.type === "string" ? item.type : typeof item.mediaType === "string" ? item.mediaType : null;
    if (typeof item.identifier !== "string" || typeof item.type !== "string")
      problems.push(`${which} lacks its identifier or type`);
    if (item.url === undefined && item.data === undefined) problems.push(`${which} has neither url nor data`);
    else if (item.url !== undefined && item.data !== undefined) problems.push(`${which} has both url and data`);
    const url = typeof item.url === "string" ? resolveHttpUrl(item.url, catalogUrl) : null;
    if (item.url !== undefined && !url) problems.push(`${which}'s url is not an http(s) URL`);
    if (typeof item.displayName !== "string") warnings.push(`${which} has no displayName`);
    entries.push({
      identifier: typeof item.identifier === "string" ? item.identifier : null,
      displayName: typeof item.displayName === "string" ? item.displayName : null,
      description: typeof item.description === "string" && item.description.trim() ? item.description : null,
      tags: stringsOf(item.tags),
      capabilities: stringsOf(item.capabilities),
      representativeQueries: stringsOf(item.representativeQueries),
      type,
      kind: entryKindOf(type),
      url,
      data: item.data ?? null,
      via,
    });
  }
  const specVersion =
    typeof document.specVersion === "string"
      ? document.specVersion
      : typeof document.ard_version === "string"
        ? document.ard_version
        : null;
  if (list.length === 0) problems.push("lists no entries");
  const host = isRecord(document.host) ? document.host : null;
  return {
    url: catalogUrl,
    specVersion,
    shape: Array.isArray(document.entries) ? "entries" : "capabilities",
    hostIdentifier: host && typeof host.identifier === "string" ? host.identifier : null,
    problems,
    warnings,
    entries,
    reachable: [...entries],
  };
}

/** "an A2A agent card and 2 other artifacts": what a catalog lists, for reasons. */
export function describeEntries(catalog: AiCatalog): string {
  if (catalog.reachable.length === 0) return "no entries";
  const counts = new Map<string, number>();
  const label: Record<AiCatalogEntryKind, string> = {
    "mcp-server-card": "MCP server card",
    "mcp-endpoint": "MCP endpoint",
    openapi: "OpenAPI document",
    "a2a-agent-card": "A2A agent card",
    "api-catalog": "API catalog",
    "ai-catalog": "nested catalog",
    other: "other artifact",
  };
  for (const entry of catalog.reachable) counts.set(label[entry.kind], (counts.get(label[entry.kind]) ?? 0) + 1);
  return [...counts.entries()].map(([name, count]) => (count === 1 ? `1 ${name}` : `${count} ${name}s`)).join(", ");
}
