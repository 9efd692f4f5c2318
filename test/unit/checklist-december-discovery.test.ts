/**
 * The December 2026 checks auth_md, dns_agent_discovery, mcp_registry_auth and nlweb
 * (shared/agent-web-2026.md, "New checks"), each case on more than one hand-made site built from
 * documents (no network): pass, warn where the check defines it, fail for a broken document,
 * neutral when absent and not asked for, error when undecided (a timeout, a 5xx, a resolver
 * failure). Undecided is not absent.
 */
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type AgentDnsAnswers,
  agentDnsQuestions,
  type ChecklistAnswers,
  dnsQuestionKey,
} from "../../src/domain/checklist/checklist-answers.ts";
import type { CheckId, CheckResult } from "../../src/domain/checklist/checklist-definition.ts";
import { CHECKLIST_REQUESTS, followUpUrls } from "../../src/domain/checklist/checklist-requests.ts";
import { agentDnsFollowUpUrls, agentDnsMcpEndpoints } from "../../src/domain/checklist/families/agent-dns.ts";
import { nlwebQuery } from "../../src/domain/checklist/families/nlweb.ts";
import { judgeChecklist } from "../../src/domain/checklist/run-checklist.ts";
import { readAidRecord, readSvcbRecord } from "../../src/domain/readers/agent-dns.ts";
import { readMcpRegistryAuth } from "../../src/domain/readers/mcp-registry-auth.ts";
import type { McpProbeResult } from "../../src/domain/signals/mcp-probe.ts";
import type { ProbeResponse, SignalFinding } from "../../src/domain/signals/types.ts";
import { answersFor, type Served } from "../support/checklist-answers.ts";

const ORIGINS = ["https://api.acme.test", "https://tools.example-shop.test"];
const json = (value: unknown, type = "application/json"): Served => ({ body: JSON.stringify(value), type });
const text = (body: string, type = "text/plain; charset=utf-8"): Served => ({ body, type });

async function check(answers: ChecklistAnswers, id: CheckId): Promise<CheckResult> {
  const { checks } = await judgeChecklist(answers, null);
  return checks.find((each) => each.id === id)!;
}

function failed(url: string, failure: "network" | "timeout" = "network"): ProbeResponse {
  return { ok: false, url, finalUrl: url, redirects: [], failure, message: `${failure} failure` };
}

