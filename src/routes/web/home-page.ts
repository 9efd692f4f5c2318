/**
 * GET / at the site root: the home page (what the service is, where its API, documents and MCP
 * server live, how sites are scored), with schema.org JSON-LD and service-desc links in both the
 * page and the Link header; and the favicon it names. The page shell is shared with the privacy
 * page. Everything is rendered from the descriptor, the endpoint catalog and the scoring weights.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { FREE_LIMITS } from "../../domain/descriptor/build-descriptor.ts";
import { SIGNAL_WEIGHTS } from "../../domain/scoring/agentic-score.ts";
import { SIGNAL_FIELDS, type SignalField } from "../../domain/sites/site-fields.ts";
import type { AppEnv } from "../../http/context.ts";
import {
  buildSiteLinks,
  DOCUMENT_CACHE_CONTROL,
  describeService,
  listCatalogEndpoints,
  OPENAPI_MEDIA_TYPE,
  SITE_PATHS,
} from "./agent-documents.ts";

/** A small icon: a check mark on a rounded square. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><path d="M9 16.5l4.5 4.5L23 11" fill="none" stroke="#fff" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round"/></svg>\n';

const SIGNAL_LABELS: Record<SignalField, string> = {
  has_llms_txt: "llms.txt",
  has_ai_plugin: "AI plugin manifest",
  has_openapi: "OpenAPI document",
  has_structured_api: "Structured API",
  has_mcp_server: "MCP server",
  has_robots_ai: "AI rules in robots.txt",
  has_schema_org: "schema.org markup",
};

const PAGE_STYLE = `
body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;max-width:52rem;margin:0 auto;padding:1.5rem;color:#111827;background:#fff}
h1{font-size:1.9rem;margin:.2rem 0 .6rem}h2{font-size:1.3rem;margin-top:2.2rem;border-bottom:1px solid #e5e7eb;padding-bottom:.3rem}
a{color:#1d4ed8}code{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace;background:#f3f4f6;padding:.05rem .3rem;border-radius:.25rem}
table{border-collapse:collapse;width:100%;font-size:.95rem}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e5e7eb;vertical-align:top}
header nav a,footer a{margin-right:1rem}footer{margin-top:3rem;font-size:.9rem;color:#4b5563}
form{display:flex;gap:.5rem;margin:1rem 0}input[type=search]{flex:1;padding:.45rem .6rem;font:inherit}button{padding:.45rem 1rem;font:inherit}
section{scroll-margin-top:1rem}`;

/** Headers every HTML page carries: nothing but its own styles, icon and forms may load or run. */
export function pageSecurityHeaders(origin: string): Record<string, string> {
  return {
    "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' ${origin}; form-action 'self' ${origin}; base-uri 'none'; frame-ancestors 'none'`,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  };
}

/** The Link header of the home page: the API's description, its docs and its catalog (RFC 8631, 9727). */
export function buildHomeLinkHeader(origin: string): string {
  const links = buildSiteLinks(origin);
  return [
    `<${links.openApi}>; rel="service-desc"; type="${OPENAPI_MEDIA_TYPE}"`,
    `<${links.docs}>; rel="service-doc"; type="text/html"`,
    `<${links.apiCatalog}>; rel="api-catalog"`,
  ].join(", ");
}

/** JSON for a `<script type="application/ld+json">` block: `<` escaped so no tag can close it early. */
export function embedJson(value: unknown): HtmlEscapedString {
  return raw(JSON.stringify(value, null, 2).replace(/</g, "\\u003c"));
}

/** The home page's schema.org JSON-LD: the web site with its search action, and the API. */
export function buildHomeJsonLd(origin: string) {
  const links = buildSiteLinks(origin);
  const { name, description } = describeService(origin);
  return {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "WebSite",
        "@id": `${links.home}#website`,
        name,
        url: links.home,
        description,
        inLanguage: "en",
        potentialAction: {
          "@type": "SearchAction",
          target: { "@type": "EntryPoint", urlTemplate: links.searchTemplate },
          "query-input": "required name=search_term_string",
        },
      },
      {
        "@type": "WebAPI",
        "@id": `${links.home}#api`,
        name: `${name} API`,
        description,
        url: links.descriptor,
        documentation: links.docs,
        termsOfService: links.privacy,
        offers: { "@type": "Offer", price: "0", priceCurrency: "USD" },
      },
    ],
  };
}

export interface PageShellInput {
  origin: string;
  /** The page's own URL, for its canonical link. */
  url: string;
  title: string;
  description: string;
  /** Extra elements for the head, already rendered. */
  head?: HtmlEscapedString;
  body: HtmlEscapedString;
}

