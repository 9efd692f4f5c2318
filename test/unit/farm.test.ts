/**
 * The real-implementation farm (test/fixtures/farm/farm.ts): the probe and the whole crawl, the
 * checklist included, against sites built with the standards' own libraries.
 */
import { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capabilitiesTextOf } from "../../src/domain/capabilities/site-capabilities.ts";
import { createConcurrencyLimiter } from "../../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite, type SiteCrawl } from "../../src/domain/crawling/crawl-site.ts";
import { detectMcpServer } from "../../src/domain/signals/detect-mcp-server.ts";
import { probeMcpEndpoint } from "../../src/domain/signals/mcp-probe.ts";
import type { SiteFetcher } from "../../src/domain/signals/types.ts";
import type { SignalField } from "../../src/domain/sites/site-fields.ts";
import { FARM_SITE_NAMES, type Farm, type FarmSiteName, startFarm } from "../fixtures/farm/farm.ts";
import { createPlainFetcher } from "../support/plain-fetcher.ts";

let farm: Farm;

beforeAll(async () => {
  farm = await startFarm();
}, 30_000);

afterAll(async () => {
  await farm?.stop();
});

/** The plain fetcher, counting what reached each farm site. */
function countingFetcher(): { fetch: SiteFetcher; count: () => number } {
  const plain = createPlainFetcher();
  let made = 0;
  return {
    fetch: (url, request) => {
      made++;
      return plain(url, request);
    },
    count: () => made,
  };
}

