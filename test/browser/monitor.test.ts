/**
 * The score-drop monitor pages in a real browser, against the project's one `npm start`: signing
 * up from a site's report by keyboard and mouse, the sign-up page's own form with a refusal shown
 * on it, and the confirmation and unsubscribe pages a mailed link opens. Every page passes the
 * same checks as the other pages (axe-core, one h1, nothing from elsewhere, fits a phone) and
 * leaves screenshots in dist/screenshots.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Browser, launchBrowser, screenshotPage, seriousViolations } from "../support/browser.ts";

const origin = inject("serviceOrigin");

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

interface PageWatch {
  page: Page;
  foreignRequests: string[];
  policyViolations: string[];
}

async function openPage(): Promise<PageWatch> {
  const page = await browser.context.newPage();
  const watch: PageWatch = { page, foreignRequests: [], policyViolations: [] };
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith("data:")) watch.foreignRequests.push(url);
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) watch.policyViolations.push(message.text());
  });
  return watch;
}

async function expectGoodPage(watch: PageWatch, name: string) {
  const { page } = watch;
  expect(await seriousViolations(page), `${name}: accessibility`).toEqual([]);
  expect(await page.locator("h1").count(), `${name}: one h1`).toBe(1);
  const { phoneOverflow } = await screenshotPage(page, name);
  expect(phoneOverflow, `${name}: wider than a 390 px phone by ${phoneOverflow} px`).toBeLessThanOrEqual(0);
  expect(watch.foreignRequests, `${name}: requests to other origins`).toEqual([]);
  expect(watch.policyViolations, `${name}: Content-Security-Policy violations`).toEqual([]);
}

/** The best-scored demo site, by the API. */
async function topDomain(): Promise<string> {
  const top = (await (await fetch(`${origin}/api/v1/top?limit=1`)).json()) as { results: { domain: string }[] };
  return top.results[0]!.domain;
}

describe("score-drop monitors", () => {
  it("signs up from a site's report, then shows what happens next", async () => {
    const watch = await openPage();
    const { page } = watch;
    const domain = await topDomain();
    await page.goto(`${origin}/sites/${domain}`);
    const button = page.getByRole("button", { name: `Alert me when ${domain}'s score drops` });
    expect(await button.isVisible()).toBe(true);

    await page.getByLabel("Your e-mail address").fill(`browser-${Date.now()}@example.com`);
    const [response] = await Promise.all([
      page.waitForResponse((answer) => answer.request().method() === "POST"),
      button.click(),
    ]);
    expect(response.status()).toBe(201);
    await page.waitForLoadState();
    expect(await page.locator(".notice-title").textContent()).toBe("Check your mail to confirm.");
    expect(await page.getByRole("link", { name: `unsubscribe from ${domain}` }).getAttribute("href")).toMatch(
      /\/monitor\/unsubscribe\?token=svcmu_/,
    );
    await expectGoodPage(watch, "monitor-registered");
    await page.close();
  });

  it("shows a refused domain on the sign-up page's form, with status 400", async () => {
    const watch = await openPage();
    const { page } = watch;
    await page.goto(`${origin}/monitor`);
    await expectGoodPage(watch, "monitor");
    await page.getByLabel("Domain to watch").fill("https://example.com/pricing");
    await page.getByLabel("Your e-mail address").fill("someone@example.com");
    const [response] = await Promise.all([
      page.waitForResponse((answer) => answer.request().method() === "POST"),
      page.keyboard.press("Enter"),
    ]);
    expect(response.status()).toBe(400);
    await page.waitForLoadState();
    expect(await page.getByRole("alert").textContent()).toMatch(/domain must be a domain name without scheme/);
    expect(await page.getByLabel("Domain to watch").inputValue()).toBe("https://example.com/pricing");
    await expectGoodPage(watch, "monitor-refused");
    await page.close();
  });

  it("explains an unknown mailed link as soon as it is opened", async () => {
    const watch = await openPage();
    const { page } = watch;
    // An unknown link says so at once: there is no address to confirm, so no button.
    const confirm = await page.goto(`${origin}/monitor/confirm?token=svcmc_not-a-real-token`);
    expect(confirm?.status()).toBe(404);
    expect(await page.locator(".notice-title").textContent()).toBe("This confirmation link cannot be used.");
    expect(await page.getByRole("button", { name: "Confirm" }).count()).toBe(0);
    await expectGoodPage(watch, "monitor-confirm-unknown");

    const unsubscribe = await page.goto(`${origin}/monitor/unsubscribe?token=svcmu_not-a-real-token`);
    expect(unsubscribe?.status()).toBe(404);
    await expectGoodPage(watch, "monitor-unsubscribe-unknown");
    await page.close();
  });
});
