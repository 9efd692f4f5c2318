/**
 * The provider console in a real browser, against the same `npm start` as the other pages: a
 * console page without a session is the sign-in form (401); then a person signs in through the
 * e-mailed link (read from the local outbox), claims a demo domain, publishes the TXT record in
 * the local DNS zone, verifies, copies the key shown once and uses it on the API, rotates it and
 * revokes the claim through their confirmation steps, and signs out. Every page passes the same
 * checks as the public ones (axe, CSP, no foreign requests, a 390 px phone) and is screenshotted.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Browser, expectGoodPage, launchBrowser, watchPage } from "../support/browser.ts";

const origin = inject("serviceOrigin");
const outbox = inject("outboxOrigin");
const dnsZone = inject("dnsZoneOrigin");

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
});

afterAll(async () => {
  await browser?.close();
});

const openPage = () => watchPage(browser, origin);

/** Clicks a button or link that loads a page, and gives the status of that page. */
async function submitAndLoad(page: Page, click: () => Promise<void>): Promise<number> {
  const [response] = await Promise.all([page.waitForNavigation({ waitUntil: "load" }), click()]);
  return response?.status() ?? 0;
}

/** The sign-in link of the newest message to `email` in the local outbox. */
async function signInLink(email: string): Promise<string> {
  const response = await fetch(`${outbox}/messages?to=${encodeURIComponent(email)}`);
  const [message] = (await response.json()) as { text: string | null }[];
  const link = /\S+\/sign-in\?token=\S+/.exec(message?.text ?? "")?.[0];
  if (!link) throw new Error(`no sign-in link for ${email}`);
  return link;
}

/** A domain of the demo index that nobody has claimed (each run of npm start has a fresh index). */
async function demoDomain(): Promise<string> {
  const response = await fetch(`${origin}/api/v1/search?q=&min_score=0`, { headers: { "X-SVC-Synthetic": "true" } });
  const { results } = (await response.json()) as { results: { domain: string }[] };
  const domain = results[results.length - 1]?.domain;
  if (!domain) throw new Error("the demo index is empty");
  return domain;
}

/** The API's pilot status with a provider key: its status. */
async function pilotStatusWith(key: string): Promise<number> {
  const response = await fetch(`${origin}/api/v1/provider/pilot-status`, {
    headers: { "X-SVC-Provider-Key": key },
  });
  await response.body?.cancel();
  return response.status;
}

