/**
 * The ARD registry in integration tests: indexed sites with agent resources (written as the crawl
 * writes `sites.agent_resources`), and calls of /ard/v1 as one client.
 */
import type { StoredAgentResource } from "../../db/schema/sites.ts";
import { insertSites } from "./sites.ts";
import { asClient } from "./worker.ts";

export type Resource = StoredAgentResource;

/** An MCP server as the crawl records it: its card (or endpoint) and the endpoint's health class. */
export function mcpResource(domain: string, overrides: Partial<Resource> = {}): Resource {
  return {
    kind: "mcp-server",
    identifier: `urn:air:${domain}:indexed:mcp-server-${hex(domain, "mcp")}`,
    identifierSource: "registry",
    type: "application/mcp-server-card+json",
    url: `https://${domain}/mcp/server-card`,
    displayName: `${domain} MCP server`,
    capabilities: ["search_docs", "get_page"],
    verification: "handshake",
    endpoint: `https://${domain}/mcp`,
    ...overrides,
  };
}

export function a2aResource(domain: string, overrides: Partial<Resource> = {}): Resource {
  return {
    kind: "a2a-agent",
    identifier: `urn:air:${domain}:indexed:a2a-agent-${hex(domain, "a2a")}`,
    identifierSource: "registry",
    type: "application/a2a-agent-card+json",
    url: `https://${domain}/.well-known/agent-card.json`,
    displayName: `${domain} A2A agent`,
    verification: "pass",
    ...overrides,
  };
}

export function openapiResource(domain: string, overrides: Partial<Resource> = {}): Resource {
  return {
    kind: "openapi",
    identifier: `urn:air:${domain}:indexed:openapi-${hex(domain, "openapi")}`,
    identifierSource: "registry",
    type: "application/vnd.oai.openapi+json",
    url: `https://${domain}/openapi.json`,
    displayName: `${domain} API`,
    verification: "pass",
    ...overrides,
  };
}

/** A manifest entry the site publishes under its own identifier. */
export function manifestResource(domain: string, name: string, overrides: Partial<Resource> = {}): Resource {
  return {
    kind: "manifest-entry",
    identifier: `urn:air:${domain}:tools:${name}`,
    identifierSource: "site",
    type: "application/mcp-server-card+json",
    url: `https://${domain}/cards/${name}.json`,
    displayName: `${name} tool`,
    description: `The ${name} tool of ${domain}.`,
    tags: ["weather", name],
    capabilities: [`${name}Tool`],
    representativeQueries: [`what is the ${name} today`, `show me the ${name}`],
    verification: "listed",
    ...overrides,
  };
}

/** A deterministic stand-in for the crawl's digest (12 hex digits), enough to keep names apart. */
function hex(domain: string, kind: string): string {
  let hash = 0x811c9dc5;
  for (const char of `${kind}:${domain}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return `${hash.toString(16).padStart(8, "0")}abcd`;
}

export interface ArdSite {
  domain: string;
  name: string;
  agenticScore: number;
  tags?: string[];
  category?: string;
  resources: Resource[] | null;
}

/** Indexes sites with their resources. */
export async function insertArdSites(list: ArdSite[]) {
  return insertSites(
    list.map((site) => ({
      domain: site.domain,
      name: site.name,
      agenticScore: site.agenticScore,
      tags: site.tags ?? [],
      category: (site.category ?? "developer") as never,
      agentResources: site.resources,
    })),
  );
}

export type Json = Record<string, unknown>;

/** POSTs JSON to an ARD path as one client. */
export function ardPost(client: ReturnType<typeof asClient>, path: string, body: unknown) {
  return client(`/ard/v1${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** A search that must answer 200; its body. */
export async function ardSearch(
  body: unknown,
  client = asClient(),
): Promise<Json & { results: Json[]; pageToken?: string }> {
  const response = await ardPost(client, "/search", body);
  if (response.status !== 200) throw new Error(`search answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Json & { results: Json[]; pageToken?: string };
}

/** Every result of a search, page by page (at most `pages` pages). */
export async function ardSearchAll(
  body: Json,
  pageSize: number,
  pages = 50,
): Promise<{ results: Json[]; tokens: string[] }> {
  const client = asClient();
  const results: Json[] = [];
  const tokens: string[] = [];
  let token: string | undefined;
  for (let page = 0; page < pages; page++) {
    const answer = await ardSearch({ ...body, pageSize, ...(token ? { pageToken: token } : {}) }, client);
    results.push(...answer.results);
    if (!answer.pageToken) return { results, tokens };
    tokens.push(answer.pageToken);
    token = answer.pageToken;
  }
  throw new Error(`more than ${pages} pages`);
}
