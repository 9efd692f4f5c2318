/**
 * The command-line checker's gate against a plain static site, Python's `http.server`, which
 * answers 501 to every POST: a refused method is an answer, so the MCP server and the structured
 * API are absent (exit 1, "failed"), never undecided (exit 2). The real bin, as a CI job runs it.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStaticPython } from "../fixtures/farm/farm.ts";

const root = resolve(import.meta.dirname, "../..");

let site: Awaited<ReturnType<typeof startStaticPython>>;

beforeAll(async () => {
  site = await startStaticPython();
});

afterAll(async () => {
  await site?.stop();
});

function checkerBin(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(root, "bin/agent-readiness.mjs"), ...argv], { cwd: root });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr.on("data", (chunk) => (stderr += String(chunk)));
  return new Promise((done) => child.on("close", (code) => done({ code: code ?? -1, stdout, stderr })));
}

describe("the checker against Python's http.server (501 to a POST)", () => {
  it("answers 501 to a POST, as the test needs", async () => {
    const answer = await fetch(`${site.origin}/mcp`, { method: "POST", body: "{}" });
    expect(answer.status).toBe(501);
  });

  it("fails --require has_mcp_server (exit 1), with both signals absent, not undecided", async () => {
    const gated = await checkerBin([`${site.origin}/`, "--require", "has_mcp_server"]);
    expect(gated.code, gated.stdout + gated.stderr).toBe(1);
    const json = await checkerBin([`${site.origin}/`, "--json"]);
    const body = JSON.parse(json.stdout) as { signals: Record<string, { status: string; reason: string }> };
    expect(body.signals.has_mcp_server!.status, body.signals.has_mcp_server!.reason).toBe("absent");
    expect(body.signals.has_structured_api!.status, body.signals.has_structured_api!.reason).toBe("absent");
    expect(body.signals.has_mcp_server!.reason).toContain("501");
  }, 90_000);
});
