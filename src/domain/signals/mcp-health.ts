/**
 * MCP endpoint health: how the endpoint a site advertises answered the crawl's live handshake, in
 * the four classes published on /state and in /api/v1/stats/adoption. A site "advertises" an MCP
 * server when an AI Catalog, a server card, a well-known discovery document or an MCP Registry
 * lead (a seed import's `remotes` URL) names an endpoint; the conventional `<origin>/mcp` probed
 * on every site is not an advertisement. Stored per site as the index of its class
 * (`sites.mcp_endpoint_health`), null when nothing was advertised.
 */
import type { McpProbeOutcome } from "./mcp-probe.ts";

/** The classes, in their stored order (the index is the stored code). */
export const MCP_ENDPOINT_HEALTH = ["handshake", "auth_gated", "not_mcp", "unreachable"] as const;

export type McpEndpointHealth = (typeof MCP_ENDPOINT_HEALTH)[number];

/** What each class means, in the words the page and the docs use. */
export const MCP_ENDPOINT_HEALTH_LABELS: Record<McpEndpointHealth, string> = {
  handshake: "completes a handshake",
  auth_gated: "is auth-gated",
  not_mcp: "answers HTTP but not as MCP",
  unreachable: "is unreachable",
};

/**
 * The class of a probe outcome: a compliant exchange in either era (server/discover + tools/list
 * of 2026-07-28, or initialize + tools/list of 2025) is a handshake; a refusal
 * (401, 402, 403, 429, a bot challenge) is gated; a reply that is not a Streamable HTTP MCP server
 * (another status, HTML, a JSON-RPC error, or only the legacy SSE transport) is HTTP but not MCP;
 * no answer at all (timeout, refused connection, DNS) is unreachable.
 */
export function mcpEndpointHealthOf(outcome: McpProbeOutcome): McpEndpointHealth {
  switch (outcome) {
    case "compliant":
      return "handshake";
    case "gated":
      return "auth_gated";
    case "not_mcp":
    case "wrong_transport":
      return "not_mcp";
    case "unreachable":
      return "unreachable";
  }
}

/** The stored code of the MCP signal's finding details, or null when no endpoint was advertised. */
export function mcpEndpointHealthCode(details: Record<string, unknown> | undefined): number | null {
  if (details?.advertised !== true) return null;
  const outcome = details.outcome as McpProbeOutcome | undefined;
  if (!outcome) return null;
  return MCP_ENDPOINT_HEALTH.indexOf(mcpEndpointHealthOf(outcome));
}
