import { describe, expect, it } from "vitest";
import { classifySite, isSpamSite, scoreCategories } from "../../src/domain/classification/classify-site.ts";
import {
  decodeHtmlEntities,
  extractPageText,
  extractSiteMetadata,
  walkHtml,
} from "../../src/domain/classification/site-metadata.ts";
import type { Signals } from "../../src/domain/scoring/agentic-score.ts";
import type { ProbeAnswer } from "../../src/domain/signals/types.ts";
import { DISCOVERY_CATEGORIES } from "../../src/domain/sites/list-categories.ts";
import type { Category } from "../../src/domain/sites/site-fields.ts";

const ORIGIN = "https://shop.example";

function home(body: string, status = 200, url = `${ORIGIN}/`): ProbeAnswer {
  return {
    ok: true,
    url,
    finalUrl: url,
    redirects: [],
    status,
    headers: new Headers({ "content-type": "text/html" }),
    contentType: "text/html",
    body,
  };
}

const NO_SIGNALS: Signals = {
  has_llms_txt: false,
  has_ai_plugin: false,
  has_openapi: false,
  has_structured_api: false,
  has_mcp_server: false,
  has_robots_ai: false,
  has_schema_org: false,
};

describe("extractSiteMetadata", () => {
  it("prefers og:site_name, then application-name, then the title", () => {
    const head = (extra: string) => home(`<html><head><title> The  Title </title>${extra}</head><body></body></html>`);
    expect(
      extractSiteMetadata(
        home(
          '<head><meta content="Acme &amp; Co" property="og:site_name"><meta name=application-name content=AcmeApp><title>T</title></head>',
        ),
        ORIGIN,
      ).name,
    ).toBe("Acme & Co");
    expect(extractSiteMetadata(head("<meta name='application-name' content='AcmeApp'>"), ORIGIN).name).toBe("AcmeApp");
    expect(extractSiteMetadata(head('<meta property="og:site_name" content="  ">'), ORIGIN).name).toBe("The Title");
  });

  it("decodes entities in the title (every named one, through the entities package), collapses whitespace and cuts to 200 characters", () => {
    const title = `Caf&eacute; &#8211; &#x1F600; &lt;Fresh&gt;\n  bread &amp; more`;
    expect(extractSiteMetadata(home(`<title>${title}</title>`), ORIGIN).name).toBe("Café – 😀 <Fresh> bread & more");
    const long = "😀".repeat(250);
    const name = extractSiteMetadata(home(`<title>${long}</title>`), ORIGIN).name;
    expect(Array.from(name)).toHaveLength(200);
  });

  it("falls back to the host when there is no name or no usable home page", () => {
    expect(extractSiteMetadata(home("<p>no head</p>"), ORIGIN)).toEqual({
      name: "shop.example",
      description: "",
      faviconUrl: null,
    });
    expect(extractSiteMetadata(null, "https://www.example.org")).toEqual({
      name: "www.example.org",
      description: "",
      faviconUrl: null,
    });
    expect(extractSiteMetadata(home("<title>Gone</title>", 404), ORIGIN).name).toBe("shop.example");
  });

  it("takes the meta description, then og:description, cut to 1000 characters", () => {
    expect(
      extractSiteMetadata(
        home('<meta property="og:description" content="OG"><meta name="Description" content=" Plain\n text ">'),
        ORIGIN,
      ).description,
    ).toBe("Plain text");
    expect(extractSiteMetadata(home('<meta property="og:description" content="OG text">'), ORIGIN).description).toBe(
      "OG text",
    );
    const long = "abcd".repeat(400);
    expect(extractSiteMetadata(home(`<meta name="description" content="${long}">`), ORIGIN).description).toHaveLength(
      1000,
    );
  });

  it("resolves the declared favicon, preferring icon over apple-touch-icon", () => {
    const icon = (links: string, url?: string) => extractSiteMetadata(home(links, 200, url), ORIGIN).faviconUrl;
    expect(icon('<link rel="apple-touch-icon" href="/apple.png"><link rel="icon" href="img/fav.png">')).toBe(
      `${ORIGIN}/img/fav.png`,
    );
    expect(icon('<link rel="shortcut icon" href="//cdn.example/f.ico">')).toBe("https://cdn.example/f.ico");
    expect(icon('<link rel="apple-touch-icon-precomposed" href="a.png">', `${ORIGIN}/en/`)).toBe(`${ORIGIN}/en/a.png`);
    expect(icon('<base href="https://static.example/s/"><link rel=icon href=f.svg>')).toBe(
      "https://static.example/s/f.svg",
    );
    expect(icon('<link rel="icon" href="data:image/png;base64,AAAA">')).toBeNull();
    expect(icon('<link rel="stylesheet" href="/s.css">')).toBeNull();
  });

  it("ignores markup inside comments, scripts and attribute values", () => {
    const page = home(
      '<!-- <title>Commented</title> --><script>document.write("<title>Scripted</title>")</script>' +
        '<div data-x="<title>Attribute</title>"></div><title>Real</title>',
    );
    expect(extractSiteMetadata(page, ORIGIN).name).toBe("Real");
  });
});

