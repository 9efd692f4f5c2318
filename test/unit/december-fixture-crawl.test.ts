/**
 * Whole crawls (crawlSite with the full checklist) of the December fixture sites
 * (test/fixtures/web/december-sites.ts) over real HTTP on 127.0.0.1: every signal, the score, the
 * kind of site and the status of each December check must be what december-expectations.ts reads
 * from the contract. Also: undecided is never reported as absent (a 503 gives `error` with a reason
 * that says it could not be decided), a broken document fails on a content site, no check reports
 * an exhausted budget, and a crawl never calls a registration endpoint nor sends a payment.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRAWL_REQUEST_BUDGET, createConcurrencyLimiter } from "../../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite, type SiteCrawl } from "../../src/domain/crawling/crawl-site.ts";
import type { ProbeRequest, SiteFetcher } from "../../src/domain/signals/types.ts";
import { SIGNAL_FIELDS } from "../../src/domain/sites/site-fields.ts";
import { DECEMBER_EXPECTATIONS } from "../fixtures/web/december-expectations.ts";
import { fixtureWebBasePort } from "../fixtures/web/expectations.ts";
import { type FixtureWeb, startFixtureWeb } from "../fixtures/web/server.ts";
import { createPlainFetcher } from "../support/plain-fetcher.ts";

/** Each fixture web of the unit project has its own ports (see fixture-detectors.test.ts). */
const BASE_PORT = fixtureWebBasePort(6);

const NAMES = Object.keys(DECEMBER_EXPECTATIONS).sort();

let web: FixtureWeb;
const crawls = new Map<
  string,
  { crawl: SiteCrawl; requests: { method: string; url: string; request: ProbeRequest }[] }
>();

async function crawl(name: string) {
  const plain = createPlainFetcher(8000);
  const requests: { method: string; url: string; request: ProbeRequest }[] = [];
  const fetcher: SiteFetcher = (url, request = {}) => {
    requests.push({ method: request.method ?? "GET", url, request });
    return plain(url, request);
  };
  const result = await crawlSite({ origin: web.origins[name]!, fetcher, limiter: createConcurrencyLimiter(6) });
  return { crawl: result, requests };
}

beforeAll(async () => {
  web = await startFixtureWeb(BASE_PORT);
  // A few at a time: the machine is shared.
  for (let i = 0; i < NAMES.length; i += 6) {
    const batch = NAMES.slice(i, i + 6);
    const results = await Promise.all(batch.map((name) => crawl(name)));
    for (const [j, name] of batch.entries()) crawls.set(name, results[j]!);
  }
}, 180_000);

afterAll(async () => {
  await web?.stop();
});

const checkOf = (name: string, id: string) => crawls.get(name)!.crawl.checklist!.checks.find((each) => each.id === id)!;

describe("whole crawls of the December fixture sites", () => {
  it.each(NAMES)("%s", (name) => {
    const expected = DECEMBER_EXPECTATIONS[name]!;
    const { crawl: result } = crawls.get(name)!;
    const statuses = Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, result.signals[field].status]));
    expect(statuses).toEqual(expected.signals);
    expect(result.agenticScore).toBe(expected.score);
    expect(result.crawlStatus).toBe(expected.crawlStatus);
    expect(result.checklist?.summary.site_kind).toBe(expected.siteKind);
    const checks = Object.keys(expected.checks ?? {}).map((id) => {
      const check = checkOf(name, id);
      return [id, check.status, check.reason] as const;
    });
    expect(
      Object.fromEntries(checks.map(([id, status]) => [id, status])),
      checks.map(([id, status, reason]) => `${id} ${status}: ${reason}`).join("\n"),
    ).toEqual(expected.checks);
  });
});

/** The paths the December documents name: paid endpoints, API bases, the NLWeb endpoint, registration. */
const NAMED_PATHS = new Set(["/paid", "/acp/api", "/ask", "/agent/register", "/about", "/status", "/gone", "/a2a"]);

