/**
 * What the crawl records for the ARD registry (src/domain/registry/agent-resources.ts): whole
 * crawls of the discovery fixture sites over real HTTP, each site's resources as the registry will
 * list them (the manifest entries joined to the card, check or endpoint the crawl saw), and the
 * naming rules on synthetic findings (the site's own identifier, a squatted one, the limits).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConcurrencyLimiter } from "../../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite } from "../../src/domain/crawling/crawl-site.ts";
import {
  type AgentResource,
  ARD_IDENTIFIER_PATTERN,
  agentResourcesOf,
  type CrawlResourcesInput,
  MAX_RESOURCES_PER_SITE,
  registryIdentifier,
  siteMayPublishAs,
} from "../../src/domain/registry/agent-resources.ts";
import { fixtureWebBasePort } from "../fixtures/web/expectations.ts";
import { type FixtureWeb, startFixtureWeb } from "../fixtures/web/server.ts";
import { createPlainFetcher } from "../support/plain-fetcher.ts";

/** Each fixture web of the unit project has its own 100 ports (see fixture-detectors.test.ts). */
const BASE_PORT = fixtureWebBasePort(5);

let web: FixtureWeb;
const found = new Map<string, AgentResource[] | null>();

const SITES = [
  "aic-card-at-endpoint",
  "aic-card-relative",
  "aic-a2a-and-skills",
  "aic-inline-card",
  "aic-card-dead-endpoint",
  "aic-openapi-json",
  "all-six-signals",
  "catchall-json",
];

async function resourcesOf(name: string): Promise<AgentResource[] | null> {
  const origin = web.origins[name]!;
  const crawl = await crawlSite({
    origin,
    fetcher: createPlainFetcher(8000),
    limiter: createConcurrencyLimiter(6),
    withChecklist: true,
  });
  return agentResourcesOf({
    domain: new URL(origin).host,
    siteName: crawl.name,
    signals: crawl.signals,
    discovery: crawl.discovery,
    checks: crawl.checklist?.checks ?? null,
  });
}

beforeAll(async () => {
  web = await startFixtureWeb(BASE_PORT);
  // A few at a time: the machine is shared.
  for (let i = 0; i < SITES.length; i += 4) {
    const batch = SITES.slice(i, i + 4);
    const results = await Promise.all(batch.map(resourcesOf));
    for (const [j, name] of batch.entries()) found.set(name, results[j]!);
  }
}, 120_000);

afterAll(async () => {
  await web?.stop();
});

const origin = (name: string) => web.origins[name]!;
const summary = (resources: AgentResource[] | null | undefined) =>
  (resources ?? []).map(({ kind, type, url, verification, endpoint, identifierSource }) => ({
    kind,
    type,
    ...(url ? { url } : {}),
    verification,
    ...(endpoint ? { endpoint } : {}),
    identifierSource,
  }));

