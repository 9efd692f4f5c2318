/**
 * POST /api/v1/check: a live crawl of every fixture site, each asserted signal by signal against
 * its known expectations; the evidence; bad URLs; the recrawl of a changed indexed site; the limit.
 */
import { describe, expect, it } from "vitest";
import { CHECK_IDS } from "../../src/domain/checklist/checklist-definition.ts";
import type { ProblemCode } from "../../src/domain/problem-types.ts";
import { SIGNAL_FIELDS, type SignalField } from "../../src/domain/sites/site-fields.ts";
import { FIXTURE_EXPECTATIONS, FIXTURE_SITE_NAMES } from "../fixtures/web/expectations.ts";
import { fixture, fixtureDomain } from "../support/fixture-web.ts";
import { insertSites, sqlRows } from "../support/sites.ts";
import { asClient, awayFromWindowEdge, expectInvalid, expectProblem, newClientIp } from "../support/worker.ts";

const SIGNALS = SIGNAL_FIELDS;

interface CheckBody extends Record<string, unknown> {
  url: string;
  domain: string;
  agentic_score: number;
  crawl_status: string;
  category: string;
  tags: string[];
  name: string;
  indexed: boolean;
  recrawl_queued: boolean;
  signals: Record<string, { status: string; reason: string; fetched: { url: string; status: number | null }[] }>;
  checks: { id: string; status: string; fix?: string }[];
  checks_summary: { site_kind: string; text: string };
}

/** The checks that mirror a signal: pass exactly when it is present. */
const MIRRORED: Record<string, SignalField> = {
  llms_txt: "has_llms_txt",
  schema_org: "has_schema_org",
  ai_bot_rules: "has_robots_ai",
  openapi: "has_openapi",
  structured_api: "has_structured_api",
  mcp_server: "has_mcp_server",
  ai_plugin: "has_ai_plugin",
};