describe("HTML reading", () => {
  it("walks tags with quoted, unquoted and bare attributes", () => {
    const tags: { name: string; attributes: Record<string, string> }[] = [];
    walkHtml(`<DIV Class="a b" id=x hidden data-gt='1 > 0'/><img src="a.png"/>`, (tag) =>
      tags.push({ name: tag.name, attributes: tag.attributes }),
    );
    expect(tags).toEqual([
      { name: "div", attributes: { class: "a b", id: "x", hidden: "", "data-gt": "1 > 0" } },
      { name: "img", attributes: { src: "a.png" } },
    ]);
  });

  it("stays linear on broken markup", () => {
    const broken = `<a '${"<a '".repeat(100_000)}`;
    const started = Date.now();
    walkHtml(broken, () => {});
    walkHtml("<script>".repeat(100_000), () => {});
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("extracts visible text without scripts and styles", () => {
    const text = extractPageText(
      "<html><head><style>p{}</style><title>T</title></head><body><p>Hello&nbsp;<b>world</b></p><script>var x</script></body></html>",
    );
    expect(text).toBe("T Hello world");
    expect(decodeHtmlEntities("&copy; &unknown; &#0; &#65;")).toBe("© &unknown; \uFFFD A");
  });
});

describe("classifySite: categories", () => {
  const vectors: [Category, string, string][] = [
    ["ai-tools", "PromptForge", "Build AI agents and chatbots with large language models (LLM)."],
    ["developer", "Shipyard", "Deploy your code from GitHub with zero-config hosting and a CLI for developers."],
    ["data", "OpenCensus Data", "Open datasets and statistics about population, with CSV downloads."],
    ["finance", "LedgerLight", "Accounting and invoicing for small businesses; accept payments."],
    ["ecommerce", "Cobbler & Co", "Shop handmade shoes online; free shipping from our online store."],
    ["jobs", "HireLoop", "Find remote jobs and hiring companies; upload your resume."],
    ["security", "VaultGuard", "Password manager with end-to-end encryption and two-factor authentication."],
    ["health", "CarePoint Clinic", "Book a doctor, telehealth visits and medical records for patients."],
    ["education", "Mathwise Academy", "Online courses and tutoring for students preparing for exams."],
    ["communication", "Relay Mail", "Transactional email and SMS messaging."],
    ["productivity", "Taskfold", "Kanban boards, to-do lists and calendar scheduling for teams."],
    ["news", "The Morning Times", "Breaking news, politics and headlines from our newsroom."],
    ["other", "Jane's corner", "Photos of my garden and my cats."],
  ];

  it.each(vectors)("classifies %s: %s", (category, name, description) => {
    expect(classifySite({ name, description, signals: NO_SIGNALS }).category).toBe(category);
  });

  it("covers every discovery category", () => {
    const covered = new Set(vectors.map(([category]) => category));
    for (const category of DISCOVERY_CATEGORIES) expect(covered.has(category)).toBe(true);
  });

  it("counts the name twice and breaks ties by the category order", () => {
    expect(scoreCategories("News", "health")).toEqual({ health: 3, news: 6 });
    expect(classifySite({ name: "Weather", description: "Bank", signals: NO_SIGNALS }).category).toBe("data");
    expect(classifySite({ name: "x", description: "news health", signals: NO_SIGNALS }).category).toBe("health");
  });

  it("matches whole words and plurals only", () => {
    expect(scoreCategories("Maid service", "Fair prices")).toEqual({});
    expect(scoreCategories("Jobs", "")).toEqual({ jobs: 6 });
  });
});

describe("classifySite: spam", () => {
  const spam: [string, string, string?][] = [
    ["Lucky Star Casino", "Play now"],
    ["Best deals", "Cheap Viagra and Cialis with no prescription"],
    ["Grow fast", "Buy followers and likes for Instagram"],
    ["QuickCash", "Payday loans approved in minutes"],
    ["Hot cams", "Free porn videos"],
    ["Timepieces", "Swiss replica watches at low prices"],
    ["Win big", "Sports betting odds and free spins"],
    ["A blog", "My thoughts", "casino bonus, online casino games and casino slots every day"],
  ];

  it.each(spam)("flags %s", (name, description, bodyText) => {
    expect(classifySite({ name, description, bodyText, signals: NO_SIGNALS }).category).toBe("spam");
  });

  it("flags keyword stuffing in the page or in the name and description", () => {
    const stuffed = `${"cheap shoes ".repeat(30)} buy now from our shop today`;
    expect(isSpamSite("Shoes", "Shoes", stuffed)).toBe(true);
    expect(isSpamSite("Cheap shoes cheap shoes", "Cheap shoes, cheap shoes, best cheap shoes and boots", "")).toBe(
      true,
    );
  });

  it("does not flag a page that mentions a term once, or ordinary prose", () => {
    const prose =
      "Our team writes about the economy, markets and policy. This week we look at how a casino town changed " +
      "after the factory closed, what the new budget means for schools, and why rail fares keep rising.";
    expect(isSpamSite("The Weekly", "Reporting on the economy", prose)).toBe(false);
    expect(isSpamSite("Adult education centre", "Evening classes for adults", "")).toBe(false);
    expect(isSpamSite("BrandShield", "Anti-counterfeit protection for brands", "")).toBe(false);
  });

  it("reads HTML body text as its visible text", () => {
    const bodyText = "<html><head><script>var casino, casino, casino;</script></head><body>Hello</body></html>";
    expect(classifySite({ name: "Hello", description: "", bodyText, signals: NO_SIGNALS }).category).toBe("other");
  });
});

describe("classifySite: tags", () => {
  it("tags detected signals and extra tags", () => {
    const signals = { ...NO_SIGNALS, has_mcp_server: true, has_openapi: true, has_llms_txt: true, has_ai_plugin: true };
    expect(classifySite({ name: "x", description: "", signals, extraTags: ["GraphQL", "bad tag!"] }).tags).toEqual([
      "ai-plugin",
      "graphql",
      "llms-txt",
      "mcp",
      "openapi",
    ]);
    expect(classifySite({ name: "x", description: "", signals: { ...NO_SIGNALS, has_schema_org: true } }).tags).toEqual(
      [],
    );
  });

  it("tags topics named in the name and description", () => {
    const { tags } = classifySite({
      name: "Atlas",
      description:
        "Payments, search, OAuth login, an online store, analytics, email, maps, weather, AI, bitcoin, SQL database, " +
        "storage, translation, video and SMS",
      signals: NO_SIGNALS,
    });
    expect(tags).toHaveLength(12);
    expect(tags).toEqual([...tags].sort());
    expect(tags).toEqual([
      "ai",
      "analytics",
      "auth",
      "crypto",
      "database",
      "ecommerce",
      "email",
      "maps",
      "payment",
      "search",
      "storage",
      "weather",
    ]);
  });

  it("keeps signal tags first when more than 12 would apply", () => {
    const signals = { ...NO_SIGNALS, has_mcp_server: true, has_openapi: true };
    const { tags } = classifySite({
      name: "Atlas",
      description: "Payments, search, login, shop, analytics, email, maps, weather, AI, bitcoin, SQL, storage, video",
      signals,
    });
    expect(tags).toHaveLength(12);
    expect(tags).toContain("mcp");
    expect(tags).toContain("openapi");
  });

  it("gives spam no topic tags", () => {
    const signals = { ...NO_SIGNALS, has_openapi: true };
    expect(classifySite({ name: "Casino shop", description: "Payments and email", signals }).tags).toEqual(["openapi"]);
  });
});
