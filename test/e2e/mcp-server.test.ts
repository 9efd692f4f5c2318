/**
 * The MCP server of the running service (`npm start`, demo index loaded) at /mcp, reached as
 * agents reach it: the official SDK v1 client (2025 protocol) lists the tools and walks search →
 * detail → action interest; the SDK v2 client, pinned to 2026-07-28 and in its default 2025 mode,
 * lists and calls the tools and reads the resources and prompts; and the MCP conformance suite
 * (@modelcontextprotocol/conformance) runs the scenarios 2026-07-28 and 2025-11-25 require.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parse } from "yaml";
import { probeMcpEndpoint } from "../../src/domain/signals/mcp-probe.ts";
import { type RunningService, startService } from "../support/npm-start.ts";
import { createPlainFetcher } from "../support/plain-fetcher.ts";

const EXPECTED_FAILURES = "test/e2e/mcp-conformance-expected-failures.yaml";

let service: RunningService | undefined;
let mcpUrl = "";

beforeAll(async () => {
  // 300 demo sites hold 26 MCP servers scoring 50 or more: enough for every search below, and
  // 2,700 fewer to load than the default 3,000 (npm-start.test.ts checks the default itself).
  service = await startService({
    PGLITE_DATA_DIR: "memory",
    PGLITE_START_FROM: inject("migratedPglite"),
    DEMO_SITES: "300",
    PUBLIC_ORIGIN: "",
  });
  mcpUrl = `${service.origin}/mcp`;
  expect(service.output()).toMatch(/demo index: \d+ synthetic sites loaded/);
});

afterAll(() => service?.stop());

type Structured = Record<string, unknown>;

interface SearchResult extends Structured {
  search_id: string;
  results: { domain: string; agentic_score: number; has_mcp_server: boolean }[];
  action_interest: { call_contract: { tool: string; fixed_arguments_if_invocation_condition_met: Structured } };
}

describe("the official MCP SDK client against the running service", () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: "e2e-sdk-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  });
  afterAll(async () => {
    await client?.close();
  });

  it("connects, sees the server's name, version and instructions, and lists every tool", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: "agent-readiness-search", version: "1.1.0" });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/search_sites/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        "check_site",
        "get_site",
        "get_stats",
        "get_top_sites",
        "list_categories",
        "record_action_interest",
        "search_sites",
        "submit_site",
        "verify_mcp",
      ].sort(),
    );
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
  });

  it("searches the demo index, opens a result and records an action interest by the sidecar's contract", async () => {
    const searched = await client.callTool({ name: "search_sites", arguments: { has_mcp: true, min_score: 50 } });
    expect(searched.isError).toBeFalsy();
    const search = searched.structuredContent as SearchResult;
    expect(JSON.parse((searched.content as { text: string }[])[0]?.text ?? "")).toStrictEqual(search);
    expect(search.results.length).toBeGreaterThan(0);
    for (const site of search.results) {
      expect(site.has_mcp_server).toBe(true);
      expect(site.agentic_score).toBeGreaterThanOrEqual(50);
    }

    const first = search.results[0]!.domain;
    const byDomain = await client.callTool({ name: "search_sites", arguments: { q: first } });
    expect((byDomain.structuredContent as SearchResult).results[0]?.domain).toBe(first);

    const detail = await client.callTool({
      name: "get_site",
      arguments: { domain: first, search_id: search.search_id },
    });
    expect(detail.structuredContent).toMatchObject({ domain: first, selection_recorded: true });

    const contract = search.action_interest.call_contract;
    const interest = await client.callTool({
      name: contract.tool,
      arguments: { ...contract.fixed_arguments_if_invocation_condition_met, domain: first, action_type: "trial" },
    });
    expect(interest.isError).toBeFalsy();
    expect(interest.structuredContent).toMatchObject({
      search_id: search.search_id,
      domain: first,
      action_type: "trial",
    });
  });

  it("gets a tool error, not an exception, for an unknown domain", async () => {
    const result = await client.callTool({ name: "get_site", arguments: { domain: "no-such-site.example" } });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? "")).toMatchObject({ code: "SITE_NOT_FOUND" });
  });
});

const TOOL_NAMES = [
  "check_site",
  "get_site",
  "get_stats",
  "get_top_sites",
  "list_categories",
  "record_action_interest",
  "search_sites",
  "submit_site",
  "verify_mcp",
];

describe.each([
  ["2026-07-28", { mode: { pin: "2026-07-28" } } as const],
  ["2025-11-25", { mode: "legacy" } as const],
])("the official MCP SDK v2 client on protocol %s", (revision, versionNegotiation) => {
  let client: ClientV2;
  beforeAll(async () => {
    client = new ClientV2({ name: "e2e-sdk-v2-client", version: "2.0.0" }, { versionNegotiation });
    await client.connect(new TransportV2(new URL(mcpUrl)));
  });
  afterAll(async () => {
    await client?.close();
  });

  it("negotiates the revision, lists every tool and calls one", async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(revision);
    expect(client.getServerVersion()).toMatchObject({ name: "agent-readiness-search", version: "1.1.0" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
    const searched = await client.callTool({ name: "search_sites", arguments: { has_mcp: true } });
    expect(searched.isError).toBeFalsy();
    expect((searched.structuredContent as SearchResult).results.length).toBeGreaterThan(0);
    const unknown = await client.callTool({ name: "get_site", arguments: { domain: "no-such-site.example" } });
    expect(unknown.isError).toBe(true);
  });

  it("reads a site report as a resource, by the template and from the list", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ name: "site-report", uriTemplate: `${service?.origin}/api/v1/site/{domain}` }),
    ]);
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const first = resources[0]!;
    const read = await client.readResource({ uri: first.uri });
    const report = JSON.parse((read.contents[0] as { text: string }).text) as { domain: string };
    expect(report.domain).toBe(first.name);
    // The resource is the REST document at the same URI.
    const rest = (await (await fetch(first.uri)).json()) as { domain: string };
    expect(rest.domain).toBe(report.domain);
    await expect(client.readResource({ uri: `${service?.origin}/api/v1/site/no-such-site.example` })).rejects.toThrow(
      /not found/i,
    );
  });

  it("offers the two prompts, which name the tools that do the job", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(["check_my_site", "find_service"]);
    const find = await client.getPrompt({ name: "find_service", arguments: { task: "send invoices" } });
    expect(JSON.stringify(find.messages)).toMatch(/send invoices.*search_sites/);
    const check = await client.getPrompt({ name: "check_my_site", arguments: { url: "example.com" } });
    expect(JSON.stringify(check.messages)).toMatch(/example\.com.*check_site/);
    await expect(client.getPrompt({ name: "check_my_site", arguments: {} })).rejects.toThrow(/url/);
  });
});

describe("the service's own live MCP probe (what /verify-mcp and the crawler run)", () => {
  it("verifies the service's endpoint as compliant", async () => {
    const result = await probeMcpEndpoint(createPlainFetcher(), mcpUrl);
    expect(result, result.note).toMatchObject({ verified: true, outcome: "compliant" });
  });
});

/** Runs the conformance CLI (on Node 20 through the preload that lets it start) and returns its exit code. */
function runConformance(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "./test/support/conformance-on-node20.mjs", "node_modules/.bin/conformance", "server", ...args],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const chunks: string[] = [];
    child.stdout.on("data", (chunk) => chunks.push(String(chunk)));
    child.stderr.on("data", (chunk) => chunks.push(String(chunk)));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output: chunks.join("") }));
  });
}

