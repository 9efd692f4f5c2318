/**
 * The command-line checker's rules: its command line, its gates and exit statuses, the
 * comparison with the index, its three outputs, and its two ways of checking (a local crawl, or
 * the service's POST /check with a priority key) — against canned sites and a canned service.
 */
import { describe, expect, it } from "vitest";
import type { CheckBody, ChecklistEntry } from "../../scripts/readiness/check-body.ts";
import { compareWithIndex } from "../../scripts/readiness/compare.ts";
import { EXIT_GATE_FAILED, EXIT_NOT_CHECKED, EXIT_PASS, evaluateGates } from "../../scripts/readiness/gates.ts";
import { MARKDOWN_MARKER, orderedChecks, renderMarkdown, renderText } from "../../scripts/readiness/render.ts";
import type { IndexedSite } from "../../scripts/readiness/service.ts";
import { parseReadinessArgs, runReadiness, urlOfArgument } from "../../scripts/readiness.ts";
import { createLocalOutbound } from "../../src/adapters/outbound/local-outbound.ts";
import { SIGNAL_WEIGHTS } from "../../src/domain/scoring/agentic-score.ts";
import { SIGNAL_FIELDS, type SignalField } from "../../src/domain/sites/site-fields.ts";

type Status = "present" | "absent" | "blocked" | "error";

/** A /check body whose signals have the given statuses (absent unless named). */
function body(statuses: Partial<Record<SignalField, Status>> = {}, extra: Partial<CheckBody> = {}): CheckBody {
  const status = (field: SignalField): Status => statuses[field] ?? "absent";
  const flags = Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, status(field) === "present"])) as Record<
    SignalField,
    boolean
  >;
  return {
    url: "https://shop.example.com",
    domain: "shop.example.com",
    agentic_score: SIGNAL_FIELDS.reduce((sum, field) => sum + (flags[field] ? SIGNAL_WEIGHTS[field] : 0), 0),
    score_version: 1,
    ...flags,
    signals: Object.fromEntries(
      SIGNAL_FIELDS.map((field) => [
        field,
        { status: status(field), reason: `${field} was ${status(field)}.`, fetched: [] },
      ]),
    ) as unknown as CheckBody["signals"],
    name: "Shop",
    description: "A shop",
    category: "ecommerce",
    tags: [],
    has_favicon: false,
    crawl_status: "success",
    crawl_note: "The home page answered.",
    checked_at: "2026-11-27T05:00:00.000Z",
    duration_ms: 1234,
    indexed: false,
    recrawl_queued: false,
    ...extra,
  } as CheckBody;
}

function check(id: string, status: ChecklistEntry["status"], extra: Partial<ChecklistEntry> = {}): ChecklistEntry {
  return {
    id,
    category: "discoverability",
    status,
    title: `The ${id} check`,
    reason: `${id} seen as ${status}`,
    evidence: [{ url: `https://shop.example.com/${id}`, status: 200, content_type: "text/plain" }],
    ...(status === "pass" ? {} : { fix: `Publish ${id}.` }),
    applies_to: ["content", "api", "store"],
    ...extra,
  };
}

