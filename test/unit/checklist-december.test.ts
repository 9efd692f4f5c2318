/**
 * The December 2026 cases of the checklist (shared/agent-web-2026.md, "What changed since
 * November"), each on more than one hand-made site built from documents (no network): ARD at
 * both paths, identifiers and publisher binding, entries that serve what they declare, undecided
 * linked resources (error, never fail), SEP-2127 cards of local servers and the enumerating shape,
 * skill files outside /.well-known/agent-skills/, RFC 9728 path-suffixed metadata, Client ID
 * Metadata Documents, WebMCP's document.modelContext, and reasons that do not repeat themselves.
 */
import { describe, expect, it } from "vitest";
import type { ChecklistAnswers } from "../../src/domain/checklist/checklist-answers.ts";
import type { CheckId, CheckResult } from "../../src/domain/checklist/checklist-definition.ts";
import { CHECKLIST_REQUESTS, followUpUrls } from "../../src/domain/checklist/checklist-requests.ts";
import { judgeChecklist } from "../../src/domain/checklist/run-checklist.ts";
import type { ProbeResponse, SignalFinding } from "../../src/domain/signals/types.ts";
import { answersFor, type Served } from "../support/checklist-answers.ts";

const ORIGIN = "https://shop.acme.test";
const JSON_TYPE = "application/json";
const CATALOG_TYPE = "application/ai-catalog+json";

const json = (value: unknown, type = JSON_TYPE): Served => ({ body: JSON.stringify(value), type });

/** A failed fetch (network, resolver, timeout) of `url`. */
function failed(url: string, failure: "network" | "timeout" = "network"): ProbeResponse {
  return { ok: false, url, finalUrl: url, redirects: [], failure, message: `${failure} failure` };
}

/** An answer on another origin than the site's. */
function elsewhere(url: string, status: number, served?: Served): ProbeResponse {
  return {
    ok: true,
    url,
    finalUrl: url,
    redirects: [],
    status,
    headers: new Headers({ "content-type": served?.type ?? "text/plain" }),
    contentType: (served?.type ?? "text/plain").split(";")[0]!,
    body: served?.body ?? "",
  };
}

async function check(answers: ChecklistAnswers, id: CheckId): Promise<CheckResult> {
  const { checks } = await judgeChecklist(answers, null);
  return checks.find((each) => each.id === id)!;
}

const card = {
  $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server-card.schema.json",
  name: "test.acme/search",
  version: "1.0.0",
  description: "Search the catalogue",
  remotes: [{ type: "streamable-http", url: `${ORIGIN}/mcp` }],
};

function manifest(entries: unknown[], extra: Record<string, unknown> = {}) {
  return { specVersion: "1.0", host: { displayName: "Acme", identifier: "acme.test" }, entries, ...extra };
}

const cardEntry = (identifier = "urn:air:acme.test:mcp:search", url = `${ORIGIN}/mcp/server-card`) => ({
  identifier,
  displayName: "Acme search",
  type: "application/mcp-server-card+json",
  url,
});