describe("the provider console", () => {
  it("shows the sign-in form with status 401 to a browser without a session", async () => {
    const watch = await openPage();
    const { page } = watch;
    const response = await page.goto(`${origin}/console`);
    expect(response?.status()).toBe(401);
    expect(await page.locator(".notice-title").first().textContent()).toBe("Sign in to open the provider console.");
    expect(await page.locator("#sign-in-email").count()).toBe(1);
    await expectGoodPage(watch, "console-sign-in-required");
    await page.close();
  });

  it("signs in by mail, claims a domain, verifies it by DNS, shows the key once, reads demand, makes an offer, reads pilot status, rotates the key, revokes, signs out", async () => {
    const watch = await openPage();
    const { page } = watch;
    const email = `console-${Date.now().toString(36)}@example.com`;
    const domain = await demoDomain();

    // Sign in through the e-mailed link.
    await page.goto(`${origin}/sign-in`);
    await page.locator("#sign-in-email").fill(email);
    expect(await submitAndLoad(page, () => page.getByRole("button", { name: "E-mail me a link" }).click())).toBe(202);
    await page.goto(await signInLink(email));
    expect(await submitAndLoad(page, () => page.getByRole("button", { name: "Sign in" }).click())).toBe(200);
    await submitAndLoad(page, () => page.getByRole("link", { name: "Open the provider console" }).click());
    expect(page.url()).toBe(`${origin}/console`);
    expect(await page.locator(".session-bar").textContent()).toContain(email);
    await expectGoodPage(watch, "console-home");

    // A domain the index does not hold is refused on the form, as the API refuses it.
    await page.locator("#claim-domain").fill("not-in-the-index.example");
    expect(await submitAndLoad(page, () => page.getByRole("button", { name: "Claim" }).click())).toBe(404);
    expect(await page.locator("#claim-domain-error").textContent()).toMatch(/is not in the index/);
    expect(await page.locator("#claim-domain").getAttribute("aria-invalid")).toBe("true");
    await expectGoodPage(watch, "console-claim-refused");

    // Claim: the record to publish, shown once, with working copy buttons.
    await page.locator("#claim-domain").fill(domain);
    expect(await submitAndLoad(page, () => page.getByRole("button", { name: "Claim" }).click())).toBe(200);
    const recordName = await page.locator("#record-name").inputValue();
    const recordValue = await page.locator("#record-value").inputValue();
    expect(recordName).toBe(`_agent-readiness-challenge.${domain}`);
    expect(recordValue).toMatch(/^svc-domain-verification=[A-Za-z0-9_-]{43}$/);
    await page.getByRole("button", { name: "Copy record value" }).click();
    await page.locator("#record-value-copied").filter({ hasText: "Copied." }).waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(recordValue);
    await expectGoodPage(watch, "console-claim-challenge");

    // Verifying before the record is published: refused on the claim's page, nothing issued.
    expect(await submitAndLoad(page, () => page.getByRole("button", { name: "Verify now" }).click())).toBe(409);
    expect(await page.getByRole("alert").textContent()).toMatch(/Ownership not proven/);
    expect(await page.locator("#provider-key").count()).toBe(0);
    await expectGoodPage(watch, "console-verify-refused");

    // Publish the record in the local zone, verify: the key, once.
    const published = await fetch(`${dnsZone}/records`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: recordName, type: "TXT", value: recordValue }),
    });
    expect(published.status).toBe(201);
    expect(await submitAndLoad(page, () => page.getByRole("button", { name: "Verify now" }).click())).toBe(200);
    const key = await page.locator("#provider-key").inputValue();
    expect(key).toMatch(/^svcpk_[A-Za-z0-9_-]{43}$/);
    await page.getByRole("button", { name: "Copy provider key" }).click();
    await page.locator("#provider-key-copied").filter({ hasText: "Copied." }).waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(key);
    await expectGoodPage(watch, "console-key-shown");
    expect(await pilotStatusWith(key)).toBe(200);

    // The claim's page, opened again (reloading the verification's address leads there), never
    // shows the key or the challenge value.
    expect(page.url()).toMatch(/\/console\/claims\/[0-9a-f-]{36}\/verify$/);
    const claimPage = page.url().replace(/\/verify$/, "");
    expect(await page.goto(page.url()).then((answer) => answer?.status())).toBe(200);
    expect(page.url()).toBe(claimPage);
    const html = await page.content();
    expect(html).not.toContain(key);
    expect(html).not.toContain(recordValue);
    expect(await page.locator(".claim-facts .status").textContent()).toBe("Verified");
    await expectGoodPage(watch, "console-claim-verified");

    // Demand for the verified claim (a fresh demo domain: no searches yet, so no chart), a period
    // chosen by the form.
    await submitAndLoad(page, () => page.getByRole("link", { name: `Demand for ${domain}` }).click());
    expect(await page.locator("h1").textContent()).toBe(`Demand for ${domain}`);
    await page.locator("#demand-days").selectOption("7");
    await submitAndLoad(page, () => page.getByRole("button", { name: "Show" }).click());
    expect(new URL(page.url()).searchParams.get("days")).toBe("7");
    expect(await page.locator("#surfaces-heading ~ table tbody tr").count()).toBe(4);
    await expectGoodPage(watch, "console-demand");
    await page.goto(claimPage);

    // An offer: created as a draft, edited into version 2, its terms hash shown with the text it hashes.
    await submitAndLoad(page, () => page.getByRole("link", { name: `Offers of ${domain}` }).click());
    await expectGoodPage(watch, "console-offers-empty");
    await submitAndLoad(page, () => page.getByRole("link", { name: "New offer" }).click());
    await page.locator("#offer-name").fill("Book a demo");
    await page.locator("#offer-summary").fill("A 30-minute demo with an engineer.");
    await page.locator("#offer-action-type").selectOption("demo");
    await page.locator("#offer-bounty-cents").fill("500");
    await page.locator("#offer-action-url").fill(`https://${domain}/demo`);
    await expectGoodPage(watch, "console-offer-new");
    expect(await submitAndLoad(page, () => page.getByRole("button", { name: "Create the draft" }).click())).toBe(200);
    expect(await page.locator(".notice-title").first().textContent()).toBe("Draft created.");
    const firstHash = await page.locator("#terms-heading + p code").textContent();
    expect(firstHash).toMatch(/^[0-9a-f]{64}$/);
    await page.locator("#offer-bounty-cents").fill("700");
    expect(await submitAndLoad(page, () => page.getByRole("button", { name: "Save a new version" }).click())).toBe(200);
    expect(await page.locator(".notice-title").first().textContent()).toBe("Version 2 saved.");
    expect(await page.locator("#terms-heading + p code").textContent()).not.toBe(firstHash);
    expect(await page.locator("#canonical-terms").inputValue()).toContain('"bounty_cents":700');
    await expectGoodPage(watch, "console-offer");
    await submitAndLoad(page, () => page.getByRole("link", { name: "Offers", exact: true }).click());
    expect(await page.locator("table.stacking tbody tr").count()).toBe(1);
    await expectGoodPage(watch, "console-offers");
    await page.goto(claimPage);

    // Pilot status: the same record the API gives the key, as tables.
    await submitAndLoad(page, () => page.getByRole("link", { name: `Pilot status of ${domain}` }).click());
    expect(await page.locator("#offers-heading + table tbody tr").count()).toBe(1);
    await expectGoodPage(watch, "console-pilot-status");
    await page.goto(claimPage);

    // Rotation: a confirmation step, then a new key; the old one stops working.
    await submitAndLoad(page, () => page.getByRole("link", { name: "Rotate the key…" }).click());
    expect(await page.locator("h1").textContent()).toBe(`Rotate the provider key of ${domain}?`);
    await expectGoodPage(watch, "console-rotate-confirm");
    expect(await submitAndLoad(page, () => page.getByRole("button", { name: "Rotate the key" }).click())).toBe(200);
    const rotated = await page.locator("#provider-key").inputValue();
    expect(rotated).not.toBe(key);
    expect(await pilotStatusWith(key)).toBe(401);
    expect(await pilotStatusWith(rotated)).toBe(200);

    // Revocation: a confirmation step, then the claim and its key end.
    await page.goto(claimPage);
    await submitAndLoad(page, () => page.getByRole("link", { name: "Revoke the claim…" }).click());
    expect(await page.locator("h1").textContent()).toBe(`Revoke the claim of ${domain}?`);
    await expectGoodPage(watch, "console-revoke-confirm");
    expect(await submitAndLoad(page, () => page.getByRole("button", { name: "Revoke the claim" }).click())).toBe(200);
    expect(await page.locator(".claim-facts .status").textContent()).toBe("Revoked");
    expect(await pilotStatusWith(rotated)).toBe(401);
    await expectGoodPage(watch, "console-claim-revoked");

    // The home lists the revoked claim; signing out ends the session.
    await page.goto(`${origin}/console`);
    expect(await page.locator("table.stacking tbody tr").count()).toBe(1);
    expect(await page.locator("table.stacking tbody .status").textContent()).toBe("Revoked");
    expect(await submitAndLoad(page, () => page.getByRole("button", { name: "Sign out" }).click())).toBe(200);
    expect(await page.locator(".notice-title").first().textContent()).toBe("Signed out.");
    await expectGoodPage(watch, "console-signed-out");
    expect(await page.goto(`${origin}/console`).then((answer) => answer?.status())).toBe(401);
    await page.close();
  }, 180_000);
});
