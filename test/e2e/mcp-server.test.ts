/**
 * The MCP server of the running service (`npm start`, demo index loaded) at /mcp, reached as
 * agents reach it: the official SDK client (Client + StreamableHTTPClientTransport) lists the tools
 * and walks search → detail → action interest, and the MCP conformance suite
 * (@modelcontextprotocol/conformance) runs its initialize, tools-list and tools-call scenarios.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  service = await startService({ PGLITE_DATA_DIR: "memory", DEMO_SITES: "300", PUBLIC_ORIGIN: "" });
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

describe("the MCP conformance suite against the running service", () => {
  it.each(["server-initialize", "tools-list", "ping", "dns-rebinding-protection"])("passes %s", async (scenario) => {
    const run = await runConformance(["--url", mcpUrl, "--scenario", scenario]);
    expect(run.code, run.output).toBe(0);
    // Every check of the scenario passed (dns-rebinding-protection has two).
    expect(run.output).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
  });

  const baseline = (parse(readFileSync(EXPECTED_FAILURES, "utf8")) as { server: string[] }).server;

  it("names only tools-call scenarios in its expected-failures baseline", () => {
    expect(baseline.length).toBeGreaterThan(0);
    for (const scenario of baseline) expect(scenario).toMatch(/^tools-call-/);
  });

  it.each(baseline)(
    "runs %s, failing only as the baseline says (a fixture tool or capability we do not offer)",
    async (scenario) => {
      const outputDir = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
      try {
        const run = await runConformance([
          "--url",
          mcpUrl,
          "--scenario",
          scenario,
          "--expected-failures",
          EXPECTED_FAILURES,
          "-o",
          outputDir,
        ]);
        expect(run.code, run.output).toBe(0);
        expect(run.output).toMatch(/Baseline check passed/);
        // The client connected and called the tool; the server refused it as a protocol error.
        const [resultDir] = readdirSync(outputDir);
        const checks = JSON.parse(readFileSync(join(outputDir, resultDir ?? "", "checks.json"), "utf8")) as {
          status: string;
          errorMessage?: string;
        }[];
        const failures = checks.filter((check) => check.status === "FAILURE");
        expect(failures.length).toBeGreaterThan(0);
        for (const failure of failures) {
          expect(failure.errorMessage).toMatch(/-32602: Unknown tool: test_\w+$|-32601: Method not found$/);
        }
      } finally {
        rmSync(outputDir, { recursive: true, force: true });
      }
    },
  );
});