describe("ARD (ai_catalog)", () => {
  it.each([
    ["/.well-known/ard.json", "pass"],
    ["/.well-known/ai-catalog.json", "warn"],
  ])("a valid manifest at %s only is %s", async (path, status) => {
    for (const origin of [ORIGIN, "https://www.acme.test"]) {
      const answers = answersFor(origin, {
        [path]: json(manifest([cardEntry()]), CATALOG_TYPE),
        "/mcp/server-card": json({ ...card, remotes: [{ type: "streamable-http", url: `${origin}/mcp` }] }),
      });
      // The entry's url is on shop.acme.test; for www.acme.test it is a sibling of the same publisher.
      if (origin !== ORIGIN)
        answers.get.set(`${ORIGIN}/mcp/server-card`, elsewhere(`${ORIGIN}/mcp/server-card`, 200, json(card)));
      const result = await check(answers, "ai_catalog");
      expect(result.status, result.reason).toBe(status);
      if (status === "warn") expect(result.reason).toMatch(/older path/);
    }
  });

  it("prefers /.well-known/ard.json when both paths serve a manifest", async () => {
    const answers = answersFor(ORIGIN, {
      "/.well-known/ard.json": json(manifest([cardEntry()]), CATALOG_TYPE),
      "/.well-known/ai-catalog.json": json({ entries: "broken" }),
      "/mcp/server-card": json(card),
    });
    expect((await check(answers, "ai_catalog")).status).toBe("pass");
  });

  it("warns on identifiers of the urn:ai: form only, and fails on a publisher that is not the site", async () => {
    const old = answersFor(ORIGIN, {
      "/.well-known/ard.json": json(manifest([cardEntry("urn:ai:acme.test:mcp:search")]), CATALOG_TYPE),
      "/mcp/server-card": json(card),
    });
    const oldResult = await check(old, "ai_catalog");
    expect(oldResult.status).toBe("warn");
    expect(oldResult.reason).toMatch(/urn:ai:/);
    for (const publisher of ["google.com", "acme.test.evil.example"]) {
      const foreign = answersFor(ORIGIN, {
        "/.well-known/ard.json": json(manifest([cardEntry(`urn:air:${publisher}:mcp:search`)]), CATALOG_TYPE),
        "/mcp/server-card": json(card),
      });
      const result = await check(foreign, "ai_catalog");
      expect(result.status, publisher).toBe("fail");
      expect(result.reason).toContain(publisher);
    }
  });

  it("fails when the entries do not serve the type they declare, whatever the kind of site", async () => {
    for (const served of [
      json({ hello: "not a card" }),
      { body: "<!doctype html><title>x</title>", type: "text/html" },
    ]) {
      const answers = answersFor(ORIGIN, {
        "/.well-known/ard.json": json(manifest([cardEntry()]), CATALOG_TYPE),
        "/mcp/server-card": served,
      });
      const result = await check(answers, "ai_catalog");
      expect(result.status).toBe("fail");
      expect(result.reason).toMatch(/declare/);
    }
  });

  it("a broken manifest fails on a content site too (never neutral)", async () => {
    for (const document of [{ specVersion: "1.0", capabilities: [] }, manifest([{ displayName: "no id" }])]) {
      const answers = answersFor(ORIGIN, { "/.well-known/ard.json": json(document) });
      const { checks, summary } = await judgeChecklist(answers, null);
      expect(summary.site_kind).toBe("content");
      expect(checks.find((each) => each.id === "ai_catalog")!.status).toBe("fail");
    }
  });

  it("undecided is not absent: an entry that could not be fetched is error, a 404 is fail", async () => {
    const entryUrl = "https://cards.acme.test/search.json";
    for (const response of [failed(entryUrl), failed(entryUrl, "timeout"), elsewhere(entryUrl, 503)]) {
      const answers = answersFor(ORIGIN, {
        "/.well-known/ard.json": json(manifest([cardEntry(undefined, entryUrl)]), CATALOG_TYPE),
      });
      answers.get.set(entryUrl, response);
      expect((await check(answers, "ai_catalog")).status).toBe("error");
    }
    for (const status of [404, 410, 501]) {
      const answers = answersFor(ORIGIN, {
        "/.well-known/ard.json": json(manifest([cardEntry(undefined, entryUrl)]), CATALOG_TYPE),
      });
      answers.get.set(entryUrl, elsewhere(entryUrl, status));
      expect((await check(answers, "ai_catalog")).status, String(status)).toBe("fail");
    }
  });
});

describe("SEP-2127 server cards (mcp_server_card)", () => {
  const local = (name: string, packages: unknown[]) => ({
    $schema: card.$schema,
    name,
    version: "1.2.0",
    description: "Runs locally",
    packages,
  });

  it.each([
    ["an npm package", [{ registryType: "npm", identifier: "@acme/search-mcp", transport: { type: "stdio" } }]],
    ["a PyPI package", [{ registryType: "pypi", identifier: "acme-search-mcp", transport: { type: "stdio" } }]],
  ])("a local server's card (%s, no remotes) passes", async (_what, packages) => {
    const answers = answersFor(ORIGIN, {
      "/.well-known/mcp/server-card.json": json(local("test.acme/search", packages)),
    });
    const result = await check(answers, "mcp_server_card");
    expect(result.status, result.reason).toBe("pass");
    expect(result.reason).toMatch(/local server/);
  });

  it("a card that enumerates tools is the older shape (warn) beside a live server", async () => {
    const live: SignalFinding = {
      status: "present",
      reason: "An MCP server answered.",
      fetched: [],
      details: { endpoint: `${ORIGIN}/mcp` },
    };
    for (const key of ["tools", "prompts"]) {
      const answers = answersFor(
        ORIGIN,
        { "/.well-known/mcp/server-card.json": json({ ...card, [key]: [{ name: "search" }] }) },
        { has_mcp_server: live },
      );
      const result = await check(answers, "mcp_server_card");
      expect(result.status, result.reason).toBe("warn");
      expect(result.reason).toMatch(/enumerating/);
    }
  });
});

