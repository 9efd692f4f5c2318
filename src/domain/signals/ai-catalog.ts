/**
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
import { walkHtml } from "../classification/site-metadata.ts";
import { isHtmlAnswer, isRecord, parseJson, resolveHttpUrl } from "./blocking.ts";
import type { ProbeAnswer } from "./types.ts";

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

/** Where the home page names its AI Catalog: the `ai-catalog` link relation, and how. */
export interface LinkedCatalog {
  url: string;
  via: "Link header" | "HTML link";
}

/**
 * The AI Catalog the home page names with the `ai-catalog` link relation (AI Catalog v0.9, "Link
 * Relation Discovery"; registered with IANA): first a `Link: <…>; rel="ai-catalog"` header
 * (RFC 8288, relation lists included), else, on an HTML page, a `<link rel="ai-catalog" href>`
 * element (resolved against the page's `<base>` when it has one). Null when neither names one.
 */
export function linkedCatalogOf(home: ProbeAnswer): LinkedCatalog | null {
  const pageUrl = home.finalUrl || home.url;
  const header = home.headers.get("link");
  if (header) {
    const link = /<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"[^"]*"|[^;,\s]*))?)*)/g;
    for (const match of header.matchAll(link)) {
      const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(match[2] ?? "");
      const relations = (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/);
      if (!relations.includes("ai-catalog")) continue;
      const url = resolveHttpUrl(match[1] ?? "", pageUrl);
      if (url) return { url, via: "Link header" };
    }
  }
  if (!isHtmlAnswer(home)) return null;
  let base = pageUrl;
  let found: string | null = null;
  walkHtml(home.body, (tag) => {
    if (found) return;
    if (tag.name === "base" && tag.attributes.href) base = resolveHttpUrl(tag.attributes.href, base) ?? base;
    if (tag.name !== "link" || !tag.attributes.href) return;
    if (!(tag.attributes.rel ?? "").toLowerCase().split(/\s+/).includes("ai-catalog")) return;
    found = resolveHttpUrl(tag.attributes.href, base);
  });
  return found ? { url: found, via: "HTML link" } : null;
}

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
  url: string,
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
  for (const item of list) {
    if (!isRecord(item)) continue;
    const type = typeof item.type === "string" ? item.type : typeof item.mediaType === "string" ? item.mediaType : null;
    entries.push({
      identifier: typeof item.identifier === "string" ? item.identifier : null,
      type,
      kind: entryKindOf(type),
      url: typeof item.url === "string" ? resolveHttpUrl(item.url, url) : null,
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
  return { url, specVersion, entries, reachable: [...entries] };
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
