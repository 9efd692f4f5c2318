/**
 * Score-drop monitors end to end, inside workerd: registration (and its refusals), consent by the
 * confirmation mail, a recrawl that drops a watched site's score (the fixture site without its
 * llms.txt), the alert in the outbox with its List-Unsubscribe headers, unsubscribing by the page
 * and by RFC 8058 one-click, no alert afterwards, the per-address limit, and racing cron runs.
 */
import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runMonitorAlerts } from "../../src/domain/monitors/drop-alerts.ts";
import { MAX_MONITORS_PER_EMAIL } from "../../src/domain/monitors/monitor-constants.ts";
import { composeDropAlert } from "../../src/web/monitor-alert-mail.ts";
import { FIXTURE_EXPECTATIONS } from "../fixtures/web/expectations.ts";
import { newEmail, type OutboxMessage, OWN_ORIGIN, outboxMessages } from "../support/accounts.ts";
import worker from "../support/all-in-one-jobs.ts";
import { fixture } from "../support/fixture-web.ts";
import { insertSites, sqlRows, testDatabase, uniqueToken } from "../support/sites.ts";
import { asClient, call, expectInvalid, expectProblem } from "../support/worker.ts";

const MONITOR_CRON = "*/5 * * * *";
const FULL = "all-six-signals";
const DROPPED = "all-six-signals-llms-removed";