describe("Agent Skills (agent_skills)", () => {
  const skill = "---\nname: find\ndescription: Finds things.\n---\n\n# Find\n";

  it.each(["/skills/find/SKILL.md", "/docs/agents/find.md"])(
    "a SKILL.md served 200 at %s, outside /.well-known/agent-skills/, passes",
    async (path) => {
      const { createHash } = await import("node:crypto");
      const digest = `sha256:${createHash("sha256").update(skill).digest("hex")}`;
      const answers = answersFor(ORIGIN, {
        "/.well-known/agent-skills/index.json": json({
          $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
          skills: [{ name: "find", type: "skill-md", description: "Finds.", url: path, digest }],
        }),
        [path]: { body: skill, type: "text/markdown" },
      });
      const result = await check(answers, "agent_skills");
      expect(result.status, result.reason).toBe("pass");
    },
  );

  it("a skill file that could not be fetched is error; one that answers 404 is fail", async () => {
    const url = "https://skills.acme.test/find/SKILL.md";
    const index = json({
      skills: [{ name: "find", type: "skill-md", description: "Finds.", url, digest: `sha256:${"ab".repeat(32)}` }],
    });
    const undecided = answersFor(ORIGIN, { "/.well-known/agent-skills/index.json": index });
    undecided.get.set(url, failed(url));
    expect((await check(undecided, "agent_skills")).status).toBe("error");
    const gone = answersFor(ORIGIN, { "/.well-known/agent-skills/index.json": index });
    gone.get.set(url, elsewhere(url, 404));
    expect((await check(gone, "agent_skills")).status).toBe("fail");
  });
});

