/**
 * The state of the agent web (/state) in a real browser against `npm start` and its demo year of
 * rollups: reached from the home page, every signal and check charted with a text alternative,
 * the latest figures reordered and narrowed to a category by plain links (no script runs), the
 * JSON's latest figures in the table; no serious axe-core violation, nothing wider than a 390 px
 * phone, screenshots in dist/screenshots.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CHECK_IDS } from "../../src/domain/checklist/checklist-definition.ts";
import { SIGNAL_FIELDS } from "../../src/domain/sites/site-fields.ts";
import { type Browser, expectGoodPage, launchBrowser, watchPage } from "../support/browser.ts";

const origin = inject("serviceOrigin");

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe("the state of the agent web", () => {
  it("shows a year of every signal and check, the JSON's latest figures, and sorts and narrows by links", async () => {
    const watch = await watchPage(browser, origin);
    const { page } = watch;
    await page.goto(`${origin}/`);
    await Promise.all([
      page.waitForURL(/\/state$/),
      page.getByRole("main").getByRole("link", { name: "The state of the agent web" }).click(),
    ]);
    expect(await page.locator("h1").textContent()).toBe("The state of the agent web");
    // Every signal and check has a chart, each an image named and described in words.
    const charts = page.locator("#over-time svg[role=img]");
    expect(await charts.count()).toBe(SIGNAL_FIELDS.length + CHECK_IDS.length + 4);
    const llms = page.locator("#chart-has_llms_txt-desc");
    expect(await llms.textContent()).toMatch(
      /^\d+\.\d\d % on \d{4}-\d\d-\d\d, \d+\.\d\d % on \d{4}-\d\d-\d\d \(\d+ of \d+ sites\)/,
    );
    // The demo year: the first day shown is 364 days before the last.
    const days = (await llms.textContent())!.match(/\d{4}-\d\d-\d\d/g)!;
    expect((Date.parse(days[1]!) - Date.parse(days[0]!)) / 86_400_000).toBe(364);
    await expectGoodPage(watch, "state");

    // The charts come first, the big table after; each group of charts shares one scale, and each
    // chart has its values behind a toggle.
    expect(
      await page.evaluate(
        `document.querySelector("#over-time").compareDocumentPosition(document.querySelector("#latest")) & Node.DOCUMENT_POSITION_FOLLOWING`,
      ),
    ).toBeTruthy();
    const groupTops = await page
      .locator("#charts-signals ~ .chart-grid")
      .first()
      .locator("svg")
      .evaluateAll((svgs) =>
        svgs.map(
          (svg) =>
            [
              ...(svg as unknown as { querySelectorAll(s: string): { textContent: string }[] }).querySelectorAll(
                "text",
              ),
            ].map((text) => text.textContent)[2],
        ),
      );
    expect(new Set(groupTops).size, `the signals' axis tops: ${groupTops}`).toBe(1);
    expect(await page.locator("#over-time figure.adoption-chart").count()).toBe(
      await page.locator("#over-time figure.adoption-chart details > summary").count(),
    );

    // The table holds the JSON's latest figures.
    const json = (await (await fetch(`${origin}/api/v1/stats/adoption?days=365`)).json()) as {
      to: string;
      rows: { day: string; item: string; kind: string; sites: number; with_item: number; share: number }[];
    };
    for (const row of json.rows.filter((each) => each.day === json.to && each.kind !== "mcp_endpoint")) {
      const cells = page.locator(`#latest tr[data-item="${row.item}"] td[data-value]`);
      expect(
        await cells.evaluateAll((tds) =>
          tds.map((td) => Number((td as unknown as { dataset: { value: string } }).dataset.value)),
        ),
      ).toEqual([row.sites, row.with_item, row.share]);
    }

    // Sorting and narrowing are links: the order follows the share, the category stays.
    await Promise.all([
      page.waitForURL(/category=finance/),
      page.getByRole("link", { name: "finance", exact: true }).click(),
    ]);
    await Promise.all([
      page.waitForURL(/sort=share/),
      page.getByRole("link", { name: "share, highest first" }).click(),
    ]);
    expect(new URL(page.url()).searchParams.get("category")).toBe("finance");
    const shares = await page
      .locator("#latest td[data-label=Share]")
      .evaluateAll((tds) => tds.map((td) => Number((td as unknown as { dataset: { value: string } }).dataset.value)));
    expect(shares.length).toBe(SIGNAL_FIELDS.length + CHECK_IDS.length);
    expect([...shares].sort((a, b) => b - a)).toEqual(shares);
    expect(await page.locator("#mcp-endpoints table tr[data-item]").count()).toBe(4);
    await expectGoodPage(watch, "state-finance-by-share");
    await page.close();
  });
});