function register(body: unknown, client = asClient()) {
  return client("/api/v1/monitor/register", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return call(path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

let crawls = 0;
/** Crawls a fixture site's origin and records it under `domain`, as the queue consumer does. */
async function crawlAs(domain: string, fixtureName: string) {
  const batch = createMessageBatch("crawl-jobs", [
    {
      id: `monitor-crawl-${++crawls}-${uniqueToken()}`,
      timestamp: new Date(),
      attempts: 1,
      body: { domain, url: fixture(fixtureName), reason: "recrawl", requested_at: new Date().toISOString() },
    },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(1);
}

async function runCron() {
  await worker.scheduled(
    createScheduledController({ cron: MONITOR_CRON, scheduledTime: Date.now() }),
    env,
    createExecutionContext(),
  );
}

const alertsIn = (messages: OutboxMessage[]) => messages.filter((message) => message.subject.startsWith("Score drop"));

/** The token of the confirmation link mailed to this address. */
async function confirmationToken(email: string): Promise<string> {
  const message = (await outboxMessages(email)).find((m) => m.subject.startsWith("Confirm score-drop alerts"));
  const link = /\S+\/monitor\/confirm\?token=\S+/.exec(message?.text ?? "")?.[0];
  if (!link) throw new Error(`no confirmation link mailed to ${email}`);
  return new URL(link).searchParams.get("token")!;
}

/** Registers and confirms (through the API), returning the unsubscribe URL. */
async function watchConfirmed(email: string, domain: string): Promise<string> {
  const response = await register({ email, domain });
  expect(response.status).toBe(201);
  const { unsubscribe_url } = (await response.json()) as { unsubscribe_url: string };
  const confirmed = await call("/api/v1/monitor/confirm", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: await confirmationToken(email) }),
  });
  expect(confirmed.status).toBe(200);
  return unsubscribe_url;
}

const watchedDomain = () => `watch-${uniqueToken()}.example`;

/** A domain in the index without a score history yet (so registering queues no crawl of it). */
async function indexedDomain(): Promise<string> {
  const domain = watchedDomain();
  await insertSites([{ domain }]);
  return domain;
}

describe("POST /monitor/register", () => {
  it("registers, queues a crawl of a domain not yet indexed and mails one confirmation", async () => {
    const email = newEmail("monitor");
    const domain = watchedDomain();
    const response = await register({ email: email.toUpperCase(), domain: `${domain.toUpperCase()}.` });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(["domain", "ok", "unsubscribe_url"]);
    expect(body).toMatchObject({ ok: true, domain });
    expect(body.unsubscribe_url).toMatch(/^http:\/\/svc\.test\/monitor\/unsubscribe\?token=svcmu_[\w-]{43}$/);
    expect(await sqlRows("select reason from crawl_requests where domain = $1", [domain])).toEqual([
      { reason: "monitor" },
    ]);

    // A second domain: no second confirmation mail within the hour.
    expect((await register({ email, domain: await indexedDomain() })).status).toBe(201);
    const mails = await outboxMessages(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`Confirm score-drop alerts for ${domain}`);
    expect(mails[0]?.text).toContain("We send nothing to an address until it confirms.");

    // Only hashes are stored.
    const token = new URL(body.unsubscribe_url!).searchParams.get("token")!;
    const stored = await sqlRows<{ token_sha256: string }>(
      "select t.token_sha256 from monitor_tokens t join monitors m on m.id = t.monitor_id where m.email = $1",
      [email],
    );
    expect(stored.map((row) => row.token_sha256)).not.toContain(token);
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.token_sha256))).toBe(true);
  });

  it("refuses a bad e-mail, a bad domain or an unknown field with 400, writing nothing", async () => {
    const email = newEmail("monitor-bad");
    await expectInvalid(await register({ email: "not-an-address", domain: "a.example" }), "body", ["email"]);
    await expectInvalid(await register({ email }), "body", ["domain"]);
    await expectInvalid(await register({ email, domain: "a.example", plan: "pro" }), "body", ["plan"]);
    await expectProblem(await register({ email, domain: "https://a.example" }), 400, "INVALID_DOMAIN");
    await expectProblem(await register({ email, domain: "not a domain" }), 400, "INVALID_DOMAIN");
    await expectProblem(await register({ email, domain: "localhost" }), 400, "INVALID_DOMAIN");
    expect(await sqlRows("select 1 from monitor_subscribers where email = $1", [email])).toEqual([]);
  });

  it(`answers 429 beyond ${MAX_MONITORS_PER_EMAIL} monitors per address, and frees a place on unsubscribe`, async () => {
    const email = newEmail("monitor-limit");
    const t = uniqueToken();
    const domains = Array.from({ length: MAX_MONITORS_PER_EMAIL + 1 }, (_, i) => `limit-${i}-${t}.example`);
    await insertSites(domains.map((domain) => ({ domain })));
    const client = asClient();
    const urls: string[] = [];
    for (const domain of domains.slice(0, MAX_MONITORS_PER_EMAIL)) {
      const response = await register({ email, domain }, client);
      expect(response.status).toBe(201);
      urls.push(((await response.json()) as { unsubscribe_url: string }).unsubscribe_url);
    }
    const over = await expectProblem(
      await register({ email, domain: domains.at(-1) }, client),
      429,
      "MONITOR_LIMIT_REACHED",
    );
    expect(over.detail).toContain(String(MAX_MONITORS_PER_EMAIL));
    // Renewing a domain already watched is not one more.
    expect((await register({ email, domain: domains[0] }, client)).status).toBe(201);
    const token = new URL(urls[0]!).searchParams.get("token")!;
    const unsubscribed = await call("/api/v1/monitor/unsubscribe", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
    });
    expect(await unsubscribed.json()).toEqual({ unsubscribed: true, domain: domains[0] });
    expect((await register({ email, domain: domains.at(-1) }, client)).status).toBe(201);
    expect(
      await sqlRows("select count(*)::int as n from monitors where email = $1 and unsubscribed_at is null", [email]),
    ).toEqual([{ n: MAX_MONITORS_PER_EMAIL }]);
  });

  it("refuses unknown confirmation and unsubscribe tokens with 404", async () => {
    const post = (path: string) =>
      call(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token: "svcmc_unknown" }),
      });
    await expectProblem(await post("/api/v1/monitor/confirm"), 404, "CONFIRMATION_TOKEN_INVALID");
    await expectProblem(await post("/api/v1/monitor/unsubscribe"), 404, "UNSUBSCRIBE_TOKEN_INVALID");
  });
});

describe("finding the monitor pages", () => {
  it("are linked from every page's footer", async () => {
    for (const path of ["/", "/check", "/privacy"]) {
      const html = await (await call(path)).text();
      expect(html, path).toMatch(/<a href="[^"]*\/monitor">Score-drop alerts<\/a>/);
    }
  });

  it("explain an unknown confirmation link when it is opened, writing nothing", async () => {
    const page = await call("/monitor/confirm?token=svcmc_unknown");
    expect(page.status).toBe(404);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).toContain("This confirmation link cannot be used.");
    expect(html).not.toContain('<button type="submit">Confirm</button>');
  });
});