function answer(url: string, status: number, served?: Served): ProbeResponse {
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

const MCP_PRESENT = (endpoint: string): SignalFinding => ({
  status: "present",
  reason: "An MCP server answered.",
  fetched: [],
  details: { endpoint },
});

/** The raw 32-byte public key of a fresh Ed25519 pair, base64: the MCP Registry's `p=` value. */
function ed25519Key(): string {
  const { publicKey } = generateKeyPairSync("ed25519");
  const x = publicKey.export({ format: "jwk" }).x!;
  return Buffer.from(x, "base64url").toString("base64");
}

describe("mcp_registry_auth", () => {
  it("passes for keys of the registry's format (generated as mcp-publisher does: raw Ed25519, base64)", async () => {
    for (const origin of ORIGINS) {
      const body = `v=MCPv1; k=ed25519; p=${ed25519Key()}\nv=MCPv1; k=ed25519; p=${ed25519Key()}\n`;
      const result = await check(
        answersFor(
          origin,
          { "/.well-known/mcp-registry-auth": text(body) },
          { has_mcp_server: MCP_PRESENT(`${origin}/mcp`) },
        ),
        "mcp_registry_auth",
      );
      expect(result.status, result.reason).toBe("pass");
      expect(result.reason).toMatch(/2 MCP Registry ed25519 public keys/);
    }
  });

  it("fails when no key parses, on any kind of site; warns when one of several does not", async () => {
    const short = Buffer.alloc(31, 7).toString("base64");
    for (const body of [
      `v=MCPv1; k=ed25519; p=${short}`,
      "v=MCPv1; k=ed25519; p=MCowBQYDK2VwAyEAja8L6VAIuWaXJLxDXBFfMCowBQYDK2VwAyEA",
      `v=MCPv1; k=rsa; p=${ed25519Key()}`,
      "just some text",
    ]) {
      const result = await check(
        answersFor(ORIGINS[0]!, { "/.well-known/mcp-registry-auth": text(body) }),
        "mcp_registry_auth",
      );
      expect(result.status, body).toBe("fail");
    }
    const mixed = `v=MCPv1; k=ed25519; p=${ed25519Key()}\nv=MCPv1; k=ed25519; p=${short}`;
    expect(
      (await check(answersFor(ORIGINS[1]!, { "/.well-known/mcp-registry-auth": text(mixed) }), "mcp_registry_auth"))
        .status,
    ).toBe("warn");
  });

  it("absent: neutral without an MCP server, fail with one", async () => {
    for (const origin of ORIGINS) {
      expect((await check(answersFor(origin, {}), "mcp_registry_auth")).status).toBe("neutral");
      const withMcp = await check(
        answersFor(origin, {}, { has_mcp_server: MCP_PRESENT(`${origin}/mcp`) }),
        "mcp_registry_auth",
      );
      expect(withMcp.status).toBe("fail");
      expect(withMcp.reason).toMatch(/MCP server/);
    }
  });

  it("undecided is not absent: a timeout or a 5xx is error", async () => {
    for (const origin of ORIGINS) {
      const url = `${origin}/.well-known/mcp-registry-auth`;
      for (const response of [failed(url, "timeout"), answer(url, 503)]) {
        const answers = answersFor(origin, {}, { has_mcp_server: MCP_PRESENT(`${origin}/mcp`) });
        answers.get.set(url, response);
        expect((await check(answers, "mcp_registry_auth")).status).toBe("error");
      }
    }
  });

  it("the reader decodes the key as the registry does (32 bytes for ed25519, 49 compressed for ecdsap384)", () => {
    const p384 = Buffer.concat([Buffer.from([2]), Buffer.alloc(48, 1)]).toString("base64");
    const read = readMcpRegistryAuth(`v=MCPv1; k=ed25519; p=${ed25519Key()}\nv=MCPv1; k=ecdsap384; p=${p384}\n# note`);
    expect(read.keys.map((key) => key.problem)).toEqual([null, null]);
    expect(read.otherLines).toEqual(["# note"]);
  });
});

const AUTH_MD =
  "# auth.md\n\nThis service supports agentic registration.\n\n## 1. Discover\n\nRead /.well-known/oauth-protected-resource, then agent_auth.\n";

function authSite(origin: string, agentAuth: unknown, extra: Record<string, Served> = {}) {
  return answersFor(origin, {
    "/auth.md": text(AUTH_MD, "text/markdown; charset=utf-8"),
    "/.well-known/oauth-protected-resource": json({ resource: origin, authorization_servers: [origin] }),
    "/.well-known/oauth-authorization-server": json({
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      response_types_supported: ["code"],
      ...(agentAuth === undefined ? {} : { agent_auth: agentAuth }),
    }),
    ...extra,
  });
}

describe("auth_md", () => {
  it("passes for an auth.md document whose RFC 9728 chain leads to agent_auth.register_uri", async () => {
    for (const origin of ORIGINS) {
      const result = await check(
        authSite(origin, { register_uri: `${origin}/agent/auth`, identity_types_supported: ["user_claimed"] }),
        "auth_md",
      );
      expect(result.status, result.reason).toBe("pass");
      expect(result.reason).toContain(`${origin}/agent/auth`);
      expect(result.reason).toMatch(/never registers/);
    }
  });

  it("never asks for the register_uri (no registration, no POST)", () => {
    for (const origin of ORIGINS) {
      const answers = authSite(origin, { register_uri: `${origin}/agent/auth` });
      expect(followUpUrls(CHECKLIST_REQUESTS, answers).some((url) => url.includes("/agent/auth"))).toBe(false);
    }
  });

  it("fails a document that is not auth.md, or a chain without agent_auth or register_uri", async () => {
    for (const origin of ORIGINS) {
      const untitled = authSite(
        origin,
        { register_uri: `${origin}/agent/auth` },
        { "/auth.md": text("# Authentication\n\nUse a key.", "text/markdown") },
      );
      expect((await check(untitled, "auth_md")).status).toBe("fail");
      expect((await check(authSite(origin, undefined), "auth_md")).reason).toMatch(/no agent_auth block/);
      expect((await check(authSite(origin, { claim_uri: `${origin}/claim` }), "auth_md")).reason).toMatch(
        /no register_uri/,
      );
      expect((await check(authSite(origin, { register_uri: "mailto:agents@acme.test" }), "auth_md")).status).toBe(
        "fail",
      );
    }
  });

  it("warns when the agent_auth block is found only at the origin, with no RFC 9728 metadata leading there", async () => {
    for (const origin of ORIGINS) {
      const answers = authSite(
        origin,
        { register_uri: `${origin}/agent/auth` },
        {
          "/.well-known/oauth-protected-resource": { body: "Not found", type: "text/plain", status: 404 },
        },
      );
      expect((await check(answers, "auth_md")).status).toBe("warn");
    }
  });

  it("absent is neutral; an authorization server not reached is error, never fail", async () => {
    for (const origin of ORIGINS) {
      expect((await check(answersFor(origin, {}), "auth_md")).status).toBe("neutral");
      const far = "https://login.elsewhere.test";
      for (const response of [
        failed(`${far}/.well-known/oauth-authorization-server`),
        answer(`${far}/.well-known/oauth-authorization-server`, 502),
      ]) {
        const answers = answersFor(origin, {
          "/auth.md": text(AUTH_MD, "text/markdown"),
          "/.well-known/oauth-protected-resource": json({ resource: origin, authorization_servers: [far] }),
        });
        answers.get.set(response.url, response);
        expect((await check(answers, "auth_md")).status).toBe("error");
      }
    }
  });
});

const nlwebHome = (href: string): Served => ({
  type: "text/html; charset=utf-8",
  body: `<!doctype html><html><head><title>Shop</title><link rel="nlweb" href="${href}"></head><body>Hi</body></html>`,
});
const RESULTS = {
  query_id: "q1",
  results: [
    { url: "https://shop.test/p/1", name: "Lentils", site: "shop", score: 0.9, schema_object: { "@type": "Product" } },
  ],
};

describe("nlweb", () => {
  it('passes when rel="nlweb" names an endpoint whose read-only query answers NLWeb results (plain or streamed)', async () => {
    const streamed = `data: ${JSON.stringify({ message_type: "result", content: RESULTS.results })}\n\n`;
    for (const [origin, served] of [
      [ORIGINS[0]!, json(RESULTS)],
      [ORIGINS[1]!, { body: streamed, type: "text/event-stream" }],
    ] as const) {
      const answers = answersFor(origin, { "/": nlwebHome("/ask"), "/ask": served });
      const result = await check(answers, "nlweb");
      expect(result.status, result.reason).toBe("pass");
      expect(nlwebQuery(answers)?.url).toMatch(/^https:\/\/[^/]+\/ask\?query=.*streaming=false/);
    }
  });

  it("a robots.txt Schemamap leads to the conventional /ask", async () => {
    for (const origin of ORIGINS) {
      const robots = text(`User-agent: *\nAllow: /\nSchemamap: ${origin}/schemamap.xml\n`);
      expect((await check(answersFor(origin, { "/robots.txt": robots, "/ask": json(RESULTS) }), "nlweb")).status).toBe(
        "pass",
      );
      // No endpoint there: the feeds are announced, the endpoint is missing (warn, not a broken announcement).
      expect((await check(answersFor(origin, { "/robots.txt": robots }), "nlweb")).status).toBe("warn");
    }
  });

  it("fails an announced endpoint that does not answer the result shape, on any kind of site", async () => {
    for (const served of [
      json({ answer: "hello" }),
      nlwebHome("/x"),
      { body: "Not found", type: "text/plain", status: 404 },
    ]) {
      const answers = answersFor(ORIGINS[0]!, { "/": nlwebHome("/nl/ask"), "/nl/ask": served });
      expect((await check(answers, "nlweb")).status).toBe("fail");
    }
    const partial = json({ results: [{ url: "https://shop.test/p/1" }, { name: "x", url: "https://shop.test/p/2" }] });
    expect((await check(answersFor(ORIGINS[1]!, { "/": nlwebHome("/ask"), "/ask": partial }), "nlweb")).status).toBe(
      "warn",
    );
  });

  it("absent is neutral; an endpoint that times out or answers 503 is error", async () => {
    for (const origin of ORIGINS) {
      expect((await check(answersFor(origin, {}), "nlweb")).status).toBe("neutral");
      const answers = answersFor(origin, { "/": nlwebHome("https://nl.elsewhere.test/ask") });
      const url = followUpUrls(CHECKLIST_REQUESTS, answers).find((each) =>
        each.startsWith("https://nl.elsewhere.test/ask?"),
      )!;
      for (const response of [failed(url, "timeout"), answer(url, 503)]) {
        answers.get.set(url, response);
        expect((await check(answers, "nlweb")).status).toBe("error");
      }
    }
  });
});

/** The DNS answers of a host: every question answered with no record unless given. */
function dnsOf(host: string, records: Record<string, string[] | { failed: string }> = {}): AgentDnsAnswers {
  const answers = new Map<string, { records: string[] } | { failed: string }>();
  for (const { name, type } of agentDnsQuestions(host)) {
    const given = records[dnsQuestionKey(type, name)];
    answers.set(
      dnsQuestionKey(type, name),
      given === undefined ? { records: [] } : Array.isArray(given) ? { records: given } : given,
    );
  }
  return { host, answers };
}

const CARD = {
  name: "Acme agent",
  description: "Books things",
  skills: [],
  capabilities: {},
  supportedInterfaces: [{ url: "https://agents.acme.test/a2a", protocolBinding: "JSONRPC" }],
};

describe("dns_agent_discovery", () => {
  it("passes for an AID record naming the MCP endpoint the crawl proved, and for one naming an A2A card", async () => {
    for (const origin of ORIGINS) {
      const host = new URL(origin).host;
      const mcp = answersFor(origin, {}, { has_mcp_server: MCP_PRESENT(`${origin}/mcp`) });
      mcp.dns = dnsOf(host, {
        [`TXT _agent.${host}`]: [`v=aid1;u=${origin}/mcp;p=mcp;s=Tools`, "google-site-verification=x"],
      });
      const result = await check(mcp, "dns_agent_discovery");
      expect(result.status, result.reason).toBe("pass");
      expect(agentDnsMcpEndpoints(mcp)).toEqual([]);

      const a2a = answersFor(origin, { "/.well-known/agent-card.json": json(CARD) });
      a2a.dns = dnsOf(host, { [`HTTPS _a2a._agents.${host}`]: [`1 ${host}. alpn="h2" port=443`] });
      expect(agentDnsFollowUpUrls(a2a)).toContain(`${origin}/.well-known/agent-card.json`);
      expect((await check(a2a, "dns_agent_discovery")).status).toBe("pass");
    }
  });

  it("an MCP endpoint only DNS names is probed live: compliant passes, not MCP fails, unreachable is error", async () => {
    const probe = (endpoint: string, outcome: McpProbeResult["outcome"], httpStatus?: number): McpProbeResult => ({
      verified: outcome === "compliant",
      endpoint,
      outcome,
      note: outcome,
      ...(outcome === "compliant" ? { era: "2026-07-28" as const } : {}),
      ...(httpStatus ? { httpStatus } : {}),
      fetched: [],
    });
    for (const origin of ORIGINS) {
      const host = new URL(origin).host;
      const endpoint = "https://mcp.elsewhere.test/v1/mcp";
      for (const [outcome, status, expected] of [
        ["compliant", undefined, "pass"],
        ["not_mcp", 404, "fail"],
        ["unreachable", undefined, "error"],
        ["not_mcp", 503, "error"],
      ] as const) {
        const answers = answersFor(origin, {});
        answers.dns = dnsOf(host, { [`TXT _agent.${host}`]: [`v=aid1;p=mcp;u=${endpoint}`] });
        expect(agentDnsMcpEndpoints(answers)).toEqual([endpoint]);
        answers.mcpProbes = new Map([[endpoint, probe(endpoint, outcome, status)]]);
        expect((await check(answers, "dns_agent_discovery")).status, `${outcome} ${status}`).toBe(expected);
      }
    }
  });

  it("fails a broken record whatever the site's kind: http uri, missing keys, ambiguity, an alias", async () => {
    for (const origin of ORIGINS) {
      const host = new URL(origin).host;
      for (const records of [
        { [`TXT _agent.${host}`]: ["v=aid1;u=http://api.acme.test/mcp;p=mcp"] },
        { [`TXT _agent.${host}`]: ["v=aid1;p=mcp"] },
        { [`TXT _agent.${host}`]: [`v=aid1;u=${origin}/a;p=mcp`, `v=aid1;u=${origin}/b;p=mcp`] },
        { [`TXT _agent.${host}`]: [`v=aid1;u=${origin}/a;uri=${origin}/b;p=mcp`] },
        { [`HTTPS _mcp._agents.${host}`]: [`0 mcp.${host}.`] },
      ]) {
        const answers = answersFor(origin, {});
        answers.dns = dnsOf(host, records);
        const result = await check(answers, "dns_agent_discovery");
        expect(result.status, JSON.stringify(records)).toBe("fail");
      }
      // An A2A card that is not one.
      const answers = answersFor(origin, { "/.well-known/agent-card.json": json({ hello: "world" }) });
      answers.dns = dnsOf(host, { [`TXT _agent.${host}`]: [`v=aid1;p=a2a;u=${origin}`] });
      expect((await check(answers, "dns_agent_discovery")).status).toBe("fail");
    }
  });

  it("absent (or not looked up, or an IP address) is neutral; a resolver failure is error, never absent", async () => {
    for (const origin of ORIGINS) {
      const host = new URL(origin).host;
      const none = answersFor(origin, {});
      none.dns = dnsOf(host);
      expect((await check(none, "dns_agent_discovery")).status).toBe("neutral");
      expect((await check(answersFor(origin, {}), "dns_agent_discovery")).status).toBe("neutral");
      const down = answersFor(origin, {});
      down.dns = dnsOf(host, { [`TXT _agent.${host}`]: { failed: "the resolver answered SERVFAIL" } });
      const result = await check(down, "dns_agent_discovery");
      expect(result.status).toBe("error");
      expect(result.reason).toMatch(/SERVFAIL/);
      // A card on a host that could not be reached decides nothing either.
      const far = answersFor(origin, {});
      far.dns = dnsOf(host, { [`TXT _agent.${host}`]: ["v=aid1;p=a2a;u=https://agents.elsewhere.test/card.json"] });
      far.get.set("https://agents.elsewhere.test/card.json", failed("https://agents.elsewhere.test/card.json"));
      expect((await check(far, "dns_agent_discovery")).status).toBe("error");
    }
    const ip = answersFor("https://203.0.113.7", {});
    ip.dns = { host: "203.0.113.7", answers: new Map() };
    expect((await check(ip, "dns_agent_discovery")).status).toBe("neutral");
  });

  it("reads SVCB data in presentation and RFC 3597 generic form alike", () => {
    // 1 mcp.acme.test. alpn=h2 port=443, in wire form.
    const wire = "0001 036d6370 0461636d65 0474657374 00 0001 0003 026832 0003 0002 01bb".replace(/\s/g, "");
    const generic = readSvcbRecord(`\\# ${wire.length / 2} ${wire}`);
    expect(generic).toEqual({ priority: 1, target: "mcp.acme.test", params: { alpn: "h2", port: "443" } });
    expect(readSvcbRecord('1 mcp.acme.test. alpn="h2" port=443')).toEqual(generic);
    expect(readAidRecord("V=aid1; URI=https://a.test/mcp; P=mcp")).toMatchObject({
      proto: "mcp",
      uri: "https://a.test/mcp",
    });
  });
});