describe("what the December sites prove beyond the statuses", () => {
  it("undecided is not absent: every 503 gives error, saying it could not be decided, with the evidence", () => {
    const undecided: [string, string][] = [
      ["dec-ard-entry-503", "ai_catalog"],
      ["dec-auth-md-as-503", "auth_md"],
      ["dec-auth-md-as-503", "oauth_protected_resource"],
      ["dec-registry-proof-503", "mcp_registry_auth"],
      ["dec-nlweb-503", "nlweb"],
      ["dec-store-paid-503", "x402"],
      ["dec-store-paid-503", "mpp"],
      ["dec-store-acp-503", "acp"],
      ["dec-a2a-signed-jwks-503", "a2a_agent_card"],
    ];
    for (const [name, id] of undecided) {
      const check = checkOf(name, id);
      expect({ name, id, status: check.status }).toEqual({ name, id, status: "error" });
      expect(check.reason, `${name} ${id}`).toMatch(/503|could not be (decided|reached)|undecided/i);
      expect(
        check.evidence.some((each) => each.status === 503),
        `${name} ${id}: ${JSON.stringify(check.evidence)}`,
      ).toBe(true);
      expect(check.fix).toBeTruthy();
    }
  });

  it("a broken document fails on a content site, where the same check absent is neutral", () => {
    for (const [name, id] of [
      ["dec-ard-broken", "ai_catalog"],
      ["dec-registry-proof-broken", "mcp_registry_auth"],
      ["dec-paid-broken-content", "x402"],
      ["dec-ucp-broken-content", "ucp"],
      ["dec-ap2-no-role-content", "ap2"],
      ["dec-nlweb-wrong-shape", "nlweb"],
    ] as const) {
      expect(crawls.get(name)!.crawl.checklist!.summary.site_kind).toBe("content");
      expect({ name, status: checkOf(name, id).status }).toEqual({ name, status: "fail" });
      expect({ name, absent: checkOf("dec-auth-md", id).status }).toEqual({ name, absent: "neutral" });
    }
  });

  it("never calls the register_uri, never pays, and no check is left unfetched", () => {
    for (const name of NAMES) {
      const { crawl: result, requests } = crawls.get(name)!;
      expect(requests.filter((each) => each.url.includes("/agent/register"))).toEqual([]);
      const paying = requests.filter((each) =>
        Object.keys(each.request.headers ?? {}).some(
          (header) =>
            /^(payment-signature|x-payment)$/i.test(header) ||
            (/^authorization$/i.test(header) &&
              /^payment\b/i.test(String((each.request.headers as Record<string, string>)[header]))),
        ),
      );
      expect(paying).toEqual([]);
      // The detectors' own probes POST (MCP, GraphQL); nothing a December document names is ever sent one.
      const writes = requests.filter(
        (each) => each.method !== "GET" && each.method !== "HEAD" && NAMED_PATHS.has(new URL(each.url).pathname),
      );
      expect(writes).toEqual([]);
      expect(result.requestCount).toBeLessThanOrEqual(CRAWL_REQUEST_BUDGET);
      const unfetched = result.checklist!.checks.filter((check) => /budget/i.test(check.reason));
      expect(unfetched.map((check) => `${name} ${check.id}: ${check.reason}`)).toEqual([]);
    }
  });

  it("the changed checks say why: a signature verified or not, a local card, registration, the current WebMCP form", () => {
    expect(checkOf("dec-a2a-signed", "a2a_agent_card").reason).toMatch(/verifies over the canonical card/);
    expect(checkOf("dec-a2a-signed-tampered", "a2a_agent_card").reason).toMatch(/signature does not verify/);
    expect(checkOf("dec-a2a-signed-jwks-503", "a2a_agent_card").evidence.some((each) => each.status === 503)).toBe(
      true,
    );
    expect(checkOf("dec-card-local", "mcp_server_card").fix).toBeUndefined();
    expect(checkOf("dec-oauth-dcr-only", "oauth_authorization_server").reason).toMatch(/dynamic/i);
    expect(checkOf("dec-webmcp-navigator", "webmcp").fix).toMatch(/document\.modelContext/);
  });

  it("reports the requests per crawl (docs/benchmarks.md)", () => {
    const counts = NAMES.map((name) => crawls.get(name)!.crawl.requestCount).sort((a, b) => a - b);
    const at = (q: number) => counts[Math.min(counts.length - 1, Math.floor(q * counts.length))]!;
    console.info(
      `December fixture sites: ${counts.length} crawls, requests p50 ${at(0.5)}, p90 ${at(0.9)}, max ${counts.at(-1)}, min ${counts[0]}`,
    );
    expect(counts.at(-1)).toBeLessThanOrEqual(CRAWL_REQUEST_BUDGET);
  });

  it("the paid endpoint is asked once and answers both payment checks", () => {
    for (const name of ["dec-store-x402", "dec-store-mpp", "dec-store-paid-503"]) {
      const asked = crawls.get(name)!.requests.filter((each) => new URL(each.url).pathname === "/paid");
      expect({ name, asked: asked.length }).toEqual({ name, asked: 1 });
    }
  });
});