describe("score-drop alerts", () => {
  it("confirms by the page, mails one alert for a drop with its headers, and stops after one-click unsubscribe", async () => {
    const email = newEmail("monitor-alert");
    const domain = await indexedDomain();
    const registered = await register({ email, domain });
    const { unsubscribe_url } = (await registered.json()) as { unsubscribe_url: string };

    // The link opens a page with a button; opening it confirms nothing.
    const token = await confirmationToken(email);
    const page = await call(`/monitor/confirm?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const pageText = await page.text();
    expect(pageText).toContain('<button type="submit">Confirm</button>');
    // The page says which address and which domain the button confirms.
    expect(pageText).toContain(`<dt>Address</dt><dd>${email}</dd><dt>Domain</dt><dd>${domain}</dd>`);
    expect(pageText).toContain(
      `Press the button to confirm that ${email} wants an e-mail when the score of ${domain} drops.`,
    );
    expect(await sqlRows("select confirmed_at from monitor_subscribers where email = $1", [email])).toEqual([
      { confirmed_at: null },
    ]);
    const confirmed = await postForm("/monitor/confirm", { token }, { Origin: OWN_ORIGIN });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain(`Alerts go out when the score of ${domain} drops.`);
    // Opened again, the link says it is done rather than offering the button.
    const again = await (await call(`/monitor/confirm?token=${encodeURIComponent(token)}`)).text();
    expect(again).toContain(`${email} is confirmed.`);
    expect(again).not.toContain('<button type="submit">Confirm</button>');

    await crawlAs(domain, FULL);
    await runCron(); // the first score becomes the baseline: no alert
    expect(alertsIn(await outboxMessages(email))).toEqual([]);

    await crawlAs(domain, DROPPED);
    await runCron();
    await runCron(); // a second run finds nothing new
    const alerts = alertsIn(await outboxMessages(email));
    expect(alerts).toHaveLength(1);
    const [alert] = alerts;
    const full = FIXTURE_EXPECTATIONS[FULL]!.score;
    const dropped = FIXTURE_EXPECTATIONS[DROPPED]!.score;
    expect(alert?.subject).toBe(`Score drop: ${domain} ${full} → ${dropped}`);
    const listUnsubscribe = alert?.headers["List-Unsubscribe"] ?? "";
    // Jobs build links from PUBLIC_ORIGIN (unset here: https://localhost).
    expect(listUnsubscribe).toMatch(/^<https?:\/\/[^/]+\/monitor\/unsubscribe\?token=svcmu_[\w-]{43}>$/);
    expect(alert?.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const text = alert?.text ?? "";
    expect(text).toContain(`dropped from ${full} to ${dropped}`);
    expect(text).toContain("* llms.txt: now absent");
    expect(text).toContain(`Fetched: ${fixture(DROPPED)}/llms.txt (status 404`);
    expect(text).toContain("How to fix it: Publish a Markdown file at /llms.txt");
    expect(text).toContain("https://llmstxt.org/");
    expect(text).toMatch(new RegExp(`Score history \\(newest first\\):\\n.+  ${dropped}\\n.+  ${full}\\n`));
    expect(text).toContain(`/sites/${domain}\n`);
    // Each mail has its own token (the registration's was shown once and is not stored).
    const alertLink = new URL(listUnsubscribe.slice(1, -1));
    expect(alertLink.searchParams.get("token")).not.toBe(new URL(unsubscribe_url).searchParams.get("token"));
    expect(text).toContain(`Stop them with one click: ${alertLink.href}`);
    expect(
      await sqlRows(
        "select previous_score, score, lost_signals, sent_at is not null as sent from monitor_alerts a join monitors m on m.id = a.monitor_id where m.email = $1",
        [email],
      ),
    ).toEqual([{ previous_score: full, score: dropped, lost_signals: ["has_llms_txt"], sent: true }]);

    // RFC 8058: the mail provider POSTs List-Unsubscribe=One-Click to the header's URL.
    const oneClick = await call(
      new URL(listUnsubscribe.slice(1, -1)).pathname + new URL(listUnsubscribe.slice(1, -1)).search,
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      },
    );
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain(`Unsubscribed from ${domain}.`);

    // The site recovers and drops again: nothing more is sent.
    await crawlAs(domain, FULL);
    await runCron();
    await crawlAs(domain, DROPPED);
    await runCron();
    expect(alertsIn(await outboxMessages(email))).toHaveLength(1);
  });

  it("unsubscribes by the page (GET shows a button, POST unsubscribes) and sends nothing afterwards", async () => {
    const email = newEmail("monitor-page");
    const domain = await indexedDomain();
    const unsubscribeUrl = await watchConfirmed(email, domain);
    await crawlAs(domain, FULL);
    await runCron();

    const path = new URL(unsubscribeUrl).pathname + new URL(unsubscribeUrl).search;
    const page = await call(path);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`Unsubscribe from ${domain}</button>`);
    expect(await sqlRows("select unsubscribed_at from monitors where email = $1", [email])).toEqual([
      { unsubscribed_at: null },
    ]);
    const token = new URL(unsubscribeUrl).searchParams.get("token")!;
    const done = await postForm("/monitor/unsubscribe", { token }, { Origin: OWN_ORIGIN });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(`Unsubscribed from ${domain}.`);
    // Again: the same answer.
    expect((await postForm("/monitor/unsubscribe", { token })).status).toBe(200);

    await crawlAs(domain, DROPPED);
    await runCron();
    expect(alertsIn(await outboxMessages(email))).toEqual([]);
    expect((await call("/monitor/unsubscribe?token=svcmu_unknown")).status).toBe(404);
  });

  it("sends nothing to an address that did not confirm", async () => {
    const email = newEmail("monitor-unconfirmed");
    const domain = await indexedDomain();
    expect((await register({ email, domain })).status).toBe(201);
    await crawlAs(domain, FULL);
    await runCron();
    await crawlAs(domain, DROPPED);
    await runCron();
    expect(alertsIn(await outboxMessages(email))).toEqual([]);
    expect(
      await sqlRows("select 1 from monitor_alerts a join monitors m on m.id = a.monitor_id where m.email = $1", [
        email,
      ]),
    ).toEqual([]);
  });

  it("sends one e-mail for one drop when cron runs race", async () => {
    const email = newEmail("monitor-race");
    const domain = await indexedDomain();
    await watchConfirmed(email, domain);
    await crawlAs(domain, FULL);
    await runCron();
    await crawlAs(domain, DROPPED);
    await Promise.all(Array.from({ length: 4 }, () => runCron()));
    await runCron();
    expect(alertsIn(await outboxMessages(email))).toHaveLength(1);
  });
});

describe("a mail that fails", () => {
  it("is kept and sent by a later run, once", async () => {
    const email = newEmail("monitor-retry");
    const domain = await indexedDomain();
    await watchConfirmed(email, domain);
    await crawlAs(domain, FULL);
    await runCron();
    await crawlAs(domain, DROPPED);

    // A run whose mail provider refuses everything: the drop is recorded, nothing is sent.
    const refusing = {
      send: async () => {
        throw new Error("provider unavailable");
      },
    };
    const summary = await runMonitorAlerts(
      { db: testDatabase(), mailer: refusing, origin: OWN_ORIGIN },
      composeDropAlert,
    );
    expect(summary).toMatchObject({ detected: 1, sent: 0, failed: 1 });
    const key =
      "select a.attempts, a.sent_at, a.last_error, a.claimed_until > now() as waiting from monitor_alerts a join monitors m on m.id = a.monitor_id where m.email = $1";
    expect(await sqlRows(key, [email])).toEqual([
      { attempts: 1, sent_at: null, last_error: "Error: provider unavailable", waiting: true },
    ]);
    expect(alertsIn(await outboxMessages(email))).toEqual([]);

    // Its retry delay has not passed: the next run leaves it; once it has, a run sends it.
    await runCron();
    expect(alertsIn(await outboxMessages(email))).toEqual([]);
    await sqlRows(
      "update monitor_alerts set claimed_until = now() - interval '1 second' where monitor_id in (select id from monitors where email = $1)",
      [email],
    );
    await runCron();
    await runCron();
    expect(alertsIn(await outboxMessages(email))).toHaveLength(1);
    expect(
      await sqlRows(
        "select a.attempts from monitor_alerts a join monitors m on m.id = a.monitor_id where m.email = $1",
        [email],
      ),
    ).toEqual([{ attempts: 2 }]);
  });
});

describe("the monitor pages", () => {
  it("signs up from the form, as the report page offers it", async () => {
    const email = newEmail("monitor-form");
    const t = uniqueToken();
    const domain = `form-${t}.example`;
    await insertSites([{ domain, name: `Form ${t}` }]);
    const report = await (await call(`/sites/${domain}`)).text();
    expect(report).toContain('action="http://svc.test/monitor"');
    expect(report).toContain(`<input type="hidden" name="domain" value="${domain}"/>`);

    const form = await call(`/monitor?domain=${domain}`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain(`value="${domain}"`);

    const refused = await postForm("/monitor", { email: "nope", domain }, { Origin: OWN_ORIGIN });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("That is not an e-mail address.");

    const signedUp = await postForm("/monitor", { email, domain }, { Origin: OWN_ORIGIN });
    expect(signedUp.status).toBe(201);
    const page = await signedUp.text();
    expect(page).toContain("Check your mail to confirm.");
    expect(page).toMatch(/href="http:\/\/svc\.test\/monitor\/unsubscribe\?token=svcmu_/);
    expect(await outboxMessages(email)).toHaveLength(1);

    const foreign = await postForm("/monitor", { email, domain }, { Origin: "https://elsewhere.example" });
    expect(foreign.status).toBe(403);
  });
});
