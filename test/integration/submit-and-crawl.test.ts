/**
 * POST /api/v1/submit and the crawl pipeline: dedupe under racing submissions, the queue
 * consumer's writes (site, evidence, score history), a failed crawl that keeps the last good
 * signals, retries with backoff, malformed jobs, and the recrawl cron's bounded batches.
 */
import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CHECK_IDS, CHECK_STATUSES } from "../../src/domain/checklist/checklist-definition.ts";
import { FIXTURE_EXPECTATIONS } from "../fixtures/web/expectations.ts";
import worker from "../support/all-in-one-jobs.ts";
import { fixture, fixtureDomain } from "../support/fixture-web.ts";
import { insertSites, sqlRows, uniqueToken } from "../support/sites.ts";
import { asClient, expectInvalid, expectProblem } from "../support/worker.ts";

function submit(body: unknown, client = asClient()) {
  return client("/api/v1/submit", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

let messageCount = 0;
function crawlJob(domain: string, url: string, attempts = 1) {
  return {
    id: `test-${++messageCount}-${uniqueToken()}`,
    timestamp: new Date(),
    attempts,
    body: { domain, url, reason: "submit", requested_at: new Date().toISOString() },
  };
}

async function consume(
  messages: ReturnType<typeof crawlJob>[] | { id: string; timestamp: Date; attempts: number; body: unknown }[],
) {
  const batch = createMessageBatch("crawl-jobs", messages);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

describe("POST /submit", () => {
  it("queues a crawl of the URL's domain once, and says so on a repeat", async () => {
    const t = uniqueToken();
    const first = await submit({ url: `https://${t}.example/pricing?plan=pro` });
    expect(first.status).toBe(201);
    const body = (await first.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      domain: `${t}.example`,
      url: `https://${t}.example`,
      status: "queued",
      dedupe_window_seconds: 3600,
    });
    const again = await submit({ url: `https://${t.toUpperCase()}.EXAMPLE./` });
    expect(again.status).toBe(201);
    expect(await again.json()).toMatchObject({
      domain: `${t}.example`,
      status: "already_queued",
      queued_at: body.queued_at,
    });
  });

  it("queues exactly one crawl for 12 racing submissions of one domain", async () => {
    const t = uniqueToken();
    const responses = await Promise.all(Array.from({ length: 12 }, () => submit({ url: `https://${t}.example/` })));
    const statuses = await Promise.all(
      responses.map(async (response) => ((await response.json()) as { status: string }).status),
    );
    expect(responses.every((response) => response.status === 201)).toBe(true);
    expect(statuses.filter((status) => status === "queued")).toHaveLength(1);
    expect(await sqlRows("select domain from crawl_requests where domain = $1", [`${t}.example`])).toHaveLength(1);
  });

  it("queues again once the dedupe window has passed", async () => {
    const t = uniqueToken();
    await submit({ url: `https://${t}.example/` });
    await sqlRows("update crawl_requests set queued_at = now() - interval '2 hours' where domain = $1", [
      `${t}.example`,
    ]);
    const later = await submit({ url: `https://${t}.example/` });
    expect(await later.json()).toMatchObject({ status: "queued" });
  });

  it("refuses bad URLs and unknown fields with 400, writing nothing", async () => {
    await expectInvalid(await submit({}), "body", ["url"]);
    await expectInvalid(await submit({ url: "https://a.example", priority: "high" }), "body", ["priority"]);
    await expectProblem(await submit({ url: "a.example" }), 400, "INVALID_URL");
    await expectProblem(await submit({ url: "gopher://a.example/" }), 400, "INVALID_URL");
    expect(await sqlRows("select 1 from crawl_requests where domain = 'a.example'")).toEqual([]);
  });
});

describe("the crawl queue consumer", () => {
  it("crawls a fixture site and writes the site, its evidence and a score history entry", async () => {
    const name = "all-six-signals";
    const domain = fixtureDomain(name);
    const result = await consume([crawlJob(domain, fixture(name))]);
    expect(result.explicitAcks).toHaveLength(1);
    const [site] = await sqlRows<Record<string, unknown>>(
      "select id, agentic_score, crawl_status, has_llms_txt, has_mcp_server, signal_evidence, name, url from sites where domain = $1",
      [domain],
    );
    expect(site).toMatchObject({
      agentic_score: FIXTURE_EXPECTATIONS[name]!.score,
      crawl_status: "success",
      has_llms_txt: true,
      has_mcp_server: false,
      url: fixture(name),
    });
    expect((site!.signal_evidence as Record<string, { status: string }>).has_llms_txt?.status).toBe("present");
    const history = await sqlRows("select agentic_score from site_score_history where site_id = $1", [site!.id]);
    expect(history).toEqual([{ agentic_score: FIXTURE_EXPECTATIONS[name]!.score }]);
    // The checklist: in full on the site row, and one compact row per crawl in the id order.
    const [stored] = await sqlRows<{ checklist: { checks: { id: string; status: string }[] } }>(
      "select checklist from sites where id = $1",
      [site!.id],
    );
    expect(stored!.checklist.checks.map((check) => check.id)).toEqual([...CHECK_IDS]);
    const packed = await sqlRows<{ statuses: number[]; site_kind: number }>(
      "select statuses, site_kind from site_checklist_history where site_id = $1",
      [site!.id],
    );
    expect(packed).toHaveLength(1);
    expect(packed[0]!.statuses).toEqual(
      stored!.checklist.checks.map((check) => CHECK_STATUSES.indexOf(check.status as (typeof CHECK_STATUSES)[number])),
    );
    // The same statuses on the site row, for the adoption rollup; no MCP endpoint advertised.
    const [row] = await sqlRows<{ checklist_statuses: number[]; mcp_endpoint_health: number | null }>(
      "select checklist_statuses, mcp_endpoint_health from sites where id = $1",
      [site!.id],
    );
    expect(row).toEqual({ checklist_statuses: packed[0]!.statuses, mcp_endpoint_health: null });
  });

  it("tries a seed import's MCP Registry endpoint for the site, and records how the advertised endpoint answered", async () => {
    const token = uniqueToken();
    const withLead = `lead-${token}.example`;
    const brokenLead = `broken-lead-${token}.example`;
    const endpoint = `${fixture("mcp-sse")}/agents/mcp`;
    await sqlRows(
      `insert into crawl_leads (domain, origin, mcp_endpoint, source) values
        ($1, $2, $3, 'mcp-registry'), ($4, $2, $5, 'mcp-registry')`,
      [withLead, fixture("mcp-not-mcp"), endpoint, brokenLead, `${fixture("mcp-not-mcp")}/registry/mcp`],
    );
    const result = await consume([
      crawlJob(withLead, fixture("mcp-not-mcp")),
      crawlJob(brokenLead, fixture("mcp-not-mcp")),
    ]);
    expect(result.explicitAcks).toHaveLength(2);
    const rows = await sqlRows<{ domain: string; has_mcp_server: boolean; mcp_endpoint_health: number | null }>(
      "select domain, has_mcp_server, mcp_endpoint_health from sites where domain in ($1, $2) order by domain",
      [withLead, brokenLead],
    );
    expect(rows).toEqual([
      // The fixture's own /mcp is an HTML page: the registry's endpoint is HTTP but not MCP.
      { domain: brokenLead, has_mcp_server: false, mcp_endpoint_health: 2 },
      // The registry's endpoint completes a handshake.
      { domain: withLead, has_mcp_server: true, mcp_endpoint_health: 0 },
    ]);
  });

  it("crawls a batch of ten sites through one connection scheduler, each written as a lone crawl finds it", async () => {
    // Success sites of every kind (MCP handshakes, catalog-named documents, framework defaults),
    // one blocked site and one that never answers in a usable way (a 3 MiB home page).
    const names = [
      "mcp-sse",
      "mcp-server-card",
      "openapi-yaml-via-catalog-only",
      "framework-default-openapi",
      "graphql-api",
      "nothing",
      "mcp-json",
      "ai-plugin-manifest",
      "blocked-site",
      "huge-body",
    ];
    const token = uniqueToken();
    const jobs = names.map((name) => crawlJob(`${name}-${token}.example`, fixture(name)));
    await insertSites([{ domain: `blocked-site-${token}.example`, url: fixture("blocked-site"), agenticScore: 40 }]);
    const result = await consume(jobs);
    expect(result.explicitAcks).toHaveLength(names.length);
    const rows = await sqlRows<{ domain: string; agentic_score: number; crawl_status: string }>(
      "select domain, agentic_score, crawl_status from sites where domain like $1 order by domain",
      [`%-${token}.example`],
    );
    const expected = names
      .filter((name) => name !== "huge-body")
      .map((name) => {
        const expectation = FIXTURE_EXPECTATIONS[name]!;
        // A failed crawl records its status only: the blocked site keeps its last good score.
        const score = expectation.crawlStatus === "success" ? expectation.score : 40;
        return { domain: `${name}-${token}.example`, agentic_score: score, crawl_status: expectation.crawlStatus };
      })
      .sort((a, b) => a.domain.localeCompare(b.domain));
    expect(rows).toEqual(expected);
  });

  it("keeps the last good signals when a recrawl fails, recording only its status", async () => {
    const name = "redirect-loop";
    const domain = fixtureDomain(name);
    await insertSites([
      { domain, url: fixture(name), agenticScore: 65, hasLlmsTxt: true, hasOpenapi: true, unresolvedCrawls: 3 },
    ]);
    const result = await consume([crawlJob(domain, fixture(name), 4)]);
    expect(result.explicitAcks).toHaveLength(1);
    const [site] = await sqlRows<Record<string, unknown>>(
      "select agentic_score, has_llms_txt, has_openapi, crawl_status, unresolved_crawls from sites where domain = $1",
      [domain],
    );
    // A failure other than a name gone from DNS ends the recrawl's backoff on the name.
    expect(site).toEqual({
      agentic_score: 65,
      has_llms_txt: true,
      has_openapi: true,
      crawl_status: "unreachable",
      unresolved_crawls: 0,
    });
  });

  it("ends the backoff on a name that did not resolve once the site answers", async () => {
    const name = "all-six-signals";
    // The index's key is the test's own; the job crawls the fixture's origin.
    const domain = `back-${uniqueToken()}.zz`;
    await insertSites([{ domain, url: fixture(name), unresolvedCrawls: 5 }]);
    const result = await consume([crawlJob(domain, fixture(name))]);
    expect(result.explicitAcks).toHaveLength(1);
    const [site] = await sqlRows<Record<string, unknown>>(
      "select crawl_status, unresolved_crawls from sites where domain = $1",
      [domain],
    );
    expect(site).toEqual({ crawl_status: "success", unresolved_crawls: 0 });
  });

  it("retries an unreachable site with backoff before the last attempt, writing nothing", async () => {
    const domain = `retry-${uniqueToken()}.example`;
    // A hand-made batch, to see each retry's delay (getQueueResult does not report it).
    const retries: (QueueRetryOptions | undefined)[] = [];
    const messages = [1, 2, 3].map((attempts) => ({
      ...crawlJob(domain, fixture("redirect-loop"), attempts),
      ack: () => expect.fail("an unreachable site before its last attempt must not be acknowledged"),
      retry: (options?: QueueRetryOptions) => void retries.push(options),
    }));
    const batch = { queue: "crawl-jobs", messages, ackAll() {}, retryAll() {} } as unknown as MessageBatch;
    await worker.queue(batch, env, createExecutionContext());
    const delays = retries.map((options) => options?.delaySeconds ?? 0).sort((a, b) => a - b);
    expect(delays).toEqual([30, 60, 120]);
    expect(await sqlRows("select 1 from sites where domain = $1", [domain])).toEqual([]);
  });

  it("records a blocked site at once without adding it when it was never indexed", async () => {
    const domain = `blocked-${uniqueToken()}.example`;
    const result = await consume([crawlJob(domain, fixture("blocked-site"))]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await sqlRows("select 1 from sites where domain = $1", [domain])).toEqual([]);
  });

  it("acknowledges and drops a malformed job", async () => {
    const result = await consume([{ id: "malformed-1", timestamp: new Date(), attempts: 1, body: { domain: 42 } }]);
    expect(result.explicitAcks).toEqual(["malformed-1"]);
    expect(result.retryMessages).toEqual([]);
  });
});

async function runRecrawlCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "*/10 * * * *", scheduledTime: Date.now() }), env, ctx);
}