/**
 * Why a scenario of the suite may fail against a production server: it calls a fixture of the
 * suite's reference server (a tool, prompt or resource named test_… or test://…), a capability the
 * server does not offer (logging, completions, subscriptions: -32601), or a check the suite marks
 * untestable without such a fixture. dns-rebinding-protection must pass (the local edge of
 * `npm start` refuses foreign Host and Origin headers).
 */
const FIXTURE_CAUSES = [
  /Unknown (tool|prompt): (test_\w+|json_schema_2020_12_tool)$/,
  /Resource not found: test:\/\//,
  /Method not found$/,
  /^Not testable: /,
  /^Tool 'json_schema_2020_12_tool' not found/,
  /^Prerequisite failed: could not get initial InputRequiredResult/,
  /^Expected InputRequiredResult with inputRequests/,
  /^Server returned JSON-RPC error (when extra params were included: Unknown tool: test_\w+|instead of re-requesting)/,
];

interface ConformanceCheck {
  id: string;
  status: string;
  errorMessage?: string;
}

/** Every check of every scenario a run wrote into `outputDir`, with its scenario's directory name. */
function readChecks(outputDir: string): { scenario: string; check: ConformanceCheck }[] {
  return readdirSync(outputDir).flatMap((scenario) =>
    (JSON.parse(readFileSync(join(outputDir, scenario, "checks.json"), "utf8")) as ConformanceCheck[]).map((check) => ({
      scenario,
      check,
    })),
  );
}

describe.each([
  ["2026-07-28", "test/e2e/mcp-conformance-expected-failures-2026-07-28.yaml"],
  ["2025-11-25", EXPECTED_FAILURES],
])("the MCP conformance suite's %s requirements against the running service", (revision, baselineFile) => {
  const baseline = (parse(readFileSync(baselineFile, "utf8")) as { server: string[] }).server;

  it("passes every scenario the revision requires, but for the baseline's, each failing only for a fixture it lacks", async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
    try {
      const run = await runConformance([
        "--url",
        mcpUrl,
        "--requirements",
        revision,
        "--expected-failures",
        baselineFile,
        "-o",
        outputDir,
      ]);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(/Baseline check passed/);
      const checks = readChecks(outputDir);
      // The scenarios that matter most for a tools server passed outright.
      const core =
        revision === "2026-07-28"
          ? ["tools-list", "caching", "http-header-validation", "sep-2164-resource-not-found"]
          : ["server-initialize", "tools-list", "ping"];
      for (const scenario of core) {
        const ofScenario = checks.filter((entry) => entry.scenario.startsWith(`server-${scenario}-`));
        expect(ofScenario.length, scenario).toBeGreaterThan(0);
        expect(ofScenario.filter((entry) => entry.check.status === "FAILURE").map((entry) => entry.check.id)).toEqual(
          [],
        );
      }
      for (const { scenario, check } of checks.filter((entry) => entry.check.status === "FAILURE")) {
        // The tasks extension's scenarios are run but not scored for the revision; no tasks are offered.
        if (scenario.startsWith("server-tasks-")) continue;
        expect(
          FIXTURE_CAUSES.some((cause) => cause.test(check.errorMessage ?? "")),
          `${scenario} ${check.id}: ${check.errorMessage}`,
        ).toBe(true);
        expect(
          baseline.some((name) => scenario.startsWith(`server-${name}-`)),
          scenario,
        ).toBe(true);
      }
    } finally {
      rmSync(outputDir, { recursive: true, force: true });
    }
  });
});
