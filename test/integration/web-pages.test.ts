/**
 * The pages for people inside workerd, as a browser reaches them: their status codes and caching,
 * hostile site names shown as text, the search receipt recorded with surface `web`, the result
 * selection of a report opened from the results, the live check, submit and MCP verification
 * forms with their refusals and limits, the badge of known and unknown domains, and the
 * Content-Security-Policy of every page (the one script named by its hash).
 */
import { describe, expect, it } from "vitest";
import { walkHtml } from "../../src/domain/classification/site-metadata.ts";
import { fixture, fixtureDomain } from "../support/fixture-web.ts";
import { insertScoreHistory, insertSites, sqlRows, uniqueToken } from "../support/sites.ts";
import { asClient, awayFromWindowEdge, call } from "../support/worker.ts";

const ORIGIN = "http://svc.test";

type Client = ReturnType<typeof asClient>;

/** Every start tag of a page, with its attributes and (for raw-text elements) its content. */
function tags(page: string) {
  const found: { name: string; attributes: Record<string, string>; content?: string }[] = [];
  walkHtml(page, (tag) => found.push({ name: tag.name, attributes: tag.attributes, content: tag.content }));
  return found;
}

/** The text of the page's main landmark with every tag removed (entities left as written). */
function mainText(page: string): string {
  const main = page.slice(page.indexOf("<main"), page.indexOf("</main>"));
  return main.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ");
}