describe("the command line", () => {
  it("reads the URL, the output, the gates and the service", () => {
    expect(
      parseReadinessArgs([
        "https://shop.example.com/",
        "--markdown",
        "--fail-under",
        "60",
        "--require",
        "has_llms_txt, robots_txt",
        "--require",
        "has_mcp_server sitemap",
        "--api",
        "https://index.example/api/v1/",
        "--compare",
        "https://Shop.Example.com/",
        "--local",
      ]),
    ).toEqual({
      url: "https://shop.example.com/",
      format: "markdown",
      gates: { failUnder: 60, require: ["has_llms_txt", "robots_txt", "has_mcp_server", "sitemap"] },
      api: "https://index.example/api/v1/",
      local: true,
      compare: "shop.example.com",
    });
  });

  it("reads a bare host name as the web form does: an https address", () => {
    expect(parseReadinessArgs(["example.com"])).toMatchObject({ url: "https://example.com/" });
    expect(urlOfArgument(" Shop.Example.com/pricing?plan=pro ")).toBe("https://shop.example.com/pricing?plan=pro");
    expect(urlOfArgument("example.com:8443")).toBe("https://example.com:8443/");
    expect(urlOfArgument("localhost:4321")).toBe("https://localhost:4321/");
    expect(urlOfArgument("bücher.example")).toBe("https://xn--bcher-kva.example/");
    // A scheme typed is kept as typed, whatever it is: the check says what is wrong with it.
    expect(urlOfArgument("http://localhost:4321")).toBe("http://localhost:4321");
    expect(urlOfArgument("ftp://example.com/")).toBe("ftp://example.com/");
    expect(urlOfArgument("mailto:someone@example.com")).toBe("mailto:someone@example.com");
    expect(urlOfArgument("not a url")).toBe("not a url");
  });

  it.each([
    [[], /name the URL/],
    [["https://a.example", "https://b.example"], /one URL only/],
    [["https://a.example", "--json", "--markdown"], /choose one/],
    [["https://a.example", "--fail-under", "101"], /0 to 100/],
    [["https://a.example", "--fail-under", "-1"], /0 to 100|argument/],
    [["https://a.example", "--fail-under", "half"], /0 to 100/],
    [["https://a.example", "--require", "has_llms"], /unknown: has_llms/],
    [["https://a.example", "--compare", "a.example"], /--api/],
    [["https://a.example", "--local"], /beside --api/],
    [["https://a.example", "--depth", "3"], /Unknown option/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseReadinessArgs(argv as string[])).toThrow(message);
  });

  it("exits 2 with the usage on a wrong command line, and 0 on --help", async () => {
    const wrong = await run(["https://a.example", "--fail-under", "x"]);
    expect(wrong.code).toBe(EXIT_NOT_CHECKED);
    expect(wrong.stderr).toContain("usage: agent-readiness");
    const help = await run(["--help"]);
    expect(help.code).toBe(EXIT_PASS);
    expect(help.stdout).toContain("--fail-under <score>");
  });
});

