/**
 * The AI Catalog (`/.well-known/ai-catalog.json`, media type `application/ai-catalog+json`): a
 * site's list of its AI artifacts — MCP server cards, A2A agent cards, OpenAPI documents, skills,
 * nested catalogs — each an entry `{identifier, type, url | data}` whose `type` is the artifact's
 * media type, naming it by `url` or carrying it inline in `data` (AI Catalog specification,
 * ai-catalog.io/spec, v0.9). The catalog is a lead, never proof: the MCP detector probes the
 * endpoints its server cards name, the OpenAPI detector parses the documents it names.
 *
 * Read leniently where real catalogs differ: `entries` as the specification has it, or the
 * `capabilities` list of the earlier Agentic Resource Discovery drafts; a media type with
 * parameters (`application/vnd.oai.openapi+json;version=3.1`) is read by its base type.
 */
import { isHtmlAnswer, isRecord, parseJson, resolveHttpUrl } from "./blocking.ts";
import type { ProbeAnswer } from "./types.ts";

export const AI_CATALOG_PATH = "/.well-known/ai-catalog.json";

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
}

export interface AiCatalog {
  /** The catalog's URL (after redirects): the base of its relative references. */
  url: string;
  specVersion: string | null;
  entries: AiCatalogEntry[];
}

/** The kind of artifact a media type names. */
export function entryKindOf(type: string | null): AiCatalogEntryKind {
  const base = (type ?? "").split(";")[0]!.trim().toLowerCase();
  if (base === "application/mcp-server-card+json") return "mcp-server-card";
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

/** Reads an AI Catalog answer, or says why it is not one. */
export function readAiCatalog(answer: ProbeAnswer): AiCatalog | { problem: string } {
  if (isHtmlAnswer(answer)) return { problem: "is an HTML page" };
  const document = parseJson(answer.body);
  if (document === undefined) return { problem: "is not JSON" };
  if (!isRecord(document)) return { problem: "is not a JSON object" };
  const list = Array.isArray(document.entries)
    ? document.entries
    : Array.isArray(document.capabilities)
      ? document.capabilities
      : null;
  if (!list) return { problem: "has no entries list" };
  const url = answer.finalUrl || answer.url;
  const entries: AiCatalogEntry[] = [];
  for (const item of list) {
    if (!isRecord(item)) continue;
    const type = typeof item.type === "string" ? item.type : null;
    entries.push({
      identifier: typeof item.identifier === "string" ? item.identifier : null,
      type,
      kind: entryKindOf(type),
      url: typeof item.url === "string" ? resolveHttpUrl(item.url, url) : null,
      data: item.data ?? null,
    });
  }
  const specVersion =
    typeof document.specVersion === "string"
      ? document.specVersion
      : typeof document.ard_version === "string"
        ? document.ard_version
        : null;
  return { url, specVersion, entries };
}

/** "an A2A agent card and 2 other artifacts": what a catalog lists, for reasons. */
export function describeEntries(catalog: AiCatalog): string {
  if (catalog.entries.length === 0) return "no entries";
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
  for (const entry of catalog.entries) counts.set(label[entry.kind], (counts.get(label[entry.kind]) ?? 0) + 1);
  return [...counts.entries()].map(([name, count]) => (count === 1 ? `1 ${name}` : `${count} ${name}s`)).join(", ");
}
