/**
 * The web root as a client sees it: the home page, the privacy page and the agent documents (status,
 * content type, caching and what each must say), the sidecar's confirmation URL landing on an
 * anchor of the privacy page, and the health route, the descriptor and the not-found answer
 * unchanged beside them.
 */
import { describe, expect, it } from "vitest";
import { readContentUsage } from "../../src/domain/checklist/families/bot-access.ts";
import { walkHtml } from "../../src/domain/classification/site-metadata.ts";
import { PROVIDER_EXCHANGE_POLICY } from "../../src/domain/descriptor/provider-exchange-policy.ts";
import { buildSiteLinks } from "../../src/domain/descriptor/site-documents.ts";
import { readMcpRegistryAuth } from "../../src/domain/readers/mcp-registry-auth.ts";
import { readServerCard } from "../../src/domain/readers/mcp-server-card.ts";
import { readSitemap } from "../../src/domain/readers/sitemap.ts";
import { readAiCatalogDocument } from "../../src/domain/signals/ai-catalog.ts";
import { readAiPluginManifest } from "../../src/domain/signals/detect-ai-plugin.ts";
import { readLlmsTitle } from "../../src/domain/signals/detect-llms-txt.ts";
import { findDiscoveredEndpoint } from "../../src/domain/signals/detect-mcp-server.ts";
import { matchAiUserAgent, parseRobotsTxt } from "../../src/domain/signals/detect-robots-ai.ts";
import { PRIVACY_ANCHORS } from "../../src/web/pages/privacy.tsx";
import { searchOk } from "../support/search.ts";
import { insertSites, uniqueToken } from "../support/sites.ts";
import { TEST_MCP_REGISTRY_PUBLIC_KEY } from "../support/stack-settings.ts";
import { asClient, call, expectProblem } from "../support/worker.ts";

const ORIGIN = "http://svc.test";
const links = buildSiteLinks(ORIGIN);
const CACHED = "public, max-age=300";

/** Every element id of a page. */
function elementIds(page: string): string[] {
  const ids: string[] = [];
  walkHtml(page, (tag) => {
    if (tag.attributes.id) ids.push(tag.attributes.id);
  });
  return ids;
}

/** The tags of a page with this name, e.g. every `link`. */
function tagsNamed(page: string, name: string) {
  const tags: Record<string, string>[] = [];
  walkHtml(page, (tag) => {
    if (tag.name === name) tags.push(tag.attributes);
  });
  return tags;
}

/** The parsed JSON-LD blocks of a page. */
function jsonLdBlocks(page: string): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  walkHtml(page, (tag) => {
    if (tag.name === "script" && tag.attributes.type === "application/ld+json" && tag.content) {
      blocks.push(JSON.parse(tag.content) as Record<string, unknown>);
    }
  });
  return blocks;
}

async function fetchOk(path: string, contentType: RegExp): Promise<Response> {
  const response = await call(path);
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  expect(response.headers.get("content-type")).toMatch(contentType);
  return response;
}