function check(body: unknown, client = asClient()) {
  return client("/api/v1/check", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function checkOk(url: string): Promise<CheckBody> {
  const response = await check({ url });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return (await response.json()) as CheckBody;
}

describe("POST /check against the fixture web", () => {
  it.concurrent.each(FIXTURE_SITE_NAMES)("%s: every signal, the score and the crawl status", async (name) => {
    const expected = FIXTURE_EXPECTATIONS[name]!;
    const result = await checkOk(`${fixture(name)}/`);
    const statuses = Object.fromEntries(SIGNALS.map((field) => [field, result.signals[field]?.status]));
    expect({ site: name, statuses }).toEqual({ site: name, statuses: expected.signals });
    for (const field of SIGNALS) {
      expect(result[field], `${name} ${field}`).toBe(expected.signals[field] === "present");
      expect(result.signals[field]?.reason, `${name} ${field} reason`).toMatch(/\S/);
    }
    expect(result.agentic_score).toBe(expected.score);
    expect(result.crawl_status).toBe(expected.crawlStatus);
    if (expected.category) expect(result.category).toBe(expected.category);
    if (expected.tags) expect(result.tags).toEqual(expect.arrayContaining(expected.tags));
    if (expected.name) expect(result.name).toBe(expected.name);
    expect(result.url).toBe(fixture(name));
    expect(result.domain).toBe(fixtureDomain(name));
    // The checklist: every id once, in order; the mirrored checks agree with their signal.
    expect(result.checks.map((check) => check.id)).toEqual([...CHECK_IDS]);
    for (const [id, field] of Object.entries(MIRRORED)) {
      const check = result.checks.find((each) => each.id === id)!;
      expect(check.status === "pass", `${name} ${id}`).toBe(expected.signals[field] === "present");
    }
    if (expected.checks) {
      const statuses = Object.fromEntries(
        Object.keys(expected.checks).map((id) => [id, result.checks.find((check) => check.id === id)?.status]),
      );
      expect({ site: name, statuses }).toEqual({ site: name, statuses: expected.checks });
    }
    if (expected.siteKind) expect(result.checks_summary.site_kind).toBe(expected.siteKind);
  });

  it("shows the fetches behind each signal as evidence", async () => {
    const result = await checkOk(fixture("all-six-signals"));
    const llms = result.signals.has_llms_txt!;
    expect(llms.fetched.some((fetch) => fetch.url.endsWith("/llms.txt") && fetch.status === 200)).toBe(true);
  });

  it("never writes the index", async () => {
    const domain = fixtureDomain("graphql-api");
    await checkOk(fixture("graphql-api"));
    expect(await sqlRows("select 1 from sites where domain = $1", [domain])).toEqual([]);
  });

  it("queues a recrawl when an indexed site differs from what the check found", async () => {
    const domain = fixtureDomain("schema-org-rdfa");
    await insertSites([{ domain, url: fixture("schema-org-rdfa"), agenticScore: 0 }]);
    const first = await checkOk(fixture("schema-org-rdfa"));
    expect(first.indexed).toBe(true);
    expect(first.recrawl_queued).toBe(true);
    const [request] = await sqlRows<{ reason: string }>("select reason from crawl_requests where domain = $1", [
      domain,
    ]);
    expect(request?.reason).toBe("check");
    const again = await checkOk(fixture("schema-org-rdfa"));
    expect(again.recrawl_queued).toBe(false);
  });
});

describe("POST /check input", () => {
  it("refuses a missing, empty or non-string url and unknown fields", async () => {
    await expectInvalid(await check({}), "body", ["url"]);
    await expectInvalid(await check({ url: "" }), "body", ["url"]);
    await expectInvalid(await check({ url: 42 }), "body", ["url"]);
    await expectInvalid(await check({ url: "https://example.com", depth: 3 }), "body", ["depth"]);
  });

  it("refuses a body that is not JSON", async () => {
    await expectProblem(await check("{url:"), 400, "INVALID_JSON");
  });

  it.each([
    ["example.com", "INVALID_URL"],
    ["not a url", "INVALID_URL"],
    ["ftp://example.com/", "INVALID_URL"],
    ["javascript:alert(1)", "INVALID_URL"],
    ["https://user:secret@example.com/", "URL_NOT_ALLOWED"],
  ])("refuses %s with 400 %s", async (url, code) => {
    await expectProblem(await check({ url }), 400, code as ProblemCode);
  });
});

/** A port nothing listens on: a connection to it is refused at once. */
const CLOSED_PORT_ORIGIN = "http://127.0.0.1:9";
/** What the runtime says of a failed fetch, which a person cannot act on. */
const RUNTIME_INTERNALS = /internal error|reference\s*=|TypeError|fetch failed|\bat \S+:\d+/i;

describe("live checks of unreachable and malformed targets", () => {
  it("says in plain words that /check could not reach the site", async () => {
    const result = await checkOk(`${CLOSED_PORT_ORIGIN}/`);
    expect(result.crawl_status).toBe("unreachable");
    expect(result.crawl_note).toMatch(/could not be reached|refused the connection/);
    expect(result.crawl_note).not.toMatch(RUNTIME_INTERNALS);
    for (const field of SIGNALS) expect(result.signals[field]?.reason).not.toMatch(RUNTIME_INTERNALS);
  });

  it("says in plain words that /verify-mcp could not reach the endpoint", async () => {
    // TLS to a plain-HTTP server: workerd reports it only as "internal error; reference = …".
    const tlsToPlainHttp = `https://${new URL(fixture("nothing")).host}/mcp`;
    const response = await asClient()(`/api/v1/verify-mcp?url=${encodeURIComponent(tlsToPlainHttp)}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { verified: boolean; note: string };
    expect(body.verified).toBe(false);
    expect(body.note).toMatch(/could not be reached/);
    expect(body.note).not.toMatch(RUNTIME_INTERNALS);
  });

  it.each(["https://.example.com/", "https://shop..example.com/", `https://${"a".repeat(64)}.example.com/`])(
    "refuses the malformed host of %s with a message naming the problem",
    async (url) => {
      const checked = await expectProblem(await check({ url }), 400, "INVALID_URL");
      expect(checked.detail).toMatch(/host name .*(empty label|longer than 63)/);
      const verified = await expectProblem(
        await asClient()(`/api/v1/verify-mcp?url=${encodeURIComponent(url)}`),
        400,
        "INVALID_URL",
      );
      expect(verified.detail).toMatch(/host name .*(empty label|longer than 63)/);
    },
  );
});

describe("POST /check limit", () => {
  it("answers the 11th check in an hour from one address with 429 and Retry-After", async () => {
    const client = asClient(newClientIp());
    await awayFromWindowEdge(3600, 30);
    for (let i = 0; i < 10; i++) {
      const response = await check({ url: fixture("nothing") }, client);
      expect(response.status).toBe(200);
    }
    const limited = await check({ url: fixture("nothing") }, client);
    await expectProblem(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
