/**
 * The pages for people in a real browser (Debian's Chromium through Playwright), against `npm start`
 * as a user runs it: search and open a report, run a live check of a fixture site with its
 * progress message, submit a site, verify an MCP server. On every page: no serious or critical
 * axe-core violation, nothing loaded from another origin, no Content-Security-Policy violation,
 * nothing wider than a 390 px phone, and screenshots at desktop and phone width in
 * dist/screenshots to look at.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Browser, DESKTOP, expectGoodPage, launchBrowser, PHONE, watchPage } from "../support/browser.ts";

/** What the tests read of an <img> in the page (the project's TypeScript has no DOM library). */
type ImageElement = { naturalWidth: number; decode(): Promise<void> };

const origin = inject("serviceOrigin");
const fixtures = inject("fixtureOrigins");

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const openPage = () => watchPage(browser, origin);

describe("search and a site's report", () => {
  it("the home page searches by keyboard alone, and the skip link leads to the content", async () => {
    const watch = await openPage();
    const { page } = watch;
    const response = await page.goto(`${origin}/`);
    expect(response?.status()).toBe(200);
    await expectGoodPage(watch, "home");

    // On a phone the search box is the first thing after the name, whole and above the fold, and
    // the navigation keeps to one row.
    await page.setViewportSize(PHONE);
    const box = (await page.locator("#q").boundingBox())!;
    expect(box.y + box.height).toBeLessThan(PHONE.height / 2);
    expect(box.width).toBeGreaterThan(150);
    const navTops = await page
      .locator(".site-nav li")
      .evaluateAll((items) => items.map((item) => Math.round((item as unknown as { offsetTop: number }).offsetTop)));
    expect(new Set(navTops).size, `navigation rows at 390 px: ${navTops}`).toBe(1);
    // The placeholder fits its field.
    expect(
      await page.locator("#q").evaluate((input) => {
        const field = input as unknown as { scrollWidth: number; clientWidth: number };
        return field.scrollWidth <= field.clientWidth;
      }),
    ).toBe(true);
    await page.setViewportSize(DESKTOP);

    // The index at a glance: the API's own figures.
    const stats = (await (await fetch(`${origin}/api/v1/stats`)).json()) as {
      sites: { total: number };
      scores: { median: number };
    };
    const figures = await page.locator(".figures .figure").allTextContents();
    expect(figures[0]).toBe(stats.sites.total.toLocaleString("en"));
    expect(figures[1]).toBe(String(stats.scores.median));
    expect(await page.locator(".share-table tbody tr").count()).toBe(7);
    const top = (await (await fetch(`${origin}/api/v1/top`)).json()) as { results: { name: string }[] };
    expect(await page.locator(".top-sites li a").allTextContents()).toEqual(
      top.results.slice(0, 5).map((site) => site.name),
    );
    expect(await page.locator("#at-a-glance svg[role=img]").count()).toBe(1);
    // The search box comes before the figures, the figures before the links for owners and agents.
    const order = await page.evaluate(`["#q", "#at-a-glance", "#for-owners", "#for-agents"].map((selector) =>
      document.querySelector(selector).getBoundingClientRect().top)`);
    expect([...(order as number[])].sort((a, b) => a - b)).toEqual(order);

    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.textContent.trim()")).toBe("Skip to content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate("document.activeElement.id")).toBe("main");

    await page.focus("#q");
    await page.keyboard.type("payment");
    await Promise.all([page.waitForURL(/\/search\?/), page.keyboard.press("Enter")]);
    expect(new URL(page.url()).searchParams.get("q")).toBe("payment");
    await page.close();
  });

  it("shows results with score, signals, category and tags, pages through them, and opens a report", async () => {
    const watch = await openPage();
    const { page } = watch;
    const response = await page.goto(`${origin}/search?q=&min_score=20`);
    expect(response?.status()).toBe(200);
    const results = page.locator("ol.results > li");
    expect(await results.count()).toBe(20);
    const first = results.first();
    expect(await first.locator(".result-score .score-value").textContent()).toMatch(/^\d{1,3}$/);
    expect(await first.locator("ul.glance > li").count()).toBe(7);
    expect(await first.locator(".facts dt").allTextContents()).toEqual(["Category", "Tags"]);
    // Every result has an icon: the service's own /icons/ address (drawn, its fallback included,
    // since the demo sites' icons cannot be fetched), or a plain letter where none is known.
    const icons = await results.locator(".site-icon").evaluateAll((elements) =>
      elements.map((element) => {
        const icon = element as unknown as {
          tagName: string;
          src?: string;
          complete?: boolean;
          naturalWidth?: number;
          dataset: { letter?: string };
        };
        return icon.tagName === "IMG"
          ? { src: icon.src, drawn: icon.complete && (icon.naturalWidth ?? 0) > 0 }
          : { letter: icon.dataset.letter };
      }),
    );
    expect(icons).toHaveLength(20);
    for (const icon of icons) {
      if ("src" in icon) {
        expect(icon.src).toMatch(new RegExp(`^${origin}/icons/[^/]+$`));
      } else expect(icon.letter).toMatch(/^[A-Z0-9]$/);
    }
    expect(
      icons.some((icon) => "src" in icon),
      "some demo site has an icon",
    ).toBe(true);
    expect(
      icons.some((icon) => "letter" in icon),
      "some demo site has none",
    ).toBe(true);
    // Each icon is loaded (lazy ones below the fold asked for now) and decoded before its width is read.
    await results.locator("img.site-icon").evaluateAll((images) =>
      Promise.all(
        images.map((image) => {
          const icon = image as unknown as ImageElement & { loading: string };
          icon.loading = "eager";
          return icon.decode().catch(() => undefined);
        }),
      ),
    );
    expect(
      await results
        .locator("img.site-icon")
        .evaluateAll((images) => images.map((image) => (image as unknown as { naturalWidth: number }).naturalWidth)),
    ).not.toContain(0);
    await expectGoodPage(watch, "search-results");

    await Promise.all([page.waitForURL(/page=2/), page.getByRole("link", { name: "Next →" }).click()]);
    expect(await page.locator("ol.results").getAttribute("start")).toBe("21");

    const name = (await results.first().locator("h3 a").textContent()) ?? "";
    await Promise.all([page.waitForURL(/\/sites\//), results.first().locator("h3 a").click()]);
    expect(new URL(page.url()).searchParams.get("search_id")).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await page.locator("h1").textContent()).toBe(name);
    expect(await page.locator("ul.signals > li").count()).toBe(7);
    // A summary first: the score, the kind, the tally and the fixes that help most.
    expect(await page.locator("main section").first().locator("h2").textContent()).toBe("Summary");
    expect(await page.locator(".summary-facts .tally").textContent()).toMatch(/^\d+ of \d+ checks that apply pass$/);
    expect(await page.locator(".top-fixes > li").count()).toBeGreaterThan(0);
    // Present signals and passing checks are folded into one line each; the others are open.
    expect(await page.locator("li.signal-present:not(.folded)").count()).toBe(0);
    expect(await page.locator("li.check-pass:not(.folded)").count()).toBe(0);
    expect(await page.locator("li.check.folded details[open]").count()).toBe(0);
    expect(await page.locator("li.check-fail.folded, li.check-warn.folded").count()).toBe(0);
    if ((await page.locator("li.check.folded").count()) > 0) {
      const line = page.locator("li.check.folded summary").first();
      const height = (await line.boundingBox())!.height;
      expect(height).toBeLessThan(40);
    }
    expect(await page.locator("#badge-markdown").inputValue()).toMatch(
      /^\[!\[agent ready: \d+\/100\]\(.+\.svg\)\]\(.+\)$/,
    );
    // The badge preview is an image that loaded.
    expect(
      await page.locator("#badge-heading ~ p img").evaluate((img: ImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);
    await expectGoodPage(watch, "site-report");
    await page.close();
  });

  it("shows what is wrong with the form, on the form, with status 400", async () => {
    const watch = await openPage();
    const { page } = watch;
    const response = await page.goto(`${origin}/search?q=x&min_score=500&has_api=maybe`);
    expect(response?.status()).toBe(400);
    expect(await page.getByRole("alert").textContent()).toMatch(/Lowest score must be at most 100/);
    expect(await page.locator("#min_score").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#min_score").inputValue()).toBe("500");
    await expectGoodPage(watch, "search-invalid");
    await page.close();
  });

  it("answers an unknown domain with a 404 page that offers a live check, and a not-indexed badge", async () => {
    const watch = await openPage();
    const { page } = watch;
    const response = await page.goto(`${origin}/sites/not-in-the-index.example`);
    expect(response?.status()).toBe(404);
    expect(await page.locator("#check-url").inputValue()).toBe("https://not-in-the-index.example");
    await expectGoodPage(watch, "site-unknown");

    const badge = await page.goto(`${origin}/badge/not-in-the-index.example.svg`);
    expect(badge?.status()).toBe(404);
    // Shown as an image all the same, though its status says the site is unknown.
    await page.goto(`${origin}/privacy`);
    await page.setContent(`<img src="${origin}/badge/not-in-the-index.example.svg" alt="">`);
    await page.locator("img").evaluate((img: ImageElement) => img.decode());
    expect(await page.locator("img").evaluate((img: ImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await page.close();
  });
});

describe("the live check, submit and MCP verification", () => {
  it("runs a check of a fixture site, showing progress while it runs, then the report", async () => {
    const watch = await openPage();
    const { page } = watch;
    await page.goto(`${origin}/check`);
    await expectGoodPage(watch, "check");

    // The first submission is held back in the page (a listener after the page's own cancels it),
    // so the progress message can be seen without racing the answer; the second goes through.
    await page.evaluate(`document.getElementById("check").addEventListener("submit", (event) => {
      if (!window.letSubmit) event.preventDefault();
    })`);
    await page.locator("#check-url").fill(fixtures["all-six-signals"]!);
    await page.getByRole("button", { name: "Check", exact: true }).click();
    expect(await page.locator("#check-progress").isVisible()).toBe(true);
    expect(await page.locator("#check-progress").textContent()).toMatch(
      /Checking the site; this takes up to 15 seconds/,
    );
    expect(await page.getByRole("button", { name: "Check", exact: true }).isDisabled()).toBe(true);
    await Promise.all([
      page.waitForURL(`${origin}/check`, { waitUntil: "load" }),
      page.waitForResponse((answer) => answer.request().method() === "POST"),
      page.evaluate(`window.letSubmit = true; document.getElementById("check").requestSubmit()`),
    ]);
    await page.waitForSelector("h1:text-matches('^Live check')");

    const domain = new URL(fixtures["all-six-signals"]!).host;
    expect(await page.locator("h1").textContent()).toBe(`Live check of ${domain}`);
    expect(await page.locator(".score-card .score-value").textContent()).toBe("80");
    expect(await page.locator("ul.signals .status-present").count()).toBe(6);
    expect(await page.locator("ul.signals .status-absent").count()).toBe(1);
    await expectGoodPage(watch, "check-report");
    await page.close();
  });

  it("shows the checklist beside the score: grouped, failures first, each fix with an example to copy", async () => {
    const watch = await openPage();
    const { page } = watch;
    await page.goto(`${origin}/check`);
    await page.locator("#check-url").fill(fixtures["checklist-flawed"]!);
    await Promise.all([
      page.waitForURL(`${origin}/check`, { waitUntil: "load" }),
      page.getByRole("button", { name: "Check", exact: true }).click(),
    ]);
    await page.waitForSelector("#checklist-heading");
    expect(await page.locator("section:has(#checklist-heading) .lead").textContent()).toMatch(
      /^\d+ of \d+ checks that apply to a content site pass\. The checklist is never part of the score\.$/,
    );
    // The first group shown holds a failure, and its first check is one.
    const firstStatus = await page.locator("ul.checks").first().locator("li.check").first().getAttribute("class");
    expect(firstStatus).toMatch(/check-fail/);
    expect(await page.locator("li.check textarea.snippet").count()).toBeGreaterThan(3);
    // Failing and warning checks are open, passing ones folded; control requests apart and explained once.
    expect(await page.locator("li.check-fail h4").count()).toBeGreaterThan(0);
    expect(await page.locator("li.check-pass:not(.folded)").count()).toBe(0);
    if ((await page.locator(".controls").count()) > 0) {
      expect(await page.locator("#control-requests").count()).toBe(1);
      expect(await page.locator(".controls code.url").first().textContent()).toMatch(
        /\/(?:\.well-known\/)?[0-9a-f]{20}\.(?:txt|json)$/,
      );
    }
    await expectGoodPage(watch, "check-checklist");
    await page.close();
  });

  it("leads a check of a site that refuses connections with what happened and why, and shows no score", async () => {
    const watch = await openPage();
    const { page } = watch;
    await page.goto(`${origin}/check`);
    await page.locator("#check-url").fill("http://127.0.0.1:1/");
    await Promise.all([
      page.waitForURL(`${origin}/check`, { waitUntil: "load" }),
      page.getByRole("button", { name: "Check", exact: true }).click(),
    ]);
    await page.waitForSelector("h1:text-matches('^Live check')");
    const lead = page.locator("main .notice").first();
    expect(await lead.locator(".notice-title").textContent()).toBe("Connection refused or cut");
    expect(await lead.textContent()).toMatch(/How to fix:.*web server is running/);
    expect(await page.locator(".score-value").count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Submit/ }).count()).toBe(0);
    await expectGoodPage(watch, "check-unreachable");
    await page.close();
  });

  it("says in plain words why an address is refused, with status 400", async () => {
    const watch = await openPage();
    const { page } = watch;
    await page.goto(`${origin}/check`);
    await page.locator("#check-url").fill("ftp://files.example/");
    const [response] = await Promise.all([
      page.waitForResponse((answer) => answer.request().method() === "POST"),
      page.getByRole("button", { name: "Check", exact: true }).click(),
    ]);
    expect(response.status()).toBe(400);
    await page.waitForLoadState();
    expect(await page.locator("#check-url-error").textContent()).toMatch(/http or https/);
    expect(await page.locator("#check-url").inputValue()).toBe("ftp://files.example/");
    await expectGoodPage(watch, "check-refused");
    await page.close();
  });

  it("submits a site for crawling", async () => {
    const watch = await openPage();
    const { page } = watch;
    await page.goto(`${origin}/submit`);
    await expectGoodPage(watch, "submit");
    await page.locator("#submit-url").fill(fixtures["mcp-json"]!);
    await Promise.all([page.waitForURL(`${origin}/submit`), page.getByRole("button", { name: "Submit" }).click()]);
    const domain = new URL(fixtures["mcp-json"]!).host;
    expect(await page.locator(".notice-success .notice-title").textContent()).toMatch(
      new RegExp(`^${domain.replaceAll(".", "\\.")} (is queued for a crawl|was already queued)`),
    );
    await expectGoodPage(watch, "submit-queued");
    await page.close();
  });

  it("verifies an MCP server", async () => {
    const watch = await openPage();
    const { page } = watch;
    await page.goto(`${origin}/verify-mcp`);
    await expectGoodPage(watch, "verify-mcp");
    await page.locator("#verify-url").fill(`${fixtures["mcp-json"]}/mcp`);
    await Promise.all([page.waitForURL(/\/verify-mcp\?url=/), page.getByRole("button", { name: "Verify" }).click()]);
    expect(await page.locator(".notice-title").textContent()).toBe("A working MCP server.");
    expect(await page.locator(".notice dd").first().textContent()).toBe(`${fixtures["mcp-json"]}/mcp`);
    await expectGoodPage(watch, "verify-mcp-result");
    await page.close();
  });
});

describe("the documents for people", () => {
  it.each(["docs", "privacy"])("/%s passes the same checks", async (path) => {
    const watch = await openPage();
    const response = await watch.page.goto(`${origin}/${path}`);
    expect(response?.status()).toBe(200);
    await expectGoodPage(watch, path);
    await watch.page.close();
  });
});
