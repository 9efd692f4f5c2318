/**
 * The MCP server card reader: the SEP-2127 card (`$schema` under
 * static.modelcontextprotocol.io/schemas/…/server-card.schema.json, a reverse-DNS `name`, `remotes`
 * with a transport type and URL, or for a local server `packages`), the MCP registry's server.json
 * and unversioned cards with remotes, and SEP-1649's older `serverInfo` + `transport` shape.
 */
import { isRecord, resolveHttpUrl } from "../signals/blocking.ts";
import { findDiscoveredEndpoint } from "../signals/detect-mcp-server.ts";

/** A document read as an MCP server card. */
export interface ServerCardReading {
  /** `sep-2127`: the current card; `legacy`: SEP-1649, a registry server.json or another older shape. */
  shape: "sep-2127" | "legacy";
  name: string | null;
  /** The remote endpoints (with a transport type), made absolute. */
  endpoints: string[];
  /** True for a card of a local server: `packages` to run, no remote endpoint. */
  local: boolean;
  /** True when the card enumerates tools, resources or prompts (the older shape; SEP-2127 lists none). */
  enumerates: boolean;
}

/**
 * How a document reads as an MCP server card: SEP-2127 (remotes, or for a local server packages),
 * an older shape, or not a card. The older shapes' endpoint is found as the MCP detector finds it
 * (findDiscoveredEndpoint), so the card check and the detector never disagree on where a card
 * points.
 */
export function readServerCard(document: unknown, base: string): ServerCardReading | { problem: string } {
  if (!isRecord(document)) return { problem: "is not a JSON object" };
  const schema = typeof document.$schema === "string" ? document.$schema : "";
  const remotes = Array.isArray(document.remotes) ? document.remotes : null;
  const endpoints = (remotes ?? [])
    .filter(
      (remote): remote is Record<string, unknown> =>
        isRecord(remote) && typeof remote.url === "string" && typeof remote.type === "string",
    )
    .map((remote) => resolveHttpUrl(remote.url as string, base))
    .filter((url): url is string => url !== null);
  const packages = Array.isArray(document.packages) ? document.packages.filter(isRecord) : [];
  const enumerates = ["tools", "resources", "prompts"].some(
    (key) => Array.isArray(document[key]) && (document[key] as unknown[]).length > 0,
  );
  const name = typeof document.name === "string" ? document.name : null;
  const local = endpoints.length === 0 && packages.length > 0;
  if (/static\.modelcontextprotocol\.io\/schemas\/.*server-card\.schema\.json/.test(schema)) {
    if (!name) return { problem: "is a SEP-2127 card without a name" };
    if (endpoints.length === 0 && !local)
      return { problem: "is a SEP-2127 card that names no remote endpoint (url and type) and no package to run" };
    return { shape: enumerates ? "legacy" : "sep-2127", name, endpoints, local, enumerates };
  }
  // A registry server.json or an unversioned card with remotes or packages: usable, but not the card's schema.
  if (
    name &&
    (endpoints.length > 0 || local) &&
    (schema === "" || /modelcontextprotocol\.io\/schemas\//.test(schema))
  ) {
    return { shape: "legacy", name, endpoints, local, enumerates };
  }
  // SEP-1649's shape (serverInfo and a transport endpoint) and the other shapes sites publish.
  const serverInfo = isRecord(document.serverInfo) ? document.serverInfo : null;
  const endpoint = findDiscoveredEndpoint(document, base);
  if (endpoint) {
    const shown = name ?? (serverInfo && typeof serverInfo.name === "string" ? serverInfo.name : null);
    return { shape: "legacy", name: shown, endpoints: [endpoint], local: false, enumerates };
  }
  if (remotes === null && !serverInfo) return { problem: "is not an MCP server card (no remotes or serverInfo)" };
  return { problem: "is not a usable MCP server card (no endpoint with a transport)" };
}
