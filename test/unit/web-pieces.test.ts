/**
 * The pure parts of the pages for people, with fixed vectors: the badge (its text, colour bands,
 * size and escaping), where the score chart draws its points, how the search form is read, and
 * how a typed web address is read.
 */
import { describe, expect, it } from "vitest";
import { readSearchForm } from "../../src/routes/web/home-page.ts";
import { validateUrlForm, withAssumedScheme } from "../../src/routes/web/url-form.ts";
import { BADGE_HEIGHT, badgeMessage, badgeWidth, renderBadge, scoreBand, scoreColour } from "../../src/web/badge.ts";
import { badgeSnippets } from "../../src/web/pages/site-report.tsx";
import { plotPoints } from "../../src/web/score-chart.tsx";

/** WCAG relative luminance contrast of white text on a #rrggbb colour. */
function contrastWithWhite(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return 1.05 / (luminance + 0.05);
}

describe("the badge", () => {
  it("says the score out of 100, or that the site is not indexed", () => {
    expect(badgeMessage({ kind: "score", score: 85 })).toBe("85/100");
    expect(badgeMessage({ kind: "score", score: 0 })).toBe("0/100");
    expect(badgeMessage({ kind: "not_indexed" })).toBe("not indexed");
  });

  it("colours four bands, each readable in white (contrast at least 4.5:1)", () => {
    expect([100, 80, 79, 50, 49, 20, 19, 0].map(scoreBand)).toEqual([
      "high",
      "high",
      "mid",
      "mid",
      "low",
      "low",
      "poor",
      "poor",
    ]);
    for (const score of [100, 60, 30, 0]) expect(contrastWithWhite(scoreColour(score))).toBeGreaterThanOrEqual(4.5);
  });

  it("is a sized SVG whose texts fit their boxes, with its width matching the HTML snippet's", () => {
    const svg = renderBadge({ kind: "score", score: 100 }, "example.com: agent ready 100/100");
    const width = badgeWidth({ kind: "score", score: 100 });
    expect(svg).toMatch(
      new RegExp(
        `^<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${BADGE_HEIGHT}" viewBox="0 0 ${width} ${BADGE_HEIGHT}" role="img"`,
      ),
    );
    expect(svg).toContain(">agent ready</text>");
    expect(svg).toContain(">100/100</text>");
    expect(svg).toContain(`fill="${scoreColour(100)}"`);
    expect(badgeWidth({ kind: "not_indexed" })).toBeGreaterThan(badgeWidth({ kind: "score", score: 5 }));
    expect(badgeSnippets("https://ars.test", "example.com", 100).html).toBe(
      `<a href="https://ars.test/sites/example.com"><img src="https://ars.test/badge/example.com.svg" alt="agent ready: 100/100" width="${width}" height="20"></a>`,
    );
  });

  it("escapes its title, so no name can add markup to the image", () => {
    const svg = renderBadge({ kind: "not_indexed" }, `"><script>alert(1)</script>&`);
    expect(svg).not.toContain("<script");
    expect(svg).toContain("<title>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;</title>");
    expect(svg).toContain('aria-label="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;"');
  });
});

describe("the score chart", () => {
  it("draws the oldest score on the left and the newest on the right, spaced by time", () => {
    const points = plotPoints([
      { agentic_score: 100, recorded_at: "2026-03-01T00:00:00.000Z" },
      { agentic_score: 0, recorded_at: "2026-01-01T00:00:00.000Z" },
      { agentic_score: 50, recorded_at: "2026-02-15T00:00:00.000Z" },
    ]);
    expect(points.map((p) => p.point.agentic_score)).toEqual([0, 50, 100]);
    const [oldest, middle, newest] = points as [(typeof points)[0], (typeof points)[0], (typeof points)[0]];
    expect(oldest.x).toBe(30);
    expect(newest.x).toBe(348);
    // 45 of 59 days in.
    expect(middle.x).toBeCloseTo(30 + (45 / 59) * 318, 0);
    expect(oldest.y).toBe(126);
    expect(newest.y).toBe(10);
    expect(middle.y).toBe(68);
  });

  it("centres a single score, and spreads scores recorded at one instant evenly", () => {
    expect(plotPoints([{ agentic_score: 40, recorded_at: "2026-01-01T00:00:00.000Z" }])[0]!.x).toBe(189);
    const same = plotPoints([
      { agentic_score: 10, recorded_at: "2026-01-01T00:00:00.000Z" },
      { agentic_score: 20, recorded_at: "2026-01-01T00:00:00.000Z" },
      { agentic_score: 30, recorded_at: "2026-01-01T00:00:00.000Z" },
    ]);
    expect(same.map((p) => p.x)).toEqual([30, 189, 348]);
  });
});

describe("the search form", () => {
  it("is sent when any of its fields is present, even empty; other parameters do not count", () => {
    expect(readSearchForm(new URLSearchParams(""))).toBeNull();
    expect(readSearchForm(new URLSearchParams("utm_source=mail&fbclid=1"))).toBeNull();
    expect(readSearchForm(new URLSearchParams("q="))).toEqual({ q: "" });
    expect(readSearchForm(new URLSearchParams("q=maps&q=other&category=data&utm_source=x"))).toEqual({
      q: "maps",
      category: "data",
    });
  });
});

describe("a typed web address", () => {
  it("gets https:// when it names no scheme, and keeps any scheme it names", () => {
    expect(withAssumedScheme("  example.com/path ")).toBe("https://example.com/path");
    expect(withAssumedScheme("http://example.com")).toBe("http://example.com");
    expect(withAssumedScheme("FTP://example.com")).toBe("FTP://example.com");
    expect(withAssumedScheme("example.com:8080")).toBe("https://example.com:8080");
  });

  it("is refused in plain words when empty, too long, or sent with other fields", () => {
    expect(validateUrlForm({})).toMatchObject({
      ok: false,
      error: "Enter a web address, such as https://example.com.",
    });
    expect(validateUrlForm({ url: "   " })).toMatchObject({ ok: false, typed: "   " });
    expect(validateUrlForm({ url: `https://e.com/${"a".repeat(2048)}` })).toMatchObject({
      ok: false,
      error: "The web address must be at most 2048 characters.",
    });
    expect(validateUrlForm({ url: "e.com", other: "1" })).toMatchObject({
      ok: false,
      error: "This form takes only a web address; please send it from the page.",
    });
    expect(validateUrlForm({ url: " e.com " })).toEqual({ ok: true, typed: " e.com ", url: "https://e.com" });
  });
});