describe("the gates", () => {
  const good = body({ has_llms_txt: "present", has_openapi: "present", has_mcp_server: "present" });

  it("pass when the score reaches the bar and every required signal is present", () => {
    const verdict = evaluateGates(good, { failUnder: 55, require: ["has_llms_txt", "has_mcp_server"] });
    expect(verdict.exitCode).toBe(EXIT_PASS);
    expect(verdict.outcomes.map((gate) => gate.outcome)).toEqual(["passed", "passed", "passed"]);
  });

  it("fail (1) on a score under the bar, or a required signal that is absent", () => {
    expect(evaluateGates(good, { failUnder: 56, require: [] }).exitCode).toBe(EXIT_GATE_FAILED);
    expect(evaluateGates(good, { require: ["has_schema_org"] }).exitCode).toBe(EXIT_GATE_FAILED);
  });

  it("cannot decide (2) a required signal the crawl could not see, unless another gate failed", () => {
    const unsure = body({ has_llms_txt: "error", has_openapi: "present" });
    expect(evaluateGates(unsure, { require: ["has_llms_txt"] }).exitCode).toBe(EXIT_NOT_CHECKED);
    expect(evaluateGates(unsure, { require: ["has_llms_txt", "has_schema_org"] }).exitCode).toBe(EXIT_GATE_FAILED);
  });

  it("decide nothing on a crawl that did not reach the site (2)", () => {
    for (const crawlStatus of ["unreachable", "blocked", "error"] as const) {
      const verdict = evaluateGates(body({}, { crawl_status: crawlStatus, crawl_note: "No answer." }), {
        failUnder: 0,
        require: [],
      });
      expect(verdict).toMatchObject({ exitCode: EXIT_NOT_CHECKED, outcomes: [] });
      expect(verdict.notChecked).toContain(crawlStatus);
    }
  });

  it("read a required check by its status: pass and warn pass, fail and neutral fail, blocked and error are undecided", () => {
    const checks = [
      check("robots_txt", "pass"),
      check("sitemap", "warn"),
      check("llms_full_txt", "fail"),
      check("web_bot_auth", "neutral"),
      check("ai_catalog", "blocked"),
      check("webmcp", "error"),
    ];
    const withChecks = body({}, { checks });
    const exit = (id: string) => evaluateGates(withChecks, { require: [id] }).exitCode;
    expect([
      exit("robots_txt"),
      exit("sitemap"),
      exit("llms_full_txt"),
      exit("web_bot_auth"),
      exit("ai_catalog"),
      exit("webmcp"),
    ]).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it("say a required check is not available when the body carries no checklist, or not that check (2)", () => {
    const none = evaluateGates(body(), { require: ["robots_txt"] });
    expect(none.exitCode).toBe(EXIT_NOT_CHECKED);
    expect(none.outcomes[0]?.message).toMatch(/not available.*no checklist/);
    const other = evaluateGates(body({}, { checks: [check("sitemap", "pass")] }), { require: ["robots_txt"] });
    expect(other.exitCode).toBe(EXIT_NOT_CHECKED);
    expect(other.outcomes[0]?.message).toMatch(/not available/);
  });
});

describe("the comparison with the index", () => {
  const indexed: IndexedSite = {
    domain: "shop.example.com",
    agentic_score: 25,
    crawl_status: "success",
    last_crawled_at: "2026-11-20T00:00:00.000Z",
    has_llms_txt: true,
    has_openapi: false,
    signal_evidence: {
      has_llms_txt: { status: "present", reason: "" },
      has_robots_ai: { status: "present", reason: "" },
    },
    checks: [check("robots_txt", "fail"), check("sitemap", "pass")],
  };

  it("lists the score and every signal and check that moved", () => {
    const now = body(
      { has_llms_txt: "present", has_openapi: "present" },
      { checks: [check("robots_txt", "pass"), check("sitemap", "pass"), check("webmcp", "neutral")] },
    );
    const comparison = compareWithIndex("shop.example.com", indexed, now);
    expect(comparison.score).toEqual({ before: 25, after: 35 });
    expect(comparison.signals).toEqual([
      { field: "has_openapi", before: "absent", after: "present" },
      { field: "has_robots_ai", before: "present", after: "absent" },
    ]);
    expect(comparison.checks).toEqual([
      { id: "robots_txt", title: "The robots_txt check", before: "fail", after: "pass" },
      { id: "webmcp", title: "The webmcp check", before: "not checked", after: "neutral" },
    ]);
    expect(comparison.checklistCompared).toBe(true);
  });

  it("says when the domain is not in the index, and when checks could not be compared", () => {
    expect(compareWithIndex("new.example.com", null, body())).toMatchObject({ indexed: false, signals: [] });
    const { checks: _dropped, ...withoutChecks } = indexed;
    expect(compareWithIndex("shop.example.com", withoutChecks, body()).checklistCompared).toBe(false);
  });
});

describe("the outputs", () => {
  const withChecks = body(
    { has_llms_txt: "present", has_robots_ai: "present" },
    {
      checks: [
        check("robots_txt", "pass"),
        check("sitemap", "fail", { fix: "List your pages in /sitemap.xml:\n```xml\n<urlset/>\n```" }),
        check("link_headers", "warn"),
      ],
      name: "Shop <script>alert(1)</script> | Deals",
      checks_summary: {
        site_kind: "store",
        site_kind_reason: "The home page offers products for sale.",
        text: "1 of 3 checks that apply to a store pass",
      },
    },
  );
  const gates = evaluateGates(withChecks, { failUnder: 50, require: ["sitemap"] });

  it("orders the checklist failures first, keeping the body's order among equals", () => {
    expect(orderedChecks(withChecks.checks ?? []).map((entry) => entry.id)).toEqual([
      "sitemap",
      "link_headers",
      "robots_txt",
    ]);
  });

  it("prints a readable report: the score, the seven signals with their weights, the checklist with fixes, the gates", () => {
    const text = renderText({ body: withChecks, gates, checkedBy: "this machine" });
    expect(text).toContain("Score 25/100");
    for (const label of ["llms.txt", "AI plugin manifest", "MCP server", "schema.org markup"])
      expect(text).toContain(label);
    expect(text).toMatch(/✓ present\s+\+15\s+llms\.txt/);
    expect(text).toContain("how to add: Run an MCP server");
    expect(text).toContain("3 checks: 1 pass, 1 warn, 1 fail");
    expect(text).toContain("1 of 3 checks that apply to a store pass (The home page offers products for sale.)");
    expect(text).toMatch(/✗ fail\s+sitemap \(discoverability\)/);
    expect(text).toContain("fix: List your pages in /sitemap.xml:");
    expect(text).toMatch(/✗ failed\s+fail under 50: the score is 25, under 50/);
    expect(text).toMatch(/✗ failed\s+require sitemap/);
  });

  it("writes a pull-request comment in Markdown, with nothing the site said able to break out of it", () => {
    const markdown = renderMarkdown({ body: withChecks, gates, checkedBy: "this machine" });
    expect(markdown.startsWith(MARKDOWN_MARKER)).toBe(true);
    expect(markdown).toContain("### Agent readiness of `shop.example.com`: 25/100 (a gate failed)");
    expect(markdown).toContain("| llms.txt (`has_llms_txt`) | 15 | ✅ present |");
    expect(markdown).toContain("| fail under 50 | ❌ failed |");
    // A fix with its own code fence is fenced with a longer one.
    expect(markdown).toContain("  ````text\n  List your pages in /sitemap.xml:\n  ```xml\n  <urlset/>\n  ```\n  ````");
    expect(markdown).toContain("<details><summary>1 passed</summary>");
    expect(markdown).toContain("**1 of 3 checks that apply to a store pass**");
    const bodyOf = renderMarkdown({
      body: body({}, { crawl_note: "It said <img src=x onerror=alert(1)> | and more" }),
      gates: evaluateGates(body(), { require: [] }),
      checkedBy: "this machine",
    });
    expect(bodyOf).not.toContain("<img");
    expect(bodyOf).toContain("&lt;img src=x onerror=alert(1)&gt; \\| and more");
  });

  it("shows the fix of a check that does not apply only when a gate requires that check", () => {
    const neutral = body({}, { checks: [check("webmcp", "neutral", { fix: "Declare tools on your forms." })] });
    const plain = { body: neutral, gates: evaluateGates(neutral, { require: [] }), checkedBy: "this machine" };
    expect(renderText(plain)).not.toContain("Declare tools");
    expect(renderMarkdown(plain)).not.toContain("Declare tools");
    expect(renderMarkdown(plain)).toContain("<details><summary>1 not applicable to this site</summary>");
    const asked = { ...plain, gates: evaluateGates(neutral, { require: ["webmcp"] }) };
    expect(renderText(asked)).toContain("fix: Declare tools on your forms.");
    expect(renderMarkdown(asked)).toContain("Declare tools on your forms.");
    expect(renderMarkdown(asked)).not.toContain("not applicable to this site");
  });

  it("shows the comparison in both readable outputs", () => {
    const comparison = compareWithIndex(
      "shop.example.com",
      {
        domain: "shop.example.com",
        agentic_score: 40,
        crawl_status: "success",
        last_crawled_at: "2026-11-20T00:00:00.000Z",
        signal_evidence: {},
        has_llms_txt: true,
        has_openapi: true,
      },
      withChecks,
    );
    const report = { body: withChecks, gates, comparison, checkedBy: "this machine" };
    expect(renderText(report)).toContain("score 40 → 25 (-15)");
    expect(renderText(report)).toContain("OpenAPI document: present → absent");
    expect(renderMarkdown(report)).toContain("- Score 40 → **25** (-15)");
    expect(renderMarkdown(report)).toContain("Checks not compared");
  });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], io: Partial<Parameters<typeof runReadiness>[0]> = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await runReadiness({
    argv,
    env: {},
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    ...io,
  });
  return { code, stdout, stderr };
}

/** A canned service: POST /check answers `checkBody` (or a problem), GET /site answers `site` or 404. */
function service(options: { checkBody?: unknown; problem?: { status: number; code: string }; site?: IndexedSite }) {
  const calls: { method: string; url: string; authorization: string | null; body?: string }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    calls.push({
      method,
      url,
      authorization: new Headers(init?.headers).get("authorization"),
      ...(typeof init?.body === "string" ? { body: init.body } : {}),
    });
    if (method === "POST" && url.endsWith("/check")) {
      if (options.problem) {
        return Response.json(
          {
            title: "Bad request",
            detail: "url is not allowed: the address 127.0.0.1 is a loopback address.",
            code: options.problem.code,
          },
          { status: options.problem.status, headers: { "content-type": "application/problem+json" } },
        );
      }
      return Response.json(options.checkBody);
    }
    if (url.includes("/site/")) return options.site ? Response.json(options.site) : new Response("{}", { status: 404 });
    return new Response("unexpected", { status: 500 });
  }) as typeof fetch;
  return { fetchImpl, calls };
}