describe("GET / (home page)", () => {
  it("is an HTML page naming the API, its docs and the agent documents, cached 5 minutes", async () => {
    const response = await fetchOk("/", /^text\/html; charset=utf-8$/i);
    expect(response.headers.get("cache-control")).toBe(CACHED);
    const page = await response.text();
    const hrefs = tagsNamed(page, "a").map((a) => a.href);
    for (const href of [
      links.descriptor,
      links.docs,
      links.openApi,
      links.llmsTxt,
      links.privacy,
      links.mcp,
      links.apiCatalog,
      links.aiPlugin,
      links.mcpDiscovery,
    ]) {
      expect(hrefs).toContain(href);
    }
    expect(page).toContain("Agent Readiness Search");
  });

  it("declares its OpenAPI document in a link element and in the Link header, and names its icon", async () => {
    const response = await call("/");
    const page = await response.text();
    const pageLinks = tagsNamed(page, "link");
    expect(pageLinks).toContainEqual({ rel: "service-desc", href: links.openApi, type: "application/openapi+json" });
    expect(pageLinks).toContainEqual({ rel: "icon", href: links.favicon, type: "image/svg+xml" });
    const header = response.headers.get("link") ?? "";
    expect(header).toContain(`<${links.openApi}>; rel="service-desc"; type="application/openapi+json"`);
    expect(header).toContain(`<${links.apiCatalog}>; rel="api-catalog"`);
  });

  it("names its ARD manifest with rel=ard, in a link element and in the Link header", async () => {
    const response = await call("/");
    const pageLinks = tagsNamed(await response.text(), "link");
    expect(pageLinks).toContainEqual({
      rel: "ard",
      href: `${ORIGIN}/.well-known/ard.json`,
      type: "application/ai-catalog+json",
    });
    expect(response.headers.get("link")).toContain(`<${ORIGIN}/.well-known/ard.json>; rel="ard"`);
  });

  it("marks up no product or offer, so that the free API does not read as a store", async () => {
    const page = await (await call("/")).text();
    expect(JSON.stringify(jsonLdBlocks(page))).not.toMatch(/"Offer"|"Product"|"price"/);
  });

  it("holds schema.org JSON-LD: a WebSite with a SearchAction on the search page and /api/v1/search, and the WebAPI", async () => {
    const page = await (await call("/")).text();
    const [jsonLd] = jsonLdBlocks(page);
    expect(jsonLd?.["@context"]).toBe("https://schema.org");
    const graph = jsonLd?.["@graph"] as Record<string, unknown>[];
    const website = graph.find((node) => node["@type"] === "WebSite");
    expect(website).toMatchObject({
      name: "Agent Readiness Search",
      url: `${ORIGIN}/`,
      description: expect.stringContaining("AI agents"),
      potentialAction: {
        "@type": "SearchAction",
        target: [
          { "@type": "EntryPoint", urlTemplate: `${ORIGIN}/search?q={search_term_string}`, contentType: "text/html" },
          {
            "@type": "EntryPoint",
            urlTemplate: `${ORIGIN}/api/v1/search?q={search_term_string}`,
            contentType: "application/json",
          },
        ],
        "query-input": "required name=search_term_string",
      },
    });
    expect(graph.find((node) => node["@type"] === "WebAPI")).toMatchObject({
      url: `${ORIGIN}/api/v1/`,
      documentation: `${ORIGIN}/docs`,
    });
  });

  it("lists every endpoint of the descriptor's catalog", async () => {
    const descriptor = (await (await call("/api/v1/")).json()) as { endpoints: Record<string, string> };
    const page = await (await call("/")).text();
    for (const line of Object.values(descriptor.endpoints)) {
      const [, method, path] = /^(\S+) (\S+?)(?:: |$)/.exec(line)!;
      expect(page).toContain(`<code>${method} ${path}</code>`);
    }
  });

  it("serves the icon it names as SVG", async () => {
    const response = await fetchOk("/favicon.svg", /^image\/svg\+xml$/);
    expect(await response.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });
});

describe("GET /privacy", () => {
  it("has a section for each published consent anchor, naming its exact version", async () => {
    const response = await fetchOk("/privacy", /^text\/html; charset=utf-8$/i);
    expect(response.headers.get("cache-control")).toBe(CACHED);
    const page = await response.text();
    expect(elementIds(page)).toEqual(
      expect.arrayContaining([
        "action-interest-v1",
        "consent-v1",
        "handoff-consent-v1",
        "controlled-intent-disclosure-consent-v1",
      ]),
    );
    const section = (id: string) => page.slice(page.indexOf(`id="${id}"`)).split("</section>")[0]!;
    expect(section(PRIVACY_ANCHORS.actionInterest)).toContain("svc-action-interest-v1");
    expect(section(PRIVACY_ANCHORS.ticketConsent)).toContain("principal-consent v1");
    expect(section(PRIVACY_ANCHORS.ticketConsent)).toContain("svc-action-ticket-preparation-v2");
    expect(section(PRIVACY_ANCHORS.handoffConsent)).toContain("svc-provider-handoff-consent-v1");
    expect(section(PRIVACY_ANCHORS.controlledIntentDisclosure)).toContain(
      "svc-provider-controlled-intent-disclosure-consent-v1",
    );
  });

  it("states what action-interest receipts hold and do not hold", async () => {
    const page = await (await call("/privacy")).text();
    const section = page.slice(page.indexOf('id="action-interest-v1"')).split("</section>")[0]!;
    expect(section).toMatch(/No query, prompt, contact detail, agent or principal identity, IP address or user agent/);
    expect(section).toMatch(/at most 30 days/);
    expect(section).toMatch(/contacts no provider, creates no ticket and no charge/);
    expect(page).toMatch(/No receipt table has a column for the query, an IP address, a user agent or an identity/);
  });

  it("publishes every provider_exchange flag with its value, from the policy object", async () => {
    const page = await (await call("/privacy")).text();
    const rows = page.slice(page.indexOf('id="policy-flags"')).split("</section>")[0]!;
    for (const [flag, value] of Object.entries(PROVIDER_EXCHANGE_POLICY)) {
      const shown = JSON.stringify(value).replaceAll('"', "&quot;");
      expect(rows).toContain(`<tr><td><code>${flag}</code></td><td><code>${shown}</code></td>`);
    }
  });
});

describe("the sidecar's confirmation URL", () => {
  it("points at the privacy page's action-interest anchor, which exists", async () => {
    const t = uniqueToken();
    await insertSites([{ domain: `web-root-${t}.test`, name: `${t} Web root` }]);
    const search = await searchOk(asClient(), { q: t });
    const url = new URL(search.action_interest.confirmation_url as string);
    expect(url.href).toBe(`${ORIGIN}/privacy#action-interest-v1`);
    const page = await (await call(url.pathname)).text();
    expect(elementIds(page)).toContain(url.hash.slice(1));
  });
});

describe("agent documents", () => {
  it("/llms.txt opens with an H1, a summary, and links to the docs, OpenAPI, MCP, descriptor and privacy", async () => {
    const response = await fetchOk("/llms.txt", /^text\/plain; charset=utf-8$/);
    expect(response.headers.get("cache-control")).toBe(CACHED);
    const text = await response.text();
    expect(text.split("\n")[0]).toBe("# Agent Readiness Search");
    expect(readLlmsTitle(text)).toEqual({ title: "Agent Readiness Search" });
    expect(text).toMatch(/^> .+AI agents/m);
    for (const url of [links.docs, links.openApi, links.mcp, links.descriptor, links.privacy]) {
      expect(text).toMatch(new RegExp(`^- \\[[^\\]]+\\]\\(${url.replace(/[.?*+^$()[\]\\/]/g, "\\$&")}\\)`, "m"));
    }
    expect(text).toContain(`- [GET /search](${ORIGIN}/api/v1/search): `);
  });

  it("/robots.txt names AI agents in their own group and sets Content Signals", async () => {
    const response = await fetchOk("/robots.txt", /^text\/plain; charset=utf-8$/);
    expect(response.headers.get("cache-control")).toBe(CACHED);
    const robots = parseRobotsTxt(await response.text());
    const aiGroup = robots.groups.find((group) => group.userAgents.includes("GPTBot"));
    for (const agent of ["GPTBot", "ClaudeBot", "Claude-User", "PerplexityBot", "Google-Extended", "CCBot"]) {
      expect(aiGroup?.userAgents).toContain(agent);
    }
    expect(aiGroup?.userAgents.every((agent) => matchAiUserAgent(agent) !== null)).toBe(true);
    expect(aiGroup?.rules).toContainEqual({ allow: true, path: "/" });
    expect(aiGroup?.rules).toContainEqual({ allow: true, path: "/api/v1/" });
    expect(aiGroup?.rules.filter((rule) => !rule.allow).map((rule) => rule.path)).toEqual(["/api/v1/provider/"]);
    expect(robots.contentSignals[0]).toEqual({ search: "yes", "ai-input": "yes", "ai-train": "no" });
  });

  it("/.well-known/ai-plugin.json has every required field and points at the OpenAPI document", async () => {
    const response = await fetchOk("/.well-known/ai-plugin.json", /^application\/json/);
    expect(response.headers.get("cache-control")).toBe(CACHED);
    const text = await response.text();
    const manifest = JSON.parse(text) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      schema_version: "v1",
      name_for_human: "Agent Readiness Search",
      name_for_model: expect.stringMatching(/^[a-z0-9_]{1,50}$/),
      description_for_human: expect.any(String),
      description_for_model: expect.any(String),
      auth: { type: "none" },
      api: { type: "openapi", url: `${ORIGIN}/openapi.json` },
      logo_url: links.favicon,
      // The configured sender's address (MAIL_FROM of the test stack), never one made from the host.
      contact_email: "mail@svc.test",
      legal_info_url: `${ORIGIN}/privacy`,
    });
    expect(readAiPluginManifest(text, links.aiPlugin)?.problems).toEqual([]);
  });

  it("/.well-known/api-catalog is an RFC 9727 linkset anchored at the API, with service-desc, -doc and -meta", async () => {
    const response = await fetchOk("/.well-known/api-catalog", /^application\/linkset\+json/);
    expect(response.headers.get("content-type")).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    expect(response.headers.get("cache-control")).toBe(CACHED);
    expect(await response.json()).toEqual({
      linkset: [
        {
          anchor: `${ORIGIN}/api/v1/`,
          "service-desc": [{ href: `${ORIGIN}/openapi.json`, type: "application/openapi+json" }],
          "service-doc": [{ href: `${ORIGIN}/docs`, type: "text/html" }],
          "service-meta": [{ href: `${ORIGIN}/api/v1/`, type: "application/json" }],
        },
      ],
    });
  });

  it("answers HEAD on the API catalog with its api-catalog Link and no body", async () => {
    const response = await call("/.well-known/api-catalog", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("link")).toBe(`<${ORIGIN}/.well-known/api-catalog>; rel="api-catalog"`);
    expect(await response.text()).toBe("");
  });

  it("/.well-known/mcp-registry-auth is the MCP Registry namespace proof of the configured key", async () => {
    const response = await fetchOk("/.well-known/mcp-registry-auth", /^text\/plain/);
    expect(response.headers.get("cache-control")).toBe(CACHED);
    const text = await response.text();
    expect(text).toBe(`v=MCPv1; k=ed25519; p=${TEST_MCP_REGISTRY_PUBLIC_KEY}\n`);
    expect(readMcpRegistryAuth(text).keys).toEqual([
      { algorithm: "ed25519", key: TEST_MCP_REGISTRY_PUBLIC_KEY, problem: null },
    ]);
  });

  it("/.well-known/mcp.json names the MCP endpoint with the Streamable HTTP transport", async () => {
    const response = await fetchOk("/.well-known/mcp.json", /^application\/json/);
    expect(response.headers.get("cache-control")).toBe(CACHED);
    const document = (await response.json()) as Record<string, unknown>;
    expect(document).toMatchObject({
      name: "Agent Readiness Search",
      version: "1.1.0",
      description: expect.any(String),
      transport: "streamable-http",
    });
    expect(findDiscoveredEndpoint(document, links.mcpDiscovery)).toBe(`${ORIGIN}/mcp`);
  });
});