/** The CSP directives as a map from name to its sources. */
function parseCsp(header: string | null): Map<string, string[]> {
  return new Map(
    (header ?? "")
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

async function sha256Base64(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

async function expectHtml(response: Response, status: number): Promise<string> {
  const page = await response.text();
  expect(response.status, page.slice(0, 2000)).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^text\/html; charset=utf-8$/i);
  expect(page.startsWith("<!doctype html>")).toBe(true);
  return page;
}

/** A browser's form POST from the service's own page. */
function postForm(client: Client, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return client(path, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: ORIGIN,
      "Sec-Fetch-Site": "same-origin",
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The search_id of the results' links. */
function searchIdOf(page: string): string | undefined {
  const link = tags(page).find((tag) => tag.name === "a" && tag.attributes.href?.includes("search_id="));
  return link ? (new URL(link.attributes.href!).searchParams.get("search_id") ?? undefined) : undefined;
}

describe("status codes and caching", () => {
  it.each([
    ["/", 200, "public, max-age=300"],
    ["/search", 200, "public, max-age=300"],
    ["/check", 200, "public, max-age=300"],
    ["/submit", 200, "public, max-age=300"],
    ["/verify-mcp", 200, "public, max-age=300"],
    ["/sites/no-such-site-anywhere.test", 404, "no-store"],
  ])("%s answers %i, cached as %s", async (path, status, cacheControl) => {
    const response = await asClient()(path);
    await expectHtml(response, status);
    expect(response.headers.get("cache-control")).toBe(cacheControl);
  });

  it("the 404 page of an unknown domain offers a live check of it", async () => {
    const page = await expectHtml(await asClient()("/sites/Unknown-Site.test"), 404);
    const form = tags(page).find((tag) => tag.name === "form" && tag.attributes.action === `${ORIGIN}/check`);
    expect(form?.attributes.method).toBe("post");
    expect(tags(page).find((tag) => tag.name === "input" && tag.attributes.name === "url")?.attributes.value).toBe(
      "https://Unknown-Site.test",
    );
  });

  it("a malformed search_id on a report is a 400 page", async () => {
    const t = uniqueToken();
    await insertSites([{ domain: `bad-id-${t}.test` }]);
    const page = await expectHtml(await asClient()(`/sites/bad-id-${t}.test?search_id=nope`), 400);
    expect(mainText(page)).toMatch(/search_id/);
  });

  it("other parameters on / are ignored: the home page, not a search", async () => {
    const response = await asClient()("/?utm_source=newsletter");
    const page = await expectHtml(response, 200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(page).not.toContain('class="results"');
  });
});

describe("search from the web", () => {
  it("runs with surface web, records the receipt, and links each result with its search_id", async () => {
    const t = uniqueToken();
    await insertSites([
      { domain: `web-a-${t}.test`, name: `${t} Alpha`, agenticScore: 90, hasMcpServer: true, tags: ["mcp"] },
      { domain: `web-b-${t}.test`, name: `${t} Beta`, agenticScore: 40 },
    ]);
    const response = await asClient()(`/search?q=${t}&category=&tag=&min_score=&has_api=`);
    const page = await expectHtml(response, 200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const searchId = searchIdOf(page);
    expect(searchId).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const receipts = await sqlRows<{ surface: string; synthetic: boolean }>(
      "select surface, synthetic from search_receipts where search_id = $1",
      [searchId],
    );
    expect(receipts).toEqual([{ surface: "web", synthetic: false }]);
    const results = await sqlRows<{ domain: string }>(
      "select domain from search_receipt_results where search_id = $1 order by position",
      [searchId],
    );
    expect(results.map((row) => row.domain)).toEqual([`web-a-${t}.test`, `web-b-${t}.test`]);

    const text = mainText(page);
    expect(text).toContain("2 sites match.");
    expect(text).toMatch(new RegExp(`${t} Alpha .* 90 /100`));
  });

  it("applies the filters the form sends, as the API does", async () => {
    const t = uniqueToken();
    await insertSites([
      { domain: `f-mcp-${t}.test`, name: `${t} One`, hasMcpServer: true, agenticScore: 70, category: "finance" },
      { domain: `f-none-${t}.test`, name: `${t} Two`, agenticScore: 70, category: "finance" },
      { domain: `f-data-${t}.test`, name: `${t} Three`, hasMcpServer: true, agenticScore: 70, category: "data" },
    ]);
    const page = await expectHtml(await asClient()(`/?q=${t}&category=finance&has_mcp=true`), 200);
    const domains = tags(page)
      .filter((tag) => tag.name === "a" && tag.attributes.href?.startsWith(`${ORIGIN}/sites/`))
      .map((tag) => new URL(tag.attributes.href!).pathname);
    expect(domains).toEqual([`/sites/f-mcp-${t}.test`]);
  });

  it("says so when a page is past the last one, and links to the last", async () => {
    const t = uniqueToken();
    await insertSites([{ domain: `past-${t}.test`, name: `${t} Past` }]);
    const page = await expectHtml(await asClient()(`/search?q=${t}&page=3`), 200);
    const text = mainText(page);
    expect(text).toContain("1 site matches.");
    expect(text).not.toContain("Showing");
    expect(text).toContain("This page is past the last one.");
    expect(tags(page).find((tag) => tag.name === "a" && tag.attributes.href?.includes(`q=${t}`))?.attributes.href).toBe(
      `${ORIGIN}/search?q=${t}`,
    );
  });

  it("honours X-SVC-Synthetic: true on the page's search", async () => {
    const t = uniqueToken();
    await insertSites([{ domain: `syn-${t}.test`, name: `${t} Synthetic` }]);
    const page = await expectHtml(await asClient()(`/search?q=${t}`, { headers: { "X-SVC-Synthetic": "true" } }), 200);
    const rows = await sqlRows<{ synthetic: boolean }>("select synthetic from search_receipts where search_id = $1", [
      searchIdOf(page),
    ]);
    expect(rows).toEqual([{ synthetic: true }]);
  });

  it("shows each invalid field in plain words with status 400, keeps what was typed, and counts nothing", async () => {
    const t = uniqueToken();
    const response = await asClient()(`/search?q=${t}&min_score=500&has_api=maybe&category=toys`);
    const page = await expectHtml(response, 400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const alert = page.slice(page.indexOf('role="alert"')).split("</div>")[0]!;
    expect(alert).toContain("Lowest score</a> must be at most 100.");
    expect(alert).toContain("Structured API</a> must be true or false.");
    expect(alert).toMatch(/Category<\/a> must be one of ai-tools, developer/);
    const input = tags(page).find((tag) => tag.name === "input" && tag.attributes.id === "min_score");
    expect(input?.attributes).toMatchObject({
      value: "500",
      "aria-invalid": "true",
      "aria-describedby": "min_score-error",
    });
    // The search never ran: no receipt to link results by, nothing counted on the limit.
    expect(page).not.toContain("search_id=");
    expect(response.headers.get("ratelimit-limit")).toBeNull();
  });
});

describe("hostile names", () => {
  const HOSTILE_NAME = `<script>alert("n")</script> Tools &amp; <img src=x onerror=alert(1)>`;
  const HOSTILE_DESCRIPTION = `"><svg onload=alert(2)> &lt;b&gt;bold&lt;/b&gt;`;

  async function hostileSite() {
    const t = uniqueToken();
    const domain = `hostile-${t}.test`;
    await insertSites([
      {
        domain,
        name: `${t} ${HOSTILE_NAME}`,
        description: HOSTILE_DESCRIPTION,
        tags: ["x-y"],
        signalEvidence: {
          has_llms_txt: {
            status: "error",
            reason: `<iframe src="javascript:alert(3)">`,
            fetched: [{ url: `https://${domain}/llms.txt?<script>`, status: null, content_type: `text/<b>` }],
          },
        } as never,
      },
    ]);
    return { t, domain };
  }

  /** No element or attribute a hostile value could have brought in. */
  function expectNoInjection(page: string) {
    const found = tags(page);
    expect(found.filter((tag) => tag.name === "iframe")).toEqual([]);
    expect(found.filter((tag) => tag.name === "img" && !tag.attributes.src?.startsWith(`${ORIGIN}/`))).toEqual([]);
    expect(found.filter((tag) => tag.name === "svg" && tag.attributes.role !== "img")).toEqual([]);
    expect(found.filter((tag) => tag.name === "script" && tag.content?.includes("alert"))).toEqual([]);
    expect(found.filter((tag) => Object.keys(tag.attributes).some((name) => name.startsWith("on")))).toEqual([]);
  }

  it("shows them as text in search results, their entities decoded once and escaped once", async () => {
    const { t } = await hostileSite();
    const page = await expectHtml(await asClient()(`/search?q=${t}`), 200);
    expectNoInjection(page);
    expect(page).toContain(
      `${t} &lt;script&gt;alert(&quot;n&quot;)&lt;/script&gt; Tools &amp; &lt;img src=x onerror=alert(1)&gt;`,
    );
    // Markup spelt with entities in the stored text is shown as that markup, never run as it.
    expect(page).toContain("&quot;&gt;&lt;svg onload=alert(2)&gt; &lt;b&gt;bold&lt;/b&gt;");
    expect(page).not.toContain("&amp;amp;");
    expect(page).not.toContain("<b>bold");
  });

  it("shows them as text on the report page, in its title, evidence and badge snippet", async () => {
    const { t, domain } = await hostileSite();
    const page = await expectHtml(await asClient()(`/sites/${domain}`), 200);
    expectNoInjection(page);
    expect(tags(page).find((tag) => tag.name === "h1")).toBeDefined();
    expect(page).toContain(`<span>${t} &lt;script&gt;alert(&quot;n&quot;)&lt;/script&gt; Tools &amp; &lt;img`);
    expect(page).toContain('<p class="lead">&quot;&gt;&lt;svg onload=alert(2)&gt; &lt;b&gt;bold&lt;/b&gt;</p>');
    expect(page).not.toContain("&amp;amp;");
    expect(page).toContain("&lt;iframe src=&quot;javascript:alert(3)&quot;&gt;");
    expect(page).toContain(`https://${domain}/llms.txt?&lt;script&gt;`);
    expect(page).toContain("text/&lt;b&gt;");
  });
});

describe("names and descriptions with character entities", () => {
  // As crawls store them (the interface keeps the entities): named, numeric and hexadecimal ones,
  // one without its semicolon as HTML allows, and a double-encoded one that must decode once only.
  const CASES = [
    { stored: "Atlas Inference &amp; Co", shown: "Atlas Inference &amp; Co" },
    { stored: "Caf&eacute; Robots &#8212; &#x201C;APIs&#x201D;", shown: "Café Robots — “APIs”" },
    { stored: "Tom &amp Jerry&hellip; &copy 2026", shown: "Tom &amp; Jerry… © 2026" },
    { stored: "Literally &amp;amp; in the title", shown: "Literally &amp;amp; in the title" },
  ];

  async function entitySites() {
    const t = uniqueToken();
    const sites = CASES.map((entry, i) => ({
      domain: `entities-${i}-${t}.test`,
      name: `${t} ${entry.stored}`,
      description: `About ${entry.stored}.`,
      agenticScore: 90 - i,
    }));
    await insertSites(sites);
    return { t, sites };
  }

  it("search results show the text the entities stand for, escaped once", async () => {
    const { t } = await entitySites();
    const page = await expectHtml(await asClient()(`/search?q=${t}`), 200);
    for (const entry of CASES) {
      expect(page).toContain(`>${t} ${entry.shown}</a>`);
      expect(page).toContain(`<p class="result-description">About ${entry.shown}.</p>`);
    }
    // The API keeps the stored text.
    const api = (await (await asClient()(`/api/v1/search?q=${t}`)).json()) as { results: { name: string }[] };
    expect(api.results.map((site) => site.name).sort()).toEqual(CASES.map((entry) => `${t} ${entry.stored}`).sort());
  });

  it("the report page shows them decoded in its heading, description and title", async () => {
    const { t, sites } = await entitySites();
    for (const [i, entry] of CASES.entries()) {
      const page = await expectHtml(await asClient()(`/sites/${sites[i]!.domain}`), 200);
      expect(page).toContain(`<span>${t} ${entry.shown}</span></h1>`);
      expect(page).toContain(`<p class="lead">About ${entry.shown}.</p>`);
      expect(page).toContain(`<title>${t} ${entry.shown} (${sites[i]!.domain})`);
    }
  });
});

describe("the site report", () => {
  it("shows the score, every signal's state, evidence and fix, the history chart and the badge snippet", async () => {
    const t = uniqueToken();
    const domain = `report-${t}.test`;
    const [site] = await insertSites([
      {
        domain,
        name: `${t} Report`,
        agenticScore: 35,
        hasLlmsTxt: true,
        hasOpenapi: true,
        signalEvidence: {
          has_llms_txt: {
            status: "present",
            reason: "llms.txt found at /llms.txt with an H1 title.",
            fetched: [{ url: `https://${domain}/llms.txt`, status: 200, content_type: "text/plain" }],
          },
          has_mcp_server: {
            status: "blocked",
            reason: "POST /mcp answered 403.",
            fetched: [{ url: `https://${domain}/mcp`, status: 403, content_type: "text/html" }],
          },
          has_robots_ai: { status: "error", reason: "robots.txt timed out.", fetched: [] },
        } as never,
      },
    ]);
    await insertScoreHistory(site!.id, [
      { agenticScore: 15, scoreVersion: 1, recordedAt: new Date("2026-01-05T00:00:00.000Z") },
      { agenticScore: 35, scoreVersion: 1, recordedAt: new Date("2026-02-05T00:00:00.000Z") },
    ]);
    const response = await asClient()(`/sites/${domain}`);
    const page = await expectHtml(response, 200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    const text = mainText(page);
    expect(text).toMatch(/35 \/100/);

    const statuses = Object.fromEntries(
      // Open cards have the id on their heading; present ones are folded into one line.
      [
        ...page.matchAll(
          /id="signal-(\w+)">(?:<details><summary>)?<span[^>]*>[^<]+<\/span> <span class="status status-(\w+)">/g,
        ),
      ].map((m) => [m[1], m[2]]),
    );
    expect(statuses).toEqual({
      has_llms_txt: "present",
      has_ai_plugin: "absent",
      has_openapi: "present",
      has_structured_api: "absent",
      has_mcp_server: "blocked",
      has_robots_ai: "error",
      has_schema_org: "absent",
    });
    expect(text).toContain("POST /mcp answered 403.");
    expect(text).toMatch(/Let the crawler through/);
    expect(text).toMatch(/robots\.txt timed out\./);
    expect(page).toContain('href="https://www.rfc-editor.org/rfc/rfc9309"');

    const chart = page.slice(page.indexOf('<figure class="chart">'), page.indexOf("</figure>"));
    expect(chart).toContain("<svg");
    expect(chart.match(/<circle /g)).toHaveLength(2);
    expect(chart).toContain("2 scores from 2026-01-05 (15) to 2026-02-05 (35).");

    const markdown = tags(page).find((tag) => tag.name === "textarea" && tag.attributes.id === "badge-markdown");
    expect(markdown).toBeDefined();
    expect(page).toContain(
      `[![agent ready: 35/100](${ORIGIN}/badge/${domain}.svg)](${ORIGIN}/sites/${domain})</textarea>`,
    );
    const again = tags(page).find((tag) => tag.name === "form" && tag.attributes.id === "check-again");
    expect(again?.attributes).toMatchObject({ action: `${ORIGIN}/check`, method: "post" });
  });

  it("offers no check again for a demo index site under .example, and says why", async () => {
    const t = uniqueToken();
    const demo = `demo-${t}.example`;
    await insertSites([{ domain: demo, name: `${t} Demo` }]);
    const page = await expectHtml(await asClient()(`/sites/${demo}`), 200);
    expect(tags(page).some((tag) => tag.name === "form" && tag.attributes.id === "check-again")).toBe(false);
    expect(page).not.toContain("Check again now");
    const text = mainText(page);
    expect(text).toContain("This site cannot be checked live.");
    expect(text).toMatch(
      new RegExp(`${demo.replaceAll(".", "\\.")} is under \\.example ?, a name reserved never to resolve`),
    );
    // A name that may resolve keeps its live check.
    const real = `real-${t}.test`;
    await insertSites([{ domain: real, name: `${t} Real` }]);
    const other = await expectHtml(await asClient()(`/sites/${real}`), 200);
    expect(tags(other).some((tag) => tag.name === "form" && tag.attributes.id === "check-again")).toBe(true);
  });

  it("records the selection of a result opened from the search page, once", async () => {
    const t = uniqueToken();
    const domain = `pick-web-${t}.test`;
    await insertSites([{ domain, name: `${t} Pick` }]);
    const client = asClient();
    const searchId = searchIdOf(await (await client(`/search?q=${t}`)).text());
    const opened = await client(`/sites/${domain}?search_id=${searchId}`);
    await expectHtml(opened, 200);
    expect(opened.headers.get("cache-control")).toBe("private, no-store");
    await client(`/sites/${domain}?search_id=${searchId}`);
    const rows = await sqlRows("select domain from result_selections where search_id = $1", [searchId]);
    expect(rows).toEqual([{ domain }]);
  });
});

describe("sites' icons", () => {
  const expectFallback = async (response: Response) => {
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    const svg = await response.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    return svg;
  };

  it("answers a plain letter, still an image, for a domain not indexed, one without an icon, and one whose icon is no image", async () => {
    const t = uniqueToken();
    await insertSites([
      { domain: `plain-${t}.test`, hasFavicon: false, faviconUrl: null },
      // The icon the crawl recorded answers a text document: never served as an image.
      { domain: `text-icon-${t}.test`, hasFavicon: true, faviconUrl: `${fixture("all-six-signals")}/llms.txt` },
    ]);
    expect(await expectFallback(await call(`/icons/not-indexed-${t}.test`))).toContain(">N</text>");
    expect(await expectFallback(await call(`/icons/plain-${t}.test`))).toContain(">P</text>");
    expect(await expectFallback(await call(`/icons/text-icon-${t}.test`))).toContain(">T</text>");
  });

  it("shows each result's icon from the service itself, and a letter where the index knows none", async () => {
    const t = uniqueToken();
    await insertSites([
      {
        domain: `with-icon-${t}.test`,
        name: `${t} With`,
        hasFavicon: true,
        faviconUrl: `https://with-icon-${t}.test/favicon.ico`,
      },
      { domain: `no-icon-${t}.test`, name: `${t} Without`, hasFavicon: false, faviconUrl: null },
    ]);
    const page = await (await asClient()(`/search?q=${t}`)).text();
    expect(page).toContain(
      `<img class="site-icon" src="${ORIGIN}/icons/with-icon-${t}.test" alt="" width="20" height="20" loading="lazy"`,
    );
    expect(page).not.toContain(`https://with-icon-${t}.test/favicon.ico`);
    expect(page).toContain('<span class="site-icon site-icon-fallback" aria-hidden="true" data-letter="N"></span>');
  });
});

describe("the check, submit and MCP verification forms", () => {
  it("POST /check runs the live check of a fixture site and shows its report", async () => {
    const response = await postForm(asClient(), "/check", { url: fixture("all-six-signals") });
    const page = await expectHtml(response, 200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("ratelimit-limit")).toBe("10");
    expect(tags(page).find((tag) => tag.name === "h1")).toBeDefined();
    expect(page).toContain(`<h1>Live check of ${fixtureDomain("all-six-signals")}</h1>`);
    expect(mainText(page)).toMatch(/80 \/100/);
    expect(page.match(/class="status status-present"/g)).toHaveLength(6);
  });

  it("assumes https:// when no scheme is typed, and explains a refused address on the form with 400", async () => {
    const client = asClient();
    const refused = await expectHtml(await postForm(client, "/check", { url: "ftp://files.test/" }), 400);
    expect(refused).toMatch(/<p id="check-url-error" class="field-error">url must be an absolute http or https URL/);
    expect(tags(refused).find((tag) => tag.attributes.id === "check-url")?.attributes.value).toBe("ftp://files.test/");

    const empty = await expectHtml(await postForm(client, "/check", { url: "  " }), 400);
    expect(empty).toContain("Enter a web address, such as https://example.com.");

    const unknownField = await expectHtml(await postForm(client, "/check", { url: "https://a.test", extra: "1" }), 400);
    expect(unknownField).toContain("This form takes only a web address");
  });

  it("refuses a POST a browser sends from another site, as a page, and checks nothing", async () => {
    const client = asClient();
    for (const headers of [
      { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.test" },
      { "Sec-Fetch-Site": "same-origin", Origin: "null" },
    ]) {
      const response = await postForm(client, "/check", { url: fixture("all-six-signals") }, headers);
      const page = await expectHtml(response, 403);
      expect(page).toContain("Browsers on other sites may not send this request.");
      // The refusal comes before the limit: nothing was counted.
      expect(response.headers.get("ratelimit-limit")).toBeNull();
    }
  });

  it("counts checks on the free limit shared with the API, and over it answers a 429 page with Retry-After", async () => {
    await awayFromWindowEdge(3600, 30);
    const client = asClient();
    for (let i = 0; i < 10; i++) {
      // Refused by the check itself, after the limit counted it: quick, and still one of the ten.
      const response = await postForm(client, "/check", { url: "ftp://files.test/" });
      expect(response.status, await response.text()).toBe(400);
    }
    const over = await postForm(client, "/check", { url: fixture("all-six-signals") });
    const page = await expectHtml(over, 429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(page).toMatch(/free limit of 10 requests per 1 h is used up/);
    const api = await client("/api/v1/check", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ url: fixture("all-six-signals") }),
    });
    expect(api.status).toBe(429);
  });

  it("POST /submit queues a crawl once, and says so; a refused address queues nothing", async () => {
    const t = uniqueToken();
    const client = asClient();
    const first = await expectHtml(await postForm(client, "/submit", { url: `submit-${t}.example` }), 200);
    expect(first).toContain(`submit-${t}.example is queued for a crawl.`);
    const again = await expectHtml(await postForm(client, "/submit", { url: `https://submit-${t}.example/x` }), 200);
    expect(again).toContain(`submit-${t}.example was already queued, at`);
    const rows = await sqlRows("select domain from crawl_requests where domain = $1", [`submit-${t}.example`]);
    expect(rows).toHaveLength(1);

    const refused = await expectHtml(await postForm(client, "/submit", { url: `ftp://refused-${t}.example` }), 400);
    expect(refused).toMatch(/url must be an absolute http or https URL/);
    expect(await sqlRows("select 1 from crawl_requests where domain = $1", [`refused-${t}.example`])).toEqual([]);
  });

  it("GET /verify-mcp?url= runs the handshake and says what it found", async () => {
    const response = await asClient()(`/verify-mcp?url=${encodeURIComponent(`${fixture("mcp-json")}/mcp`)}`);
    const page = await expectHtml(response, 200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(page).toContain("A working MCP server.");

    const bad = await expectHtml(await asClient()("/verify-mcp?url="), 400);
    expect(bad).toContain("Enter a web address");
  });
});

describe("the badge", () => {
  it("shows a known site's current score as SVG, cacheable", async () => {
    const t = uniqueToken();
    await insertSites([{ domain: `badge-${t}.test`, agenticScore: 85 }]);
    const response = await call(`/badge/badge-${t}.test.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(parseCsp(response.headers.get("content-security-policy")).get("default-src")).toEqual(["'none'"]);
    const svg = await response.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain(">85/100</text>");
    expect(svg).toContain(`<title>badge-${t}.test: agent ready 85/100</title>`);

    const mixedCase = await call(`/badge/BADGE-${t}.test.svg`);
    expect(await mixedCase.text()).toContain(">85/100</text>");
  });

  it("answers an unknown or malformed domain with a not-indexed badge and 404, escaping the name", async () => {
    const unknown = await call(`/badge/never-indexed-${uniqueToken()}.test.svg`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(unknown.headers.get("cache-control")).toBe("public, max-age=60");
    const svg = await unknown.text();
    expect(svg).toContain(">not indexed</text>");
    expect(svg).not.toMatch(/\d+\/100/);

    const hostile = await call(`/badge/${encodeURIComponent('<script>"x')}.svg`);
    expect(hostile.status).toBe(404);
    expect(await hostile.text()).toContain("<title>&lt;script&gt;&quot;x: not indexed</title>");
  });
});

describe("Content-Security-Policy", () => {
  it.each(["/", "/search?q=x", "/check", "/submit", "/verify-mcp", "/docs", "/privacy", "/sites/none.test"])(
    "%s loads nothing from elsewhere, and runs only the script its policy names by hash",
    async (path) => {
      const response = await asClient()(path);
      const page = await response.text();
      const csp = parseCsp(response.headers.get("content-security-policy"));
      expect(csp.get("default-src")).toEqual(["'none'"]);
      expect(csp.get("style-src")).toEqual(["'unsafe-inline'"]);
      expect(csp.get("img-src")).toEqual(["'self'", ORIGIN]);
      expect(csp.get("form-action")).toEqual(["'self'", ORIGIN]);
      expect(csp.get("base-uri")).toEqual(["'none'"]);
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("same-origin");

      const scripts = tags(page).filter(
        (tag) => tag.name === "script" && tag.attributes.type !== "application/ld+json",
      );
      expect(scripts.every((tag) => tag.attributes.src === undefined)).toBe(true);
      const hashes = await Promise.all(scripts.map(async (tag) => `'sha256-${await sha256Base64(tag.content ?? "")}'`));
      if (hashes.length) expect(csp.get("script-src")).toEqual([...new Set(hashes)]);
      else expect(csp.has("script-src")).toBe(false);
    },
  );
});