describe("the resources a crawl records", () => {
  it("joins a manifest's server card to the endpoint the crawl probed, with its health class", () => {
    const site = origin("aic-card-at-endpoint");
    expect(summary(found.get("aic-card-at-endpoint"))).toEqual([
      {
        kind: "manifest-entry",
        type: "application/mcp-server-card+json",
        url: `${site}/agents/tools/server-card`,
        verification: "handshake",
        endpoint: `${site}/agents/tools`,
        // The fixture's identifier names harbour.example, not the site: not passed on as the site's.
        identifierSource: "registry",
      },
    ]);
    // Named from the card the crawl read.
    expect(found.get("aic-card-at-endpoint")![0]).toMatchObject({
      displayName: "tools",
      description: "The example.harbour/tools tools.",
      version: "1.0.0",
    });
    const dead = origin("aic-card-dead-endpoint");
    expect(summary(found.get("aic-card-dead-endpoint"))).toEqual([
      {
        kind: "manifest-entry",
        type: "application/mcp-server-card+json",
        url: `${dead}/cards/x.json`,
        verification: "not_mcp",
        endpoint: `${dead}/tools/x`,
        identifierSource: "registry",
      },
    ]);
  });

  it("keeps an A2A entry with its check's status, an inline card as data, an OpenAPI document the crawl found", () => {
    const relative = origin("aic-card-relative");
    expect(summary(found.get("aic-card-relative"))).toEqual([
      {
        kind: "manifest-entry",
        type: "application/a2a-agent-card+json",
        url: `${relative}/.well-known/agent-card.json`,
        // The card is in the 0.3 shape: the check warns, and the entry says so.
        verification: "warn",
        identifierSource: "registry",
      },
      {
        kind: "manifest-entry",
        type: "application/mcp-server-card+json",
        url: `${relative}/cards/orchard.json`,
        verification: "handshake",
        endpoint: `${relative}/v2/rpc`,
        identifierSource: "registry",
      },
    ]);
    const inline = found.get("aic-inline-card")!;
    expect(inline).toHaveLength(1);
    expect(inline[0]!.url).toBeUndefined();
    expect(inline[0]!.data).toMatchObject({ name: "example.inline/units" });
    expect(inline[0]).toMatchObject({ verification: "handshake", endpoint: `${origin("aic-inline-card")}/inline/mcp` });
    expect(summary(found.get("all-six-signals"))).toEqual([
      {
        kind: "openapi",
        type: "application/vnd.oai.openapi+json",
        url: `${origin("all-six-signals")}/openapi.json`,
        verification: "pass",
        identifierSource: "registry",
      },
    ]);
    expect(found.get("all-six-signals")![0]!.displayName).toBe("Acme Weather API");
    expect(summary(found.get("aic-openapi-json"))[0]).toMatchObject({ kind: "manifest-entry", verification: "pass" });
  });

  it("lists every manifest entry, checked or not, and nothing for a site with none", () => {
    const skills = found.get("aic-a2a-and-skills")!;
    expect(skills.map((resource) => resource.type)).toEqual([
      "application/a2a-agent-card+json",
      "application/ai-skill+md",
      "text/markdown",
    ]);
    expect(skills[0]).toMatchObject({
      displayName: "Booking agent",
      description: "Books tables.",
      verification: "listed",
    });
    expect(found.get("catchall-json")).toBeNull();
  });

  it("names every resource with a valid ARD identifier, the same at every crawl", async () => {
    for (const [name, resources] of found) {
      for (const resource of resources ?? []) {
        expect(resource.identifier, name).toMatch(ARD_IDENTIFIER_PATTERN);
        expect(Boolean(resource.url) !== Boolean(resource.data), name).toBe(true);
      }
    }
    const again = await resourcesOf("aic-card-relative");
    expect(again!.map((resource) => resource.identifier)).toEqual(
      found.get("aic-card-relative")!.map((resource) => resource.identifier),
    );
  });
});

/** A crawl's findings with only an ARD manifest, read from `document` at the site's well-known path. */
function manifestOnly(domain: string, document: unknown): CrawlResourcesInput {
  const url = `https://${domain}/.well-known/ard.json`;
  const entries = ((document as { entries: Record<string, unknown>[] }).entries ?? []).map((entry) => ({
    identifier: typeof entry.identifier === "string" ? entry.identifier : null,
    type: typeof entry.type === "string" ? entry.type : null,
    kind: "other" as const,
    url: typeof entry.url === "string" ? entry.url : null,
    data: entry.data ?? null,
    via: [],
  }));
  const absent = { status: "absent" as const, reason: "", fetched: [] };
  return {
    domain,
    siteName: "Example",
    signals: { has_mcp_server: absent, has_openapi: absent },
    checks: [],
    discovery: {
      serverCards: [],
      controls: [],
      aiCatalog: {
        url,
        source: "well-known",
        status: "present",
        reason: "",
        catalog: { url, specVersion: "1.0", entries, reachable: entries },
        response: {
          ok: true,
          status: 200,
          url,
          finalUrl: url,
          headers: new Headers(),
          contentType: "application/json",
          body: JSON.stringify(document),
        },
        control: null,
        nested: [],
      },
    } as unknown as CrawlResourcesInput["discovery"],
  };
}