/** The HTML document every page shares: metadata, icon, service links, navigation and footer. */
export async function renderPageShell({ origin, url, title, description, head, body }: PageShellInput) {
  const links = buildSiteLinks(origin);
  const service = describeService(origin);
  const page = await html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<meta property="og:site_name" content="${service.name}">
<meta property="og:type" content="website">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${url}">
<link rel="canonical" href="${url}">
<link rel="icon" href="${links.favicon}" type="image/svg+xml">
<link rel="service-desc" href="${links.openApi}" type="${OPENAPI_MEDIA_TYPE}">
<link rel="service-doc" href="${links.docs}" type="text/html">
<link rel="api-catalog" href="${links.apiCatalog}">
<style>${raw(PAGE_STYLE)}</style>
${head ?? ""}
</head>
<body>
<header>
<nav aria-label="Site"><a href="${links.home}">${service.name}</a><a href="${links.docs}">API reference</a><a href="${links.llmsTxt}">llms.txt</a><a href="${links.privacy}">Privacy</a></nav>
</header>
<main>
${body}
</main>
<footer>
<p>${service.name} ${service.version}. <a href="${links.descriptor}">Index descriptor</a><a href="${links.openApi}">OpenAPI</a><a href="${links.mcp}">MCP</a><a href="${links.privacy}">Privacy</a></p>
</footer>
</body>
</html>
`;
  return String(page);
}

/** The home page for a public origin and the service's endpoint catalog. */
export async function renderHomePage(origin: string, endpoints: Record<string, string>): Promise<string> {
  const links = buildSiteLinks(origin);
  const { name, description } = describeService(origin);
  const machineDocuments: [string, string, string][] = [
    [
      links.descriptor,
      "Index descriptor",
      "JSON: base_url, every endpoint, limits, version policy, published policy flags",
    ],
    [links.docs, "API reference", "every endpoint with its parameters and answers"],
    [links.openApi, "OpenAPI document", "the API's machine-readable description"],
    [links.llmsTxt, "llms.txt", "the short guide for language models"],
    [links.mcp, "MCP endpoint", "the service's MCP server (Streamable HTTP)"],
    [links.apiCatalog, "API catalog", "RFC 9727 linkset of the API and its descriptions"],
    [links.aiPlugin, "AI plugin manifest", "legacy plugin manifest"],
    [links.mcpDiscovery, "MCP discovery document", "names the MCP endpoint and transport"],
    [links.robotsTxt, "robots.txt", "crawler rules and Content Signals"],
    [links.privacy, "Privacy and consent", "what is recorded, and what each consent version means"],
  ];
  const body = await html`
<h1>${name}</h1>
<p>${description}</p>
<p>Search, the top list, site details, statistics and the live checks are free and need no credentials.</p>
<form action="${links.apiBase}/search" method="get" role="search">
<label for="q" hidden>Search the index</label>
<input type="search" id="q" name="q" placeholder="Search sites, e.g. payments" required>
<button type="submit">Search (JSON)</button>
</form>

<section id="for-agents">
<h2>For agents and developers</h2>
<ul>
${machineDocuments.map(([href, label, note]) => html`<li><a href="${href}">${label}</a>: ${note}</li>\n`)}
</ul>
</section>

<section id="scoring">
<h2>How a site is scored</h2>
<p>Each indexed site gets an <code>agentic_score</code> from 0 to 100: the sum of the weights of the signals our crawler finds on it.</p>
<table>
<thead><tr><th>Signal</th><th>Field</th><th>Weight</th></tr></thead>
<tbody>
${SIGNAL_FIELDS.map((field) => html`<tr><td>${SIGNAL_LABELS[field]}</td><td><code>${field}</code></td><td>${SIGNAL_WEIGHTS[field]}</td></tr>\n`)}
</tbody>
</table>
</section>

<section id="endpoints">
<h2>Endpoints</h2>
<p>Paths are relative to <code>${links.apiBase}</code>.</p>
<table>
<thead><tr><th>Endpoint</th><th>What it does</th></tr></thead>
<tbody>
${listCatalogEndpoints(endpoints).map(({ method, path, summary }) => html`<tr><td><code>${method} ${path}</code></td><td>${summary}</td></tr>\n`)}
</tbody>
</table>
</section>

<section id="limits">
<h2>Free limits</h2>
<ul>
<li>Search: ${FREE_LIMITS.search}</li>
<li>Live verification: ${FREE_LIMITS.live_verification}</li>
<li>POST /check: ${FREE_LIMITS.check}</li>
</ul>
<p>Over a limit the answer is <code>429</code> with <code>Retry-After</code>; free access resumes after the reset.</p>
</section>

<section id="neutrality">
<h2>Neutrality</h2>
<p>Organic ordering and scores are never changed by any paid or provider-funded feature. Paid offers, when shown, appear beside organic results and never inside them. Searches leave a query-free receipt; see <a href="${links.privacy}">Privacy and consent</a> for what is recorded and what is not.</p>
</section>
`;
  return renderPageShell({
    origin,
    url: links.home,
    title: `${name}: sites scored for AI agents`,
    description,
    head: await html`<script type="application/ld+json">
${embedJson(buildHomeJsonLd(origin))}
</script>`,
    body,
  });
}

/** Serves the home page at / and its icon at /favicon.svg. */
export function registerHomePage(app: OpenAPIHono<AppEnv>) {
  app.get(SITE_PATHS.home, async (c) => {
    const { origin } = c.var.deps;
    return c.html(await renderHomePage(origin, c.var.endpoints), 200, {
      "Cache-Control": DOCUMENT_CACHE_CONTROL,
      Link: buildHomeLinkHeader(origin),
      ...pageSecurityHeaders(origin),
    });
  });

  app.get(SITE_PATHS.favicon, (c) =>
    c.body(FAVICON_SVG, 200, {
      "Content-Type": "image/svg+xml",
      // A static icon: a day of caching spares every page view a request.
      "Cache-Control": "public, max-age=86400",
    }),
  );
}
