/**
 * The fetch guards inside workerd, configured as in production (FETCH_ALLOW_PRIVATE off): every
 * live endpoint refuses URLs that reach private, loopback, link-local or metadata addresses, or
 * other ports, with 400 URL_NOT_ALLOWED, before anything is fetched or queued — names included,
 * by the addresses the DNS-over-HTTPS resolver gives for them.
 */
import { describe, expect, it } from "vitest";
import { asClient, expectProblem } from "../support/worker.ts";

const ATTACKS = [
  "http://127.0.0.1/",
  "http://2130706433/",
  "http://0x7f000001/",
  "http://0177.0.0.1/",
  "http://127.1/",
  "http://[::1]/",
  "http://[::ffff:127.0.0.1]/",
  "http://169.254.169.254/latest/meta-data/",
  "http://10.0.0.8/",
  "http://192.168.1.1/",
  "http://172.16.0.1/",
  "http://100.64.0.1/",
  "http://[fd00::1]/",
  "http://[fe80::1]/",
  "http://0.0.0.0/",
  "http://localhost/",
  "http://admin.localhost/",
  "https://example.com:8443/",
  "http://metadata.google.internal/",
  // Names that resolve (through the test resolver, DOH_URL) to addresses that are not public.
  "https://intranet-alias.example/",
  "https://loopback-alias.example/",
  "https://metadata-alias.example/",
  "https://mixed-alias.example/",
  "https://v6-private-alias.example/",
  "https://cname-to-private.example/",
  "https://spelled-private-alias.example/",
  "https://mnemonic-private-alias.example/",
];

function post(path: string, url: string) {
  return asClient()(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ url }),
  });
}

describe("fetch guards as in production", () => {
  it.each(ATTACKS)("POST /check refuses %s", async (url) => {
    await expectProblem(await post("/api/v1/check", url), 400, "URL_NOT_ALLOWED");
  });

  it.each(ATTACKS)("POST /submit refuses %s", async (url) => {
    await expectProblem(await post("/api/v1/submit", url), 400, "URL_NOT_ALLOWED");
  });

  it.each(ATTACKS)("GET /verify-mcp refuses %s", async (url) => {
    const response = await asClient()(`/api/v1/verify-mcp?url=${encodeURIComponent(url)}`);
    await expectProblem(response, 400, "URL_NOT_ALLOWED");
  });
});

// Special-use and private-network names, refused by name whatever DNS says (or fails to say):
// one rule at every entry point that takes a URL or a domain.
const NON_PUBLIC_NAMES = [
  "x.internal",
  "metadata.google.internal",
  "host.docker.internal",
  "x.local",
  "localhost.localdomain",
  "1.0.0.127.in-addr.arpa",
  "router.home.arpa",
  "kubernetes.default.svc",
  "nothing.invalid",
];

describe("names that are not public sites, at every entry point", () => {
  it.each(NON_PUBLIC_NAMES)("POST /check, /submit and GET /verify-mcp refuse %s", async (name) => {
    for (const path of ["/api/v1/check", "/api/v1/submit"]) {
      const body = await expectProblem(await post(path, `https://${name}/`), 400, "URL_NOT_ALLOWED");
      expect(body.detail).toContain(`the host name ${name}`);
    }
    const response = await asClient()(`/api/v1/verify-mcp?url=${encodeURIComponent(`https://${name}/mcp`)}`);
    await expectProblem(response, 400, "URL_NOT_ALLOWED");
  });

  it.each(NON_PUBLIC_NAMES)("POST /monitor/register refuses %s with DOMAIN_NOT_ALLOWED", async (name) => {
    const response = await asClient()("/api/v1/monitor/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "watcher@example.com", domain: name }),
    });
    const body = await expectProblem(response, 400, "DOMAIN_NOT_ALLOWED");
    expect(body.detail).toContain(`the host name ${name}`);
  });

  it.each(NON_PUBLIC_NAMES)("the MCP tools refuse %s with the same code and reason", async (name) => {
    for (const [tool, args] of [
      ["check_site", { url: `https://${name}/` }],
      ["submit_site", { url: `https://${name}/` }],
      ["verify_mcp", { url: `https://${name}/mcp` }],
    ] as const) {
      const response = await asClient()("/mcp", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } }),
      });
      const answer = (await response.json()) as { result: { isError: boolean; content: { text: string }[] } };
      expect(answer.result.isError, tool).toBe(true);
      const error = JSON.parse(answer.result.content[0]?.text ?? "{}") as { code: string; message: string };
      expect(error.code, tool).toBe("URL_NOT_ALLOWED");
      expect(error.message).toContain(`the host name ${name}`);
    }
  });
});