describe("probeMcpEndpoint on the farm: both eras", () => {
  it("completes a 2026-07-28 exchange with the SDK v2 modern-only server, which refuses initialize", async () => {
    const endpoint = `${farm.origins["sdk2-modern"]}/mcp`;
    const result = await probeMcpEndpoint(createPlainFetcher(), endpoint);
    expect(result).toMatchObject({
      verified: true,
      outcome: "compliant",
      era: "2026-07-28",
      protocolVersion: "2026-07-28",
      serverName: "modern-tools",
      toolCount: 2,
    });
    expect(result.note).toContain("2026-07-28 era (server/discover, tools/list)");
    // Two requests, no initialize: the modern server would answer it -32022.
    expect(result.fetched.map((record) => record.status)).toEqual([200, 200]);
    const refused = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect((await refused.json()) as unknown).toMatchObject({ error: { code: -32022 } });
  });

  it("speaks the 2026-07-28 era first to the SDK v2 dual-era server", async () => {
    const result = await probeMcpEndpoint(createPlainFetcher(), `${farm.origins["sdk2-dual"]}/mcp`);
    expect(result).toMatchObject({ verified: true, era: "2026-07-28", serverName: "dual-tools", toolCount: 2 });
  });

  it("falls back to the 2025 handshake for SDK v1 and @hono/mcp servers", async () => {
    for (const [name, serverName] of [
      ["sdk1-stateful", "tally-desk"],
      ["hono-mcp", "hono-tools"],
    ] as const) {
      const result = await probeMcpEndpoint(createPlainFetcher(), `${farm.origins[name]}/mcp`);
      expect(result, name).toMatchObject({ verified: true, era: "2025", serverName, toolCount: 2 });
      expect(result.note, name).toContain("in the 2025 era (initialize");
      // SDK v1 refuses the unknown revision with 400, @hono/mcp with 404; both carry a JSON-RPC error body,
      // which is what tells a 2025 server from a URL that takes no POST.
      expect([400, 404], name).toContain(result.fetched[0]!.status);
    }
  });

  it("keeps the OAuth-gated server gated, with its path-suffixed resource metadata, without a fallback", async () => {
    const origin = farm.origins["oauth-gated"];
    const result = await probeMcpEndpoint(createPlainFetcher(), `${origin}/mcp`);
    expect(result).toMatchObject({
      verified: false,
      outcome: "gated",
      gate: { status: 401, bearer: true, resourceMetadata: `${origin}/.well-known/oauth-protected-resource/mcp` },
    });
    expect(result.fetched).toHaveLength(1);
  });

  it("takes Python's 501 to a POST, the SPA's app shell and a 404 as answers: no MCP server", async () => {
    for (const name of ["static-python", "spa", "cloudflare-robots"] as const) {
      const result = await probeMcpEndpoint(createPlainFetcher(), `${farm.origins[name]}/mcp`, {
        diagnoseNotFound: false,
      });
      expect(result.outcome, name).toBe("not_mcp");
      const finding = await detectMcpServer({ origin: farm.origins[name], fetch: createPlainFetcher() });
      expect(finding.status, name).toBe("absent");
    }
  });

  it("the modern-only fixture is genuine: the SDK v2 client connects with auto negotiation", async () => {
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
    const client = new Client({ name: "farm-test", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${farm.origins["sdk2-modern"]}/mcp`)));
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(["add", "echo"]);
    await client.close();
  });
});

/** Every signal's status the crawl must report on each farm site. */
const FARM_SIGNALS: Record<FarmSiteName, Partial<Record<SignalField, string>>> = {
  "sdk2-modern": { has_mcp_server: "present", has_structured_api: "absent" },
  "sdk2-dual": { has_mcp_server: "present" },
  "sdk1-stateful": { has_mcp_server: "present" },
  "hono-mcp": { has_mcp_server: "present" },
  "oauth-gated": { has_mcp_server: "present" },
  "oidc-as": { has_mcp_server: "absent" },
  "a2a-agent": { has_mcp_server: "absent" },
  "fastify-swagger": { has_mcp_server: "absent", has_openapi: "present", has_structured_api: "present" },
  spa: {
    has_mcp_server: "absent",
    has_structured_api: "absent",
    has_llms_txt: "absent",
    has_openapi: "absent",
    has_ai_plugin: "absent",
  },
  "cloudflare-robots": { has_mcp_server: "absent", has_robots_ai: "present" },
  "static-python": { has_mcp_server: "absent", has_structured_api: "absent" },
  "x402-store": { has_mcp_server: "absent", has_openapi: "present", has_schema_org: "present" },
  "mpp-store": { has_mcp_server: "absent", has_schema_org: "present" },
  "a2a-signed": { has_mcp_server: "absent" },
};

describe("the crawl on the farm, with the full checklist", () => {
  const crawls = new Map<FarmSiteName, { crawl: SiteCrawl; reached: number }>();

  beforeAll(async () => {
    // One after another, as a lone check runs: a crawl's own requests are what is measured.
    for (const name of FARM_SITE_NAMES) {
      const { fetch, count } = countingFetcher();
      const crawl = await crawlSite({
        origin: farm.origins[name],
        fetcher: fetch,
        limiter: createConcurrencyLimiter(6),
      });
      crawls.set(name, { crawl, reached: count() });
    }
  }, 120_000);

  for (const name of FARM_SITE_NAMES) {
    it(`${name}: every signal as built, and no check left unfetched`, () => {
      const { crawl } = crawls.get(name)!;
      expect(crawl.crawlStatus).toBe("success");
      for (const [field, status] of Object.entries(FARM_SIGNALS[name])) {
        expect(
          crawl.signals[field as SignalField].status,
          `${name} ${field}: ${crawl.signals[field as SignalField].reason}`,
        ).toBe(status);
      }
      const unfetched = (crawl.checklist?.checks ?? []).filter((check) => /budget/i.test(check.reason));
      expect(unfetched.map((check) => `${check.id}: ${check.reason}`)).toEqual([]);
    });
  }

  it("reads RFC 9728 metadata where the 401 points (path-suffixed), and the OpenID Provider it names", () => {
    const checks = (name: FarmSiteName) => new Map(crawls.get(name)!.crawl.checklist!.checks.map((c) => [c.id, c]));
    const gated = checks("oauth-gated");
    const resource = gated.get("oauth_protected_resource")!;
    expect(resource.status, resource.reason).toBe("pass");
    expect(resource.reason).toContain("/.well-known/oauth-protected-resource/mcp");
    expect(resource.reason).toContain("named by the MCP endpoint's 401");
    expect(resource.evidence.map((record) => record.url)).toContain(
      `${farm.origins["oidc-as"]}/.well-known/openid-configuration`,
    );
    expect(crawls.get("oauth-gated")!.crawl.signals.has_mcp_server.details).toMatchObject({
      resource_metadata: `${farm.origins["oauth-gated"]}/.well-known/oauth-protected-resource/mcp`,
    });
    const server = checks("oidc-as").get("oauth_authorization_server")!;
    expect(server.status, server.reason).toBe("pass");
    expect(server.reason).toContain("does not say it supports Client ID Metadata Documents");
  });

  it("reads the 402 of real payment servers without paying: x402 (@x402/core) and MPP (mppx)", () => {
    const checks = (name: FarmSiteName) => new Map(crawls.get(name)!.crawl.checklist!.checks.map((c) => [c.id, c]));
    const x402 = checks("x402-store");
    expect(crawls.get("x402-store")!.crawl.checklist!.summary.site_kind).toBe("store");
    expect(x402.get("x402")!.status, x402.get("x402")!.reason).toBe("pass");
    expect(x402.get("x402")!.reason).toContain("x402 v2 payment requirement in its PAYMENT-REQUIRED header");
    expect(x402.get("x402")!.reason).toContain("GET /weather, 402 response");
    expect(x402.get("mpp")!.status, x402.get("mpp")!.reason).toBe("fail");
    const mpp = checks("mpp-store");
    expect(mpp.get("mpp")!.status, mpp.get("mpp")!.reason).toBe("pass");
    expect(mpp.get("mpp")!.reason).toContain("tempo charge");
    expect(mpp.get("x402")!.status, mpp.get("x402")!.reason).toBe("fail");
    for (const site of ["x402-store", "mpp-store"] as const) {
      for (const id of ["ucp", "acp"] as const) expect(checks(site).get(id)!.status, `${site} ${id}`).toBe("fail");
    }
    // A content site names no paid endpoint: neutral, not fail.
    expect(checks("cloudflare-robots").get("x402")!.status).toBe("neutral");
  });

  it("verifies the A2A JS SDK's signed 1.0 card against the key at its jku", () => {
    const card = crawls.get("a2a-signed")!.crawl.checklist!.checks.find((c) => c.id === "a2a_agent_card")!;
    expect(card.status, card.reason).toBe("pass");
    expect(card.reason).toContain("the signature (kid courier-key) verifies over the canonical card");
    expect(card.evidence.map((record) => record.url)).toContain(`${farm.origins["a2a-signed"]}/.well-known/jwks.json`);
  });

  it("records the era in the MCP evidence", () => {
    expect(crawls.get("sdk2-modern")!.crawl.signals.has_mcp_server.details).toMatchObject({ era: "2026-07-28" });
    expect(crawls.get("sdk1-stateful")!.crawl.signals.has_mcp_server.details).toMatchObject({ era: "2025" });
    expect(crawls.get("sdk2-modern")!.crawl.signals.has_mcp_server.reason).toContain("2026-07-28 era");
  });

  it("keeps what each site's own documents say it does: live tools/list in both eras, A2A skills, OpenAPI operations", () => {
    const textOf = (name: FarmSiteName) => capabilitiesTextOf(crawls.get(name)!.crawl.capabilities);
    const tools = "add: Adds two numbers.\necho: Returns the text given.";
    expect(textOf("sdk2-modern")).toBe(tools);
    expect(textOf("sdk1-stateful")).toBe(tools);
    expect(crawls.get("sdk2-modern")!.crawl.capabilities).toEqual([
      {
        source: "mcp",
        items: [
          { name: "add", description: "Adds two numbers." },
          { name: "echo", description: "Returns the text given." },
        ],
      },
    ]);
    expect(textOf("a2a-agent")).toBe("Plan a trip: Plans a train trip. travel");
    expect(textOf("fastify-swagger")).toBe("books\nlistBooks: List the books on loan");
    // A gated server's tools are not known; an app shell served for every path names nothing.
    expect(crawls.get("oauth-gated")!.crawl.capabilities).toBeNull();
    expect(crawls.get("spa")!.crawl.capabilities).toBeNull();
  });

  it("counts requests per crawl as the crawl's own counter says", () => {
    const counts = FARM_SITE_NAMES.map((name) => {
      const { crawl, reached } = crawls.get(name)!;
      expect(reached).toBe(crawl.requestCount);
      return crawl.requestCount;
    });
    console.info(`farm requests per crawl: ${FARM_SITE_NAMES.map((name, i) => `${name}=${counts[i]}`).join(" ")}`);
  });
});