describe("through the service (--api)", () => {
  const served = body({ has_llms_txt: "present" }, { checks: [check("robots_txt", "pass")] });

  it("posts the URL to POST /check with the priority key from READINESS_API_KEY, and prints the body as sent", async () => {
    const api = service({ checkBody: { ...served, a_newer_field: "kept" } });
    const result = await run(["https://shop.example.com/", "--api", "https://index.example/api/v1/", "--json"], {
      env: { READINESS_API_KEY: "svcpri_secret" },
      fetchImpl: api.fetchImpl,
    });
    expect(result.code).toBe(EXIT_PASS);
    expect(api.calls).toEqual([
      {
        method: "POST",
        url: "https://index.example/api/v1/check",
        authorization: "Bearer svcpri_secret",
        body: JSON.stringify({ url: "https://shop.example.com/" }),
      },
    ]);
    expect(JSON.parse(result.stdout)).toEqual({ ...served, a_newer_field: "kept" });
  });

  it("sends no Authorization header without a key", async () => {
    const api = service({ checkBody: served });
    await run(["https://shop.example.com/", "--api", "https://index.example/api/v1"], { fetchImpl: api.fetchImpl });
    expect(api.calls[0]?.authorization).toBeNull();
  });

  it("gates the service's body like a local one", async () => {
    const api = service({ checkBody: served });
    const args = ["https://shop.example.com/", "--api", "https://index.example/api/v1", "--json"];
    expect((await run([...args, "--require", "robots_txt"], { fetchImpl: api.fetchImpl })).code).toBe(EXIT_PASS);
    const failed = await run([...args, "--fail-under", "16"], { fetchImpl: api.fetchImpl });
    expect(failed.code).toBe(EXIT_GATE_FAILED);
    expect(failed.stderr).toContain("fail under 16 failed: the score is 15, under 16");
  });

  it("exits 2 when the service refuses the URL, with the service's words and what to do", async () => {
    const api = service({ problem: { status: 400, code: "URL_NOT_ALLOWED" } });
    const result = await run(["http://localhost:3000/", "--api", "https://index.example/api/v1", "--markdown"], {
      fetchImpl: api.fetchImpl,
    });
    expect(result.code).toBe(EXIT_NOT_CHECKED);
    expect(result.stderr).toContain("HTTP 400");
    expect(result.stderr).toContain("URL_NOT_ALLOWED");
    expect(result.stderr).toContain("add --local");
    expect(result.stdout).toContain("could not be checked");
  });

  it("exits 2 on an answer that is not a check result, and on a service that cannot be reached", async () => {
    const odd = service({ checkBody: { hello: "world" } });
    const notACheck = await run(["https://shop.example.com/", "--api", "https://index.example/api/v1"], {
      fetchImpl: odd.fetchImpl,
    });
    expect(notACheck).toMatchObject({ code: EXIT_NOT_CHECKED });
    expect(notACheck.stderr).toContain("not a check result");
    const down = await run(["https://shop.example.com/", "--api", "https://index.example/api/v1"], {
      fetchImpl: (async () => {
        throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") });
      }) as typeof fetch,
    });
    expect(down.code).toBe(EXIT_NOT_CHECKED);
    expect(down.stderr).toContain("could not be reached: connect ECONNREFUSED");
  });

  it("compares with the index's last crawl, and says when the domain is not indexed", async () => {
    const site: IndexedSite = {
      domain: "shop.example.com",
      agentic_score: 0,
      crawl_status: "success",
      last_crawled_at: "2026-11-01T00:00:00.000Z",
      signal_evidence: {},
    };
    const indexedApi = service({ checkBody: served, site });
    const compared = await run(
      ["https://shop.example.com/", "--api", "https://index.example/api/v1", "--compare", "shop.example.com"],
      { fetchImpl: indexedApi.fetchImpl },
    );
    expect(indexedApi.calls.map((call) => `${call.method} ${call.url}`)).toContain(
      "GET https://index.example/api/v1/site/shop.example.com",
    );
    expect(compared.stdout).toContain("score 0 → 15 (+15)");
    expect(compared.stdout).toContain("llms.txt: absent → present");
    const fresh = await run(
      ["https://shop.example.com/", "--api", "https://index.example/api/v1", "--compare", "shop.example.com"],
      { fetchImpl: service({ checkBody: served }).fetchImpl },
    );
    expect(fresh.stdout).toContain("shop.example.com is not in the index");
  });
});