describe("OAuth (RFC 9728 path-suffixed metadata, Client ID Metadata Documents)", () => {
  const gated = (endpoint: string): SignalFinding => ({
    status: "present",
    reason: "An OAuth-protected MCP server.",
    fetched: [],
    details: { endpoint, outcome: "gated" },
  });
  const server = (extra: Record<string, unknown>) =>
    json({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/authorize`,
      token_endpoint: `${ORIGIN}/token`,
      response_types_supported: ["code"],
      ...extra,
    });

  it.each(["/mcp", "/v1/mcp"])(
    "reads /.well-known/oauth-protected-resource%s, where the MCP SDKs publish it",
    async (path) => {
      const answers = answersFor(
        ORIGIN,
        {
          [`/.well-known/oauth-protected-resource${path}`]: json({
            resource: `${ORIGIN}${path}`,
            authorization_servers: [ORIGIN],
          }),
          "/.well-known/oauth-authorization-server": server({ client_id_metadata_document_supported: true }),
        },
        { has_mcp_server: gated(`${ORIGIN}${path}`) },
      );
      const result = await check(answers, "oauth_protected_resource");
      expect(result.status, result.reason).toBe("pass");
      expect(result.reason).toContain(`/.well-known/oauth-protected-resource${path}`);
    },
  );

  it("reads the metadata the 401's resource_metadata names before the path-suffixed and root ones", async () => {
    const named = `${ORIGIN}/.well-known/oauth-protected-resource/tenants/acme/mcp`;
    const as = "https://login.acme.test";
    const answers = answersFor(
      ORIGIN,
      {
        "/.well-known/oauth-protected-resource/tenants/acme/mcp": json({
          resource: `${ORIGIN}/mcp`,
          authorization_servers: [as],
        }),
        // The root's names another resource: it would fail if it were read first.
        "/.well-known/oauth-protected-resource": json({ resource: "https://other.test", authorization_servers: [as] }),
      },
      {
        has_mcp_server: { ...gated(`${ORIGIN}/mcp`), details: { endpoint: `${ORIGIN}/mcp`, resource_metadata: named } },
      },
    );
    // The authorization server is an OpenID Provider: both of its metadata paths are asked at once.
    const followUps = followUpUrls(CHECKLIST_REQUESTS, answers);
    expect(followUps).toEqual(
      expect.arrayContaining([
        `${as}/.well-known/oauth-authorization-server`,
        `${as}/.well-known/openid-configuration`,
      ]),
    );
    answers.get.set(
      `${as}/.well-known/oauth-authorization-server`,
      elsewhere(`${as}/.well-known/oauth-authorization-server`, 404),
    );
    answers.get.set(
      `${as}/.well-known/openid-configuration`,
      elsewhere(
        `${as}/.well-known/openid-configuration`,
        200,
        json({ issuer: as, authorization_endpoint: `${as}/auth` }),
      ),
    );
    const result = await check(answers, "oauth_protected_resource");
    expect(result.status, result.reason).toBe("pass");
    expect(result.reason).toContain("named by the MCP endpoint's 401 (resource_metadata)");
  });

  it("an authorization server that could not be reached is error, not fail", async () => {
    const as = "https://login.acme.test";
    const answers = answersFor(ORIGIN, {
      "/.well-known/oauth-protected-resource": json({ resource: ORIGIN, authorization_servers: [as] }),
    });
    answers.get.set(
      `${as}/.well-known/oauth-authorization-server`,
      failed(`${as}/.well-known/oauth-authorization-server`),
    );
    answers.get.set(`${as}/.well-known/openid-configuration`, elsewhere(`${as}/.well-known/openid-configuration`, 503));
    expect((await check(answers, "oauth_protected_resource")).status).toBe("error");
  });

  it("says whether Client ID Metadata Documents are supported; warns when only dynamic registration is", async () => {
    const cimd = await check(
      answersFor(ORIGIN, {
        "/.well-known/oauth-authorization-server": server({ client_id_metadata_document_supported: true }),
      }),
      "oauth_authorization_server",
    );
    expect(cimd.status).toBe("pass");
    expect(cimd.reason).toMatch(/supports Client ID Metadata Documents/);
    for (const extra of [
      { registration_endpoint: `${ORIGIN}/register` },
      { registration_endpoint: `${ORIGIN}/register`, client_id_metadata_document_supported: false },
    ]) {
      const dynamic = await check(
        answersFor(ORIGIN, { "/.well-known/oauth-authorization-server": server(extra) }),
        "oauth_authorization_server",
      );
      expect(dynamic.status).toBe("warn");
      expect(dynamic.reason).toMatch(/only dynamic client registration/);
    }
  });
});

describe("WebMCP (document.modelContext)", () => {
  const page = (script: string): Served => ({
    body: `<!doctype html><html><head><title>Shop</title></head><body><script>${script}</script></body></html>`,
    type: "text/html; charset=utf-8",
  });

  it.each([
    "document.modelContext.registerTool({ name: 'search', execute: async () => ({}) });",
    "if ('modelContext' in document) { document.modelContext.registerTool(tool); }",
  ])("an inline script calling document.modelContext.registerTool() passes", async (script) => {
    const result = await check(answersFor(ORIGIN, { "/": page(script) }), "webmcp");
    expect(result.status, result.reason).toBe("pass");
  });

  it("navigator.modelContext (removed in July 2026) warns and the fix names the current form", async () => {
    const result = await check(
      answersFor(ORIGIN, { "/": page("navigator.modelContext.provideContext({ tools })") }),
      "webmcp",
    );
    expect(result.status).toBe("warn");
    expect(result.fix).toContain("document.modelContext.registerTool()");
  });
});

describe("reasons never repeat themselves", () => {
  it.each([
    "User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Signal: search=yes, ai-train=no\nAllow: /\n",
    "User-agent: *\nContent-Signal: ai-train=no\n\nUser-agent: GPTBot\nContent-Signal: ai-train=no\nDisallow: /\n",
  ])("content signals repeated on several lines are named once", async (robots) => {
    const result = await check(
      answersFor(ORIGIN, { "/robots.txt": { body: robots, type: "text/plain" } }),
      "content_signals",
    );
    expect(result.status).toBe("pass");
    expect(result.reason.match(/ai-train=no/g)).toHaveLength(1);
  });
});

describe("AP2 (ap2)", () => {
  const agentCard = (extensions: unknown[]) =>
    json({
      name: "Acme shop agent",
      description: "Sells things",
      version: "1.0.0",
      supportedInterfaces: [{ url: `${ORIGIN}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      capabilities: { extensions },
      skills: [],
    });
  const ap2 = (roles: unknown) => ({
    uri: "https://github.com/google-agentic-commerce/ap2/tree/v0.1",
    required: true,
    params: { roles },
  });

  it.each([[["merchant"]], [["shopper", "payment-processor"]]])(
    "an agent card declaring AP2 as %j passes",
    async (roles) => {
      const result = await check(
        answersFor(ORIGIN, { "/.well-known/agent-card.json": agentCard([ap2(roles)]) }),
        "ap2",
      );
      expect(result.status, result.reason).toBe("pass");
      expect(result.category).toBe("commerce");
    },
  );

  it("fails without a role, warns on roles AP2 does not define, is absent without the extension", async () => {
    expect(
      (await check(answersFor(ORIGIN, { "/.well-known/agent-card.json": agentCard([ap2([])]) }), "ap2")).status,
    ).toBe("fail");
    expect(
      (
        await check(
          answersFor(ORIGIN, { "/.well-known/agent-card.json": agentCard([ap2(["merchant", "banker"])]) }),
          "ap2",
        )
      ).status,
    ).toBe("warn");
    const other = await check(
      answersFor(ORIGIN, { "/.well-known/agent-card.json": agentCard([{ uri: "https://example.org/ext/other" }]) }),
      "ap2",
    );
    expect(other.status).toBe("neutral");
  });
});
