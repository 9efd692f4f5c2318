/**
 * The agent resources a crawl found on a site, as the ARD registry (/ard/v1) lists them: each MCP
 * server (its card, or its endpoint), the A2A agent card, the OpenAPI document, the Agent Skills
 * index, and the entries of the site's own ARD manifest. Kept on the site row
 * (`sites.agent_resources`, migration 0038) by the crawl's recording, because the site row keeps
 * only evidence URLs and the manifest's descriptive terms (names, descriptions, queries) nowhere.
 *
 * Only what the crawl read is kept, and only from the site's own documents: nothing is inferred
 * about a publisher, and a manifest's trustManifest is not copied (this registry does not verify
 * trust frameworks, so it asserts none; docs/discovery.md, "The ARD registry").
 */
import type { StoredAgentResource } from "../../../db/schema/sites.ts";
import type { CheckResult } from "../checklist/checklist-definition.ts";
import { sha256Hex } from "../sha256.ts";
import type { AiCatalogFinding, CrawlDiscovery } from "../signals/crawl-state.ts";
import { mcpEndpointHealthOf } from "../signals/mcp-health.ts";
import type { McpProbeOutcome } from "../signals/mcp-probe.ts";
import type { SignalFinding } from "../signals/types.ts";

/** What kind of resource an entry describes (our own classification, beside its media type). */
export const RESOURCE_KINDS = ["manifest-entry", "mcp-server", "a2a-agent", "openapi", "agent-skills"] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** The media types this registry gives the resources it names itself (docs/discovery.md). */
export const RESOURCE_MEDIA_TYPES = {
  "mcp-server": "application/mcp-server-card+json",
  "a2a-agent": "application/a2a-agent-card+json",
  openapi: "application/vnd.oai.openapi+json",
  "agent-skills": "application/agent-skills-index+json",
} as const satisfies Record<Exclude<ResourceKind, "manifest-entry">, string>;

/** The registry's own media type (ARD §5.3): manifest entries of it are offered as referrals. */
export const REGISTRY_MEDIA_TYPE = "application/ai-registry+json";

/** One resource as stored (its shape is declared with the table, db/schema/sites.ts). */
export type AgentResource = StoredAgentResource;

/** At most this many resources are kept per site (a manifest may list many more). */
export const MAX_RESOURCES_PER_SITE = 50;
/** Inline `data` over this many bytes of JSON is not kept (the entry is then left out). */
export const MAX_INLINE_DATA_BYTES = 8192;
const MAX_TEXT = 500;
const MAX_LIST = 20;

/** An ARD identifier: `urn:air:<publisher>:<namespace…>:<name>` (the ARD schema's pattern). */
export const ARD_IDENTIFIER_PATTERN = /^urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+)+$/;

/** The `<publisher>` segment of an ARD identifier, lower-case. */
export function publisherOf(identifier: string): string {
  return (identifier.split(":")[2] ?? "").toLowerCase();
}

/**
 * Whether a site may name resources under `publisher`: its own domain, a parent of it, or one
 * under it. An identifier claiming any other domain is not passed on as the site's (namespace
 * squatting, ARD §4.5.1): the entry is then named by this registry under the site's domain.
 */
export function siteMayPublishAs(domain: string, publisher: string): boolean {
  return publisher === domain || domain.endsWith(`.${publisher}`) || publisher.endsWith(`.${domain}`);
}

/**
 * The identifier this registry gives a resource the site does not name:
 * `urn:air:<site domain>:indexed:<kind>-<first 12 hex of SHA-256 of its URL or data>`. Deterministic
 * (the same resource gets the same name at every crawl) and under the domain that serves it.
 */