describe("a local crawl", () => {
  /** A small site on localhost: an llms.txt and robots.txt rules for AI crawlers; 404 elsewhere. */
  const site: Record<string, () => Response> = {
    "http://localhost:4321/": () =>
      new Response("<!doctype html><title>Local shop</title><h1>Local shop</h1>", {
        headers: { "content-type": "text/html" },
      }),
    "http://localhost:4321/llms.txt": () =>
      new Response("# Local shop\n\n> Things for sale.\n\n- [Catalog](/catalog): every product\n", {
        headers: { "content-type": "text/plain" },
      }),
    "http://localhost:4321/robots.txt": () =>
      new Response("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n", {
        headers: { "content-type": "text/plain" },
      }),
  };
  const localOutbound = (url: string) =>
    createLocalOutbound({
      url,
      lookup: async () => ({ addresses: [], ttlSeconds: 0 }),
      fetchImpl: (async (input: RequestInfo | URL) =>
        site[String(input)]?.() ?? new Response("not found", { status: 404 })) as typeof fetch,
    });

  it("crawls the named local site with the service's detectors and gates the result", async () => {
    const result = await run(["http://localhost:4321/", "--json", "--require", "has_llms_txt,has_robots_ai"], {
      localOutbound,
    });
    expect(result.code, result.stderr).toBe(EXIT_PASS);
    const checked = JSON.parse(result.stdout) as CheckBody;
    expect(checked).toMatchObject({
      url: "http://localhost:4321",
      domain: "localhost:4321",
      agentic_score: 25,
      has_llms_txt: true,
      has_robots_ai: true,
      crawl_status: "success",
      indexed: false,
      recrawl_queued: false,
    });
    const failed = await run(["http://localhost:4321/", "--fail-under", "26"], { localOutbound });
    expect(failed.code).toBe(EXIT_GATE_FAILED);
  });

  it("shows a progress line on stderr only when asked or on a terminal, never on stdout", async () => {
    const quiet = await run(["http://localhost:4321/", "--json"], { localOutbound });
    expect(quiet.stderr).toBe("");
    const asked = await run(["http://localhost:4321/", "--json", "--progress"], { localOutbound });
    expect(asked.stderr).toMatch(/checking http:\/\/localhost:4321\/: \d+ of \d+ requests answered, [\d.]+ s, done/);
    expect(() => JSON.parse(asked.stdout)).not.toThrow();
    let terminal = "";
    await runReadiness({
      argv: ["http://localhost:4321/", "--json"],
      env: {},
      stdout: { write: () => true },
      stderr: { write: (text: string) => (terminal += text), isTTY: true },
      localOutbound,
    });
    expect(terminal).toContain("\r\u001b[2Kchecking http://localhost:4321/");
    expect(terminal.endsWith("\r\u001b[2K")).toBe(true);
  });

  it("exits 2 for a URL that names no site, saying why", async () => {
    for (const url of ["not a url", "mailto:someone@example.com", "http://user:pw@localhost:4321/"]) {
      // The real outbound side: the URL is refused before anything is fetched.
      const result = await run([url]);
      expect(result.code, url).toBe(EXIT_NOT_CHECKED);
      expect(result.stderr, url).toMatch(
        /^agent-readiness: the URL was refused: url (must be an absolute|is not allowed)/,
      );
    }
  });

  it("checks a site named by its bare host name at its https address", async () => {
    const secure = (url: string) =>
      createLocalOutbound({
        url,
        lookup: async () => ({ addresses: [], ttlSeconds: 0 }),
        fetchImpl: (async (input: RequestInfo | URL) =>
          site[String(input).replace(/^https:/, "http:")]?.() ??
          new Response("not found", { status: 404 })) as typeof fetch,
      });
    const result = await run(["localhost:4321", "--json"], { localOutbound: secure });
    expect(result.code, result.stderr).toBe(EXIT_PASS);
    expect(JSON.parse(result.stdout)).toMatchObject({
      url: "https://localhost:4321",
      domain: "localhost:4321",
      has_llms_txt: true,
      crawl_status: "success",
    });
  });

  it("exits 2 when the home page gives no usable answer, whatever the gates", async () => {
    const result = await run(["http://localhost:9999/", "--fail-under", "0"], { localOutbound });
    expect(result.code).toBe(EXIT_NOT_CHECKED);
    expect(result.stdout).toContain("not checked: the site could not be checked (crawl error)");
  });
});
