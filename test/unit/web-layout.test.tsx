/**
 * The one layout of the pages for people: every page served through it has the same document
 * head, landmarks, site navigation and Content-Security-Policy (a page that runs the progress
 * script names exactly it, by hash), and whatever a page puts in it
 * (titles, names, data) is shown as text, never read as markup.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { type HtmlTag, walkHtml } from "../../src/domain/classification/site-metadata.ts";
import { buildSiteLinks } from "../../src/domain/descriptor/site-documents.ts";
import { createDiscoveryGroup } from "../../src/routes/discovery/index.ts";
import { createWebGroup } from "../../src/routes/web/index.ts";
import { JsonLd } from "../../src/web/json-ld.tsx";
import { Layout } from "../../src/web/layout.tsx";
import { PROGRESS_SCRIPT } from "../../src/web/progress-script.ts";
import { renderPage } from "../../src/web/render-page.ts";

const ORIGIN = "https://ars.test";
const links = buildSiteLinks(ORIGIN);

// Settings the dependencies middleware validates; nothing here talks to a store.
const BINDINGS = {
  DATABASE_URL: "postgres://unused:unused@127.0.0.1:9/unused",
  UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9",
  UPSTASH_REDIS_REST_TOKEN: "unused",
  PUBLIC_ORIGIN: ORIGIN,
};

const PAGES = [
  { path: "/", url: links.home, current: [links.home], script: false },
  { path: "/search", url: links.search, current: [links.home], script: false },
  { path: "/check", url: links.check, current: [links.check], script: true },
  { path: "/submit", url: links.submit, current: [], script: false },
  { path: "/verify-mcp", url: links.verifyMcp, current: [], script: true },
  { path: "/docs", url: links.docs, current: [links.docs], script: false },
  { path: "/privacy", url: links.privacy, current: [links.privacy], script: false },
];

function startTags(page: string): HtmlTag[] {
  const tags: HtmlTag[] = [];
  walkHtml(page, (tag) => tags.push(tag));
  return tags;
}

/** The CSP directives as a map from name to its sources. */
function parseCsp(header: string): Map<string, string[]> {
  return new Map(
    header
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

async function getPage(path: string): Promise<Response> {
  const app = createApp([createDiscoveryGroup(), createWebGroup()]);
  return app.fetch(new Request(`${ORIGIN}${path}`), BINDINGS);
}

describe.each(PAGES)("the page at $path", ({ path, url, current, script }) => {
  it("is one HTML document in the shared layout: lang, charset, viewport, title, description, canonical, icon", async () => {
    const response = await getPage(path);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page.startsWith("<!doctype html>")).toBe(true);
    const tags = startTags(page);
    const named = (name: string) => tags.filter((tag) => tag.name === name);
    expect(named("html")).toEqual([expect.objectContaining({ attributes: { lang: "en" } })]);
    expect(named("meta")).toContainEqual(expect.objectContaining({ attributes: { charset: "utf-8" } }));
    expect(named("meta")).toContainEqual(
      expect.objectContaining({ attributes: { name: "viewport", content: "width=device-width, initial-scale=1" } }),
    );
    expect(named("title")).toHaveLength(1);
    expect(named("title")[0]?.content).toMatch(/\S/);
    expect(named("meta").filter((tag) => tag.attributes.name === "description")).toHaveLength(1);
    expect(named("link")).toContainEqual(expect.objectContaining({ attributes: { rel: "canonical", href: url } }));
    expect(named("link")).toContainEqual(
      expect.objectContaining({ attributes: { rel: "icon", href: links.favicon, type: "image/svg+xml" } }),
    );
  });

  it("has the landmarks once each (header, site navigation, main, footer), a skip link, and marks itself current", async () => {
    const page = await (await getPage(path)).text();
    const tags = startTags(page);
    const count = (name: string) => tags.filter((tag) => tag.name === name).length;
    expect(count("header")).toBe(1);
    expect(count("main")).toBe(1);
    expect(count("footer")).toBe(1);
    expect(count("h1")).toBe(1);
    const main = tags.find((tag) => tag.name === "main")!;
    const anchors = tags.filter((tag) => tag.name === "a");
    expect(anchors[0]?.attributes.href, "the first link skips to the main content").toBe(`#${main.attributes.id}`);

    const siteNav = page.slice(page.indexOf('aria-label="Site"')).split("</nav>")[0]!;
    const navLinks = startTags(siteNav).filter((tag) => tag.name === "a");
    expect(navLinks.map((a) => a.attributes.href)).toEqual([
      links.home,
      links.check,
      links.docs,
      links.privacy,
      links.descriptor,
    ]);
    expect(navLinks.filter((a) => a.attributes["aria-current"] === "page").map((a) => a.attributes.href)).toEqual(
      current,
    );
  });

  it("loads nothing from elsewhere: one inline stylesheet, no script but JSON-LD and the progress script, under a strict CSP", async () => {
    const response = await getPage(path);
    const tags = startTags(await response.text());
    expect(tags.filter((tag) => tag.name === "style")).toHaveLength(1);
    expect(tags.filter((tag) => tag.name === "link" && tag.attributes.rel === "stylesheet")).toEqual([]);
    const scripts = tags.filter((tag) => tag.name === "script" && tag.attributes.type !== "application/ld+json");
    expect(scripts.map((tag) => tag.content)).toEqual(script ? [PROGRESS_SCRIPT] : []);
    expect(scripts.every((tag) => Object.keys(tag.attributes).length === 0)).toBe(true);
    expect(tags.filter((tag) => tag.attributes.style !== undefined)).toEqual([]);

    const csp = parseCsp(response.headers.get("content-security-policy") ?? "");
    expect(csp.get("default-src")).toEqual(["'none'"]);
    // Exactly the page's script may run, named by the SHA-256 of its text.
    const digest = createHash("sha256").update(PROGRESS_SCRIPT).digest("base64");
    expect(csp.get("script-src")).toEqual(script ? [`'sha256-${digest}'`] : undefined);
    expect(csp.get("style-src")).toEqual(["'unsafe-inline'"]);
    expect(csp.get("img-src")).toEqual(["'self'", ORIGIN]);
    expect(csp.get("form-action")).toEqual(["'self'", ORIGIN]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
  });
});

describe("the layout, given hostile text", () => {
  const HOSTILE_TITLE = `</title><script>alert("t")</script>`;
  const HOSTILE_DESCRIPTION = `" onmouseover="alert(1)`;
  // A name as a site may publish it, entity and all: it must show exactly so, as text.
  const ENTITY_NAME = "AT&amp;T <b>Labs</b>";

  async function renderHostile(): Promise<string> {
    return renderPage(
      <Layout
        origin={ORIGIN}
        url={`${ORIGIN}/site/x?q="><script>`}
        title={HOSTILE_TITLE}
        description={HOSTILE_DESCRIPTION}
        head={<JsonLd data={{ name: "</script><script>alert(1)</script>", note: "<!-- open" }} />}
      >
        <h1>{ENTITY_NAME}</h1>
      </Layout>,
    );
  }

  it("escapes the title, description, URL and content, so no tag or attribute is injected", async () => {
    const page = await renderHostile();
    const tags = startTags(page);
    expect(tags.filter((tag) => tag.name === "script").map((tag) => tag.attributes.type)).toEqual([
      "application/ld+json",
    ]);
    expect(tags.filter((tag) => tag.name === "b")).toEqual([]);
    expect(tags.some((tag) => "onmouseover" in tag.attributes)).toBe(false);
    expect(page).toContain("<title>&lt;/title&gt;&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;</title>");
    expect(tags.find((tag) => tag.name === "meta" && tag.attributes.name === "description")?.attributes.content).toBe(
      HOSTILE_DESCRIPTION,
    );
    expect(tags.find((tag) => tag.name === "link" && tag.attributes.rel === "canonical")?.attributes.href).toBe(
      `${ORIGIN}/site/x?q="><script>`,
    );
  });

  it("shows a name holding an HTML entity as that text, not as the character it names", async () => {
    const page = await renderHostile();
    expect(page).toContain("<h1>AT&amp;amp;T &lt;b&gt;Labs&lt;/b&gt;</h1>");
  });

  it("keeps a JSON-LD block closed: `<` escaped inside, the data intact", async () => {
    const page = await renderHostile();
    const blocks = startTags(page).filter((tag) => tag.name === "script");
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.content).not.toContain("<");
    expect(JSON.parse(blocks[0]?.content ?? "")).toEqual({
      name: "</script><script>alert(1)</script>",
      note: "<!-- open",
    });
  });

  it("places the page's content in the main landmark, after the header and before the footer", async () => {
    const page = await renderHostile();
    const order = startTags(page)
      .map((tag) => tag.name)
      .filter((name) => ["header", "nav", "main", "h1", "footer"].includes(name));
    expect(order).toEqual(["header", "nav", "main", "h1", "footer", "nav"]);
  });
});