async function queuedRecrawls(domains: string[]): Promise<string[]> {
  const rows = await sqlRows<{ domain: string }>(
    "select domain from crawl_requests where domain = any($1) and reason = 'recrawl' order by domain",
    [domains],
  );
  return rows.map((row) => row.domain);
}

/**
 * Runs the cron until `domain` is queued (each run takes the next stalest batch, RECRAWL_BATCH_SIZE
 * sites: 20 in tests, while other files leave many stale sites); false if it never is.
 */
async function recrawlUntilQueued(domain: string, runs = 60): Promise<boolean> {
  for (let run = 0; run < runs; run++) {
    await runRecrawlCron();
    if ((await queuedRecrawls([domain])).length > 0) return true;
  }
  return false;
}

describe("the recrawl cron", () => {
  it("queues the stalest sites once, skipping those already queued within the window", async () => {
    const t = uniqueToken();
    const old = new Date("2020-01-01T00:00:00Z");
    // `.zz` is never delegated (ISO 3166 keeps it user-assigned), yet no RFC reserves it.
    const domains = [`a-${t}.zz`, `b-${t}.zz`];
    await insertSites(domains.map((domain) => ({ domain, url: `https://${domain}/`, lastCrawledAt: old })));

    await runRecrawlCron();
    const queued = await sqlRows<{ domain: string; reason: string }>(
      "select domain, reason from crawl_requests where domain = any($1) order by domain",
      [domains],
    );
    expect(queued).toEqual(domains.map((domain) => ({ domain, reason: "recrawl" })));
    const before = await sqlRows(
      "select domain, queued_at from crawl_requests where domain = any($1) order by domain",
      [domains],
    );
    await runRecrawlCron();
    expect(
      await sqlRows("select domain, queued_at from crawl_requests where domain = any($1) order by domain", [domains]),
    ).toEqual(before);
  });

  it("never queues a reserved or demo name, whatever its case, subdomain or port", async () => {
    const t = uniqueToken();
    const reserved = [
      `${t}.example`,
      `shop.${t}.example:8443`,
      `${t}.test`,
      `${t}.invalid`,
      `${t}.localhost`,
      `${t}.local`,
      `${t}.onion`,
      `${t}.alt`,
      `${t}.home.arpa`,
      `${t}.example.com`,
      `${t}.example.net`,
      `${t}.example.org`,
    ];
    // Names that only look reserved are crawled as any other.
    const ordinary = [`${t}-example.zz`, `example.com.${t}.zz`, `${t}.testing.zz`, `${t}.examples.zz`];
    const stalest = new Date("2000-01-01T00:00:00Z");
    await insertSites(
      [...reserved, ...ordinary].map((domain) => ({
        domain,
        url: `https://${domain}/`,
        lastCrawledAt: stalest,
      })),
    );
    await runRecrawlCron();
    expect(await queuedRecrawls([...reserved, ...ordinary])).toEqual([...ordinary].sort());
  });

  it("waits twice as long after each crawl that found the name gone, and not at all once it answers", async () => {
    const t = uniqueToken();
    const hours = 168; // RECRAWL_AFTER_HOURS's default, which the test Worker runs with.
    const ago = (multiple: number) => new Date(Date.now() - (multiple * hours + 1) * 3_600_000);
    const sitesByCase = {
      // Due: never unresolved, one interval old; once unresolved, two intervals old; four times, 16.
      due: [
        { domain: `due-0-${t}.zz`, unresolvedCrawls: 0, lastCrawledAt: ago(1) },
        { domain: `due-1-${t}.zz`, unresolvedCrawls: 1, lastCrawledAt: ago(2) },
        { domain: `due-4-${t}.zz`, unresolvedCrawls: 4, lastCrawledAt: ago(16) },
        { domain: `due-9-${t}.zz`, unresolvedCrawls: 9, lastCrawledAt: ago(16) },
      ],
      // Backing off: old enough for a site that answers, not yet for one whose name is gone.
      waiting: [
        { domain: `wait-1-${t}.zz`, unresolvedCrawls: 1, lastCrawledAt: ago(1) },
        { domain: `wait-2-${t}.zz`, unresolvedCrawls: 2, lastCrawledAt: ago(3) },
        { domain: `wait-4-${t}.zz`, unresolvedCrawls: 4, lastCrawledAt: ago(15) },
      ],
    };
    const all = [...sitesByCase.due, ...sitesByCase.waiting];
    await insertSites(all.map((site) => ({ ...site, url: `https://${site.domain}/` })));
    // The least stale due site is queued once the cron has worked through every older one.
    expect(await recrawlUntilQueued(`due-0-${t}.zz`)).toBe(true);
    expect(await queuedRecrawls(all.map((site) => site.domain))).toEqual(
      sitesByCase.due.map((site) => site.domain).sort(),
    );
  });
});