describe("naming", () => {
  it("keeps the site's own identifiers and terms, and never another domain's", async () => {
    const resources = await agentResourcesOf(
      manifestOnly("api.acme.example", {
        entries: [
          {
            identifier: "urn:air:acme.example:agent:assistant",
            displayName: "Assistant",
            type: "application/a2a-agent-card+json",
            url: "https://api.acme.example/agents/assistant.json",
            description: "A corporate assistant.",
            tags: ["office"],
            capabilities: ["Mail"],
            representativeQueries: ["draft an email", "summarize my inbox"],
            trustManifest: { identity: "spiffe://acme.example/assistant" },
          },
          {
            identifier: "urn:air:google.com:tax:agent",
            displayName: "Tax",
            type: "application/a2a-agent-card+json",
            url: "https://api.acme.example/tax.json",
          },
          {
            identifier: "urn:ai:acme.example:old:one",
            displayName: "Old",
            type: "text/html",
            url: "https://api.acme.example/old",
          },
          { identifier: "urn:air:acme.example:none", type: "application/json" },
        ],
      }),
    );
    expect(resources).toHaveLength(3);
    expect(resources![0]).toEqual({
      kind: "manifest-entry",
      identifier: "urn:air:acme.example:agent:assistant",
      identifierSource: "site",
      type: "application/a2a-agent-card+json",
      url: "https://api.acme.example/agents/assistant.json",
      displayName: "Assistant",
      description: "A corporate assistant.",
      tags: ["office"],
      capabilities: ["Mail"],
      representativeQueries: ["draft an email", "summarize my inbox"],
      verification: "listed",
    });
    // The trust manifest is not kept: this registry verifies no trust framework, so it asserts none.
    expect(resources![0]).not.toHaveProperty("trustManifest");
    // google.com is not the site's to name; the older urn:ai: form is not an ARD identifier.
    expect(resources![1]).toMatchObject({
      identifier: await registryIdentifier("api.acme.example", "manifest-entry", "https://api.acme.example/tax.json"),
      identifierSource: "registry",
      displayName: "Tax",
    });
    expect(resources![1]!.identifier).toMatch(/^urn:air:api\.acme\.example:indexed:manifest-entry-[0-9a-f]{12}$/);
    expect(resources![2]!.identifierSource).toBe("registry");
  });

  it("allows the site's own domain, a parent and a child as publisher, nothing else", () => {
    expect(siteMayPublishAs("acme.example", "acme.example")).toBe(true);
    expect(siteMayPublishAs("api.acme.example", "acme.example")).toBe(true);
    expect(siteMayPublishAs("acme.example", "tools.acme.example")).toBe(true);
    expect(siteMayPublishAs("acme.example", "notacme.example")).toBe(false);
    expect(siteMayPublishAs("evilacme.example", "acme.example")).toBe(false);
  });

  it("keeps at most the per-site limit, one entry per artifact, and leaves out oversized inline data", async () => {
    const entries = Array.from({ length: MAX_RESOURCES_PER_SITE + 10 }, (_, index) => ({
      type: "text/html",
      url: `https://many.example/page/${index % (MAX_RESOURCES_PER_SITE + 5)}`,
    }));
    const many = await agentResourcesOf(manifestOnly("many.example", { entries }));
    expect(many).toHaveLength(MAX_RESOURCES_PER_SITE);
    expect(new Set(many!.map((resource) => resource.url)).size).toBe(MAX_RESOURCES_PER_SITE);
    const large = await agentResourcesOf(
      manifestOnly("large.example", { entries: [{ type: "application/json", data: { blob: "x".repeat(9000) } }] }),
    );
    expect(large).toBeNull();
  });
});