export async function registryIdentifier(domain: string, kind: ResourceKind, locator: string): Promise<string> {
  const digest = (await sha256Hex(locator)).slice(0, 12);
  // A host with a port (only local fixture sites have one) keeps the port in its publisher segment.
  return `urn:air:${domain.replace(":", "-")}:indexed:${kind}-${digest}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() ? value.trim().slice(0, MAX_TEXT) : undefined;

const textList = (value: unknown): string[] | undefined => {
  if (!Array.isArray(value)) return undefined;
  const items = value.map(text).filter((item): item is string => item !== undefined);
  return items.length ? [...new Set(items)].slice(0, MAX_LIST) : undefined;
};

/** The first evidence URL that answered 200: the document a passing check read. */
function answeredUrl(evidence: { url: string; status: number | null }[]): string | undefined {
  return evidence.find((item) => item.status === 200)?.url;
}

/** The raw entries of the site's manifest, as written (the crawl's reading keeps only their locators). */
function rawManifestEntries(finding: AiCatalogFinding): Record<string, unknown>[] {
  const response = finding.response;
  if (!response.ok) return [];
  try {
    const document: unknown = JSON.parse(response.body);
    if (!isRecord(document)) return [];
    const list = Array.isArray(document.entries) ? document.entries : [];
    return list.filter(isRecord);
  } catch {
    return [];
  }
}

/** The tool names a server card lists, as capabilities (SEP-2127 cards may list `tools`). */
function cardTools(card: Record<string, unknown>): string[] | undefined {
  const tools = Array.isArray(card.tools) ? card.tools : [];
  return textList(tools.map((tool) => (isRecord(tool) ? tool.name : tool)));
}

export interface CrawlResourcesInput {
  domain: string;
  siteName: string;
  signals: { has_mcp_server: SignalFinding; has_openapi: SignalFinding };
  discovery: CrawlDiscovery;
  checks: CheckResult[] | null;
}

/** What a resource is called when neither the site nor its document names it. */
const KIND_LABELS: Record<string, string> = {
  "mcp-server-card": "MCP server",
  "mcp-endpoint": "MCP server",
  "a2a-agent-card": "A2A agent",
  openapi: "OpenAPI document",
  "api-catalog": "API catalog",
  "ai-catalog": "catalog",
};

/** The endpoints an inline server card names (`remotes[].url`). */
function remoteUrls(data: Record<string, unknown> | undefined): string[] {
  const remotes = Array.isArray(data?.remotes) ? data.remotes : [];
  return remotes.flatMap((remote) => (isRecord(remote) && typeof remote.url === "string" ? [remote.url] : []));
}

/**
 * Everything the crawl found: the site's manifest entries first (in its words), each joined to
 * what the crawl saw of the same artifact (the card it read, the check that passed, the endpoint
 * it probed); then what the crawl found by itself and no entry named: the MCP server, the A2A
 * card, the OpenAPI document, the Agent Skills index. One entry per artifact (by URL or data).
 */
export async function agentResourcesOf(input: CrawlResourcesInput): Promise<AgentResource[] | null> {
  const { domain, siteName } = input;
  const label = siteName.trim() || domain;
  const resources: AgentResource[] = [];
  const seen = new Set<string>();
  const add = (resource: AgentResource) => {
    const locator = resource.url ?? JSON.stringify(resource.data);
    if (seen.has(locator) || resources.length >= MAX_RESOURCES_PER_SITE) return;
    seen.add(locator);
    resources.push(resource);
  };

  // The MCP server the crawl probed, and the card it read that names that endpoint.
  const mcp = input.signals.has_mcp_server;
  const endpoint = typeof mcp.details?.endpoint === "string" ? mcp.details.endpoint : undefined;
  const outcome = typeof mcp.details?.outcome === "string" ? mcp.details.outcome : undefined;
  const mcpFound =
    endpoint !== undefined && outcome !== undefined && (mcp.status === "present" || mcp.details?.advertised === true);
  const card = input.discovery.serverCards.find((each) => each.endpoint === endpoint && each.url);
  let mcpNamed = false;

  const checkOf = (id: string) => input.checks?.find((check) => check.id === id);
  const passing = (id: string) => {
    const check = checkOf(id);
    if (!check || (check.status !== "pass" && check.status !== "warn")) return undefined;
    const url = answeredUrl(check.evidence);
    return url ? { url, status: check.status } : undefined;
  };
  const a2a = passing("a2a_agent_card");
  const skills = passing("agent_skills");
  const openapi = input.signals.has_openapi;
  const openapiUrl =
    openapi.status === "present" && typeof openapi.details?.url === "string" ? openapi.details.url : undefined;
  const openapiStatus = checkOf("openapi")?.status === "warn" ? "warn" : "pass";

  // Manifest entries: the site's own terms, matched to the crawl's reading by position.
  const finding = input.discovery.aiCatalog;
  if (finding?.status === "present" && finding.catalog) {
    const raw = rawManifestEntries(finding);
    for (const [index, entry] of finding.catalog.reachable.entries()) {
      const own = entry.via.length === 0 ? raw[index] : undefined;
      const type = entry.type?.trim();
      if (!type) continue;
      const data = entry.url ? undefined : isRecord(entry.data) ? entry.data : undefined;
      if (!entry.url && (!data || JSON.stringify(data).length > MAX_INLINE_DATA_BYTES)) continue;
      const locator = entry.url ?? JSON.stringify(data);
      const published = entry.identifier?.trim() ?? "";
      const ownIdentifier = ARD_IDENTIFIER_PATTERN.test(published) && siteMayPublishAs(domain, publisherOf(published));
      // The artifact as the crawl read it: the card at this URL, or the one carried here.
      const isMcp = entry.kind === "mcp-server-card" || entry.kind === "mcp-endpoint";
      const probed =
        isMcp &&
        mcpFound &&
        ((card !== undefined && entry.url === card.url) ||
          entry.url === endpoint ||
          remoteUrls(data).includes(endpoint!));
      if (probed) mcpNamed = true;
      const document = probed && card && entry.url === card.url ? card.card : data;
      const verification = probed
        ? healthOf(outcome!)
        : entry.kind === "a2a-agent-card" && entry.url !== null && entry.url === a2a?.url
          ? a2a.status
          : entry.kind === "openapi" && entry.url !== null && entry.url === openapiUrl
            ? openapiStatus
            : "listed";
      add({
        kind: "manifest-entry",
        identifier: ownIdentifier ? published : await registryIdentifier(domain, "manifest-entry", locator),
        identifierSource: ownIdentifier ? "site" : "registry",
        type,
        ...(entry.url ? { url: entry.url } : { data }),
        displayName:
          text(own?.displayName) ??
          text(document?.title) ??
          text(document?.name) ??
          `${label} ${KIND_LABELS[entry.kind] ?? (type === REGISTRY_MEDIA_TYPE ? "registry" : type)}`,
        ...optional("description", text(own?.description) ?? text(document?.description)),
        ...optional("tags", textList(own?.tags)),
        ...optional(
          "capabilities",
          textList(own?.capabilities) ?? (isMcp && document ? cardTools(document) : undefined),
        ),
        ...optional("representativeQueries", textList(own?.representativeQueries)),
        ...optional("version", text(own?.version) ?? text(document?.version)),
        verification,
        ...(probed ? { endpoint } : {}),
      });
    }
  }

  // The MCP server no manifest entry named: its card when the crawl read one, else its endpoint.
  if (mcpFound && !mcpNamed) {
    const url = card?.url ?? endpoint!;
    add({
      kind: "mcp-server",
      identifier: await registryIdentifier(domain, "mcp-server", url),
      identifierSource: "registry",
      type: RESOURCE_MEDIA_TYPES["mcp-server"],
      url,
      displayName:
        (card ? (text(card.card.title) ?? text(card.card.name)) : undefined) ??
        text(mcp.details?.server_name) ??
        `${label} MCP server`,
      ...optional("description", card ? text(card.card.description) : undefined),
      ...optional("capabilities", card ? cardTools(card.card) : undefined),
      ...optional("version", card ? text(card.card.version) : undefined),
      verification: healthOf(outcome!),
      endpoint,
    });
  }
  if (a2a) {
    add({
      kind: "a2a-agent",
      identifier: await registryIdentifier(domain, "a2a-agent", a2a.url),
      identifierSource: "registry",
      type: RESOURCE_MEDIA_TYPES["a2a-agent"],
      url: a2a.url,
      displayName: `${label} A2A agent`,
      verification: a2a.status,
    });
  }
  if (openapiUrl) {
    add({
      kind: "openapi",
      identifier: await registryIdentifier(domain, "openapi", openapiUrl),
      identifierSource: "registry",
      type: RESOURCE_MEDIA_TYPES.openapi,
      url: openapiUrl,
      displayName: text(openapi.details?.title) ?? `${label} API`,
      ...optional("version", text(openapi.details?.version)),
      verification: openapiStatus,
    });
  }
  if (skills) {
    add({
      kind: "agent-skills",
      identifier: await registryIdentifier(domain, "agent-skills", skills.url),
      identifierSource: "registry",
      type: RESOURCE_MEDIA_TYPES["agent-skills"],
      url: skills.url,
      displayName: `${label} Agent Skills`,
      verification: skills.status,
    });
  }
  return resources.length ? resources : null;
}

/** The health class of a probe outcome, as /state and the adoption figures class it. */
const healthOf = (outcome: string): string => mcpEndpointHealthOf(outcome as McpProbeOutcome);

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
