/**
 * A real browser for the browser tests: Playwright (playwright-core, no browser download of its own)
 * driving Debian's Chromium, headless with a fresh profile; axe-core's script evaluated in each page
 * to audit it; and screenshots of a page at desktop and phone width, written to dist/screenshots.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { expect } from "vitest";

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it when missing). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** No sandbox (CI runs as root), and nothing of Chromium's own that would reach the network. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
];

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export const SCREENSHOT_DIR = "dist/screenshots";

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh profile in a temporary folder, removed on close. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH}: apt-get install chromium (as .ci/run does), or set CHROMIUM_PATH`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), "chromium-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: DESKTOP,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * axe-core's violations on the page as it is now. Its script is evaluated through the DevTools
 * protocol, which the page's Content-Security-Policy does not govern, so the page keeps its own
 * policy while it is audited.
 */
export async function auditAccessibility(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(`axe.run(document, { resultTypes: ["violations"] }).then((results) =>
    results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((node) => node.target.join(" ")),
    })))`);
}

/** The serious and critical violations, one line each (an empty list passes). */
export async function seriousViolations(page: Page): Promise<string[]> {
  return (await auditAccessibility(page))
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} (${violation.targets.join(", ")})`);
}

/**
 * Screenshots of the whole page at desktop and phone width (`<name>-desktop.png`,
 * `<name>-phone.png`) and of its first screen (`…-fold.png`), and how far the page overflows the phone's width (0 when it fits). The
 * page is left at desktop width.
 */
export async function screenshotPage(
  page: Page,
  name: string,
): Promise<{ phoneOverflow: number; desktopOverflow: number }> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.setViewportSize(PHONE);
  const phoneOverflow = (await page.evaluate(
    "document.documentElement.scrollWidth - document.documentElement.clientWidth",
  )) as number;
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-phone.png`), fullPage: true });
  // What a person sees first, without scrolling: the part a look at the page starts with.
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-phone-fold.png`) });
  await page.setViewportSize(DESKTOP);
  const desktopOverflow = (await page.evaluate(
    "document.documentElement.scrollWidth - document.documentElement.clientWidth",
  )) as number;
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-desktop.png`), fullPage: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-desktop-fold.png`) });
  return { phoneOverflow, desktopOverflow };
}

/** What went wrong on a page while it was open: requests elsewhere, CSP reports, script errors. */
export interface PageWatch {
  page: Page;
  foreignRequests: string[];
  policyViolations: string[];
  scriptErrors: string[];
}

/** A new page of the browser, watched for requests to other origins, CSP reports and script errors. */
export async function watchPage(browser: Browser, origin: string): Promise<PageWatch> {
  const page = await browser.context.newPage();
  const watch: PageWatch = { page, foreignRequests: [], policyViolations: [], scriptErrors: [] };
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith("data:")) watch.foreignRequests.push(url);
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) watch.policyViolations.push(message.text());
  });
  page.on("pageerror", (error) => watch.scriptErrors.push(String(error)));
  return watch;
}

/**
 * The checks every page must pass, then its screenshots: no serious or critical axe violation, one
 * h1, nothing fetched from elsewhere, no policy violation or script error, nothing wider than a phone
 * (390 px) or a desktop (1280 px).
 */
export async function expectGoodPage(watch: PageWatch, name: string) {
  const { page } = watch;
  expect(await seriousViolations(page), `${name}: accessibility`).toEqual([]);
  expect(await page.locator("h1").count(), `${name}: one h1`).toBe(1);
  const { phoneOverflow, desktopOverflow } = await screenshotPage(page, name);
  expect(phoneOverflow, `${name}: wider than a 390 px phone by ${phoneOverflow} px`).toBeLessThanOrEqual(0);
  expect(desktopOverflow, `${name}: wider than 1280 px by ${desktopOverflow} px`).toBeLessThanOrEqual(0);
  expect(watch.foreignRequests, `${name}: requests to other origins`).toEqual([]);
  expect(watch.policyViolations, `${name}: Content-Security-Policy violations`).toEqual([]);
  expect(watch.scriptErrors, `${name}: script errors`).toEqual([]);
}