describe("the service's own discovery documents", () => {
  it.each(["/.well-known/ard.json", "/.well-known/ai-catalog.json"])(
    "%s is the ARD v0.91 manifest naming the MCP server card, the OpenAPI document and the registry",
    async (path) => {
      const response = await fetchOk(path, /^application\/ai-catalog\+json$/);
      expect(response.headers.get("cache-control")).toBe(CACHED);
      const manifest = (await response.json()) as {
        specVersion: string;
        entries: Record<string, unknown>[];
      };
      expect(manifest.specVersion).toBe("0.91");
      const read = readAiCatalogDocument(manifest, `${ORIGIN}${path}`);
      expect("entries" in read && read.entries.map((entry) => [entry.kind, entry.url])).toEqual([
        ["mcp-server-card", `${ORIGIN}/mcp/server-card`],
        ["openapi", `${ORIGIN}/openapi.json`],
        [expect.any(String), `${ORIGIN}/ard/v1`],
      ]);
      for (const entry of manifest.entries) {
        expect(entry.identifier).toMatch(/^urn:air:svc\.test:[a-z]+:[a-z-]+$/);
        expect(entry.displayName).toEqual(expect.any(String));
        const queries = entry.representativeQueries as string[];
        expect(queries.length).toBeGreaterThanOrEqual(2);
        expect(queries.length).toBeLessThanOrEqual(5);
      }
      expect(manifest.entries.map((entry) => entry.type)).toEqual([
        "application/mcp-server-card+json",
        "application/openapi+json",
        "application/ai-registry+json",
      ]);
    },
  );

  it("/mcp/server-card is a SEP-2127 card naming the live endpoint, listing no tools", async () => {
    const response = await fetchOk("/mcp/server-card", /^application\/json/);
    const card = (await response.json()) as Record<string, unknown>;
    expect(card.$schema).toMatch(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/.*server-card\.schema\.json$/);
    expect(card.tools).toBeUndefined();
    expect(readServerCard(card, `${ORIGIN}/mcp/server-card`)).toMatchObject({
      shape: "sep-2127",
      name: "test.svc/agent-readiness-search",
      endpoints: [`${ORIGIN}/mcp`],
    });
  });

  it("/robots.txt names the sitemap and the ARD manifest, and states AIPREF Content-Usage", async () => {
    const body = await (await fetchOk("/robots.txt", /^text\/plain/)).text();
    expect(body).toContain(`\nSitemap: ${ORIGIN}/sitemap.xml\n`);
    expect(body).toContain(`\nAgentmap: ${ORIGIN}/.well-known/ard.json\n`);
    const usage = /^Content-Usage: (.*)$/m.exec(body)?.[1] ?? "";
    expect(readContentUsage(usage)).toEqual({
      pairs: [
        ["train-ai", "n"],
        ["search", "y"],
      ],
    });
  });

  it("/sitemap.xml lists the service's pages, each of which answers 200", async () => {
    const body = await (await fetchOk("/sitemap.xml", /^application\/xml/)).text();
    expect(readSitemap(body)).toMatchObject({ kind: "urlset" });
    const urls = [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
    expect(urls).toEqual(
      expect.arrayContaining([`${ORIGIN}/`, `${ORIGIN}/check`, `${ORIGIN}/docs`, `${ORIGIN}/privacy`]),
    );
    for (const url of urls) expect((await call(url.slice(ORIGIN.length))).status, url).toBe(200);
  });
});

describe("beside the web root", () => {
  it("leaves the health route, the descriptor at /api/v1 and /api/v1/, and the not-found answer as they were", async () => {
    const health = await call("/healthz");
    expect(health.status).toBe(200);
    expect(health.headers.get("content-type")).toMatch(/^application\/json/);

    for (const path of ["/api/v1/", "/api/v1"]) {
      const descriptor = await call(path);
      expect(descriptor.status).toBe(200);
      expect(descriptor.headers.get("content-type")).toMatch(/^application\/json/);
      expect(((await descriptor.json()) as { base_url: string }).base_url).toBe(`${ORIGIN}/api/v1`);
    }

    await expectProblem(await call("/no-such-page"), 404, "NOT_FOUND");
    await expectProblem(await call("/.well-known/no-such-document"), 404, "NOT_FOUND");
  });
});
