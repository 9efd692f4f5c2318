/**
 * The home page: what the service is, a search box, where its API, documents and MCP server live,
 * how sites are scored, the endpoints and the free limits, with schema.org JSON-LD. Everything is
 * rendered from the descriptor, the endpoint catalog and the scoring weights.
 */
import { FREE_LIMITS } from "../../domain/descriptor/build-descriptor.ts";
import {
  buildSiteLinks,
  describeService,
  listCatalogEndpoints,
  siteReportUrl,
} from "../../domain/descriptor/site-documents.ts";
import { SIGNAL_WEIGHTS } from "../../domain/scoring/agentic-score.ts";
import type { TopList } from "../../domain/search/top-sites.ts";
import { SIGNAL_FIELDS } from "../../domain/sites/site-fields.ts";
import type { AdoptionFigures } from "../../domain/stats/adoption-figures.ts";
import type { IndexStats } from "../../domain/stats/index-stats.ts";
import { AdoptionChart } from "../adoption-chart.tsx";
import { adoptionSeries, formatShare } from "../adoption-summary.ts";
import { scoreBand } from "../badge.ts";
import { displayText } from "../display-text.ts";
import { JsonLd } from "../json-ld.tsx";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";
import { SearchForm } from "../search-form.tsx";
import { SIGNAL_LABELS } from "../signal-guide.ts";
import { SiteIcon } from "../site-icon.tsx";

/** How many of the top sites the home page lists. */
export const HOME_TOP_SITES = 5;
/** The signal whose adoption over time the home page draws: the one agents use to act. */
export const HOME_CHART_SIGNAL = "has_mcp_server";

/** The live figures the home page shows, each read through its own cached domain function. */
export interface HomeFigures {
  stats: IndexStats;
  top: TopList;
  adoption: AdoptionFigures;
}

/** The index at a glance: the figures, the share with each signal, the top sites, one chart. */
export function IndexAtAGlance({ origin, figures }: { origin: string; figures: HomeFigures }) {
  const links = buildSiteLinks(origin);
  const { stats, top, adoption } = figures;
  const { series } = adoptionSeries(adoption.rows);
  const handshake = series.find((entry) => entry.item === "mcp_endpoint_handshake");
  const chart = series.find((entry) => entry.item === HOME_CHART_SIGNAL);
  const signals = [...SIGNAL_FIELDS].sort((a, b) => stats.signals[b].share - stats.signals[a].share);
  if (stats.sites.total === 0) {
    return (
      <section id="at-a-glance" aria-labelledby="glance-heading">
        <h2 id="glance-heading">The index at a glance</h2>
        <p>The index holds no site yet: submit one, and a crawl adds it within minutes.</p>
      </section>
    );
  }
  return (
    <section id="at-a-glance" aria-labelledby="glance-heading">
      <h2 id="glance-heading">The index at a glance</h2>
      <ul class="figures">
        <li>
          <strong class="figure">{stats.sites.total.toLocaleString("en")}</strong> sites indexed
        </li>
        <li>
          <strong class="figure">{stats.scores.median ?? "–"}</strong> median score of 100
        </li>
        <li>
          {handshake && handshake.latest.sites > 0 ? (
            <>
              <strong class="figure">
                {handshake.latest.with_item} of {handshake.latest.sites}
              </strong>{" "}
              advertised MCP endpoints answer
            </>
          ) : (
            <>
              <strong class="figure">0</strong> advertised MCP endpoints counted yet
            </>
          )}
        </li>
      </ul>
      <div class="glance-columns">
        <div>
          <h3 id="signals-share-heading">Sites with each signal</h3>
          <table class="share-table" aria-labelledby="signals-share-heading">
            <thead>
              <tr>
                <th scope="col">Signal</th>
                <th scope="col" class="number">
                  Sites
                </th>
                <th scope="col">Share</th>
              </tr>
            </thead>
            <tbody>
              {signals.map((field) => (
                <tr data-item={field}>
                  <td>{SIGNAL_LABELS[field]}</td>
                  <td class="number">{stats.signals[field].sites.toLocaleString("en")}</td>
                  <td class="share-cell">
                    <meter min={0} max={1} value={stats.signals[field].share} aria-hidden="true" />{" "}
                    {formatShare(stats.signals[field].share)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div>
          <h3 id="top-heading">Top sites now</h3>
          <ol class="top-sites">
            {top.results.slice(0, HOME_TOP_SITES).map((site) => (
              <li>
                <span class="top-name">
                  <SiteIcon origin={origin} domain={site.domain} hasFavicon={site.has_favicon} />
                  <a href={siteReportUrl(origin, site.domain)}>{displayText(site.name)}</a>
                </span>
                <span class={`top-score band-${scoreBand(site.agentic_score)}`}>
                  {site.agentic_score}
                  <span class="visually-hidden"> of 100</span>
                </span>
              </li>
            ))}
          </ol>
          {chart ? (
            <>
              <h3 id="adoption-heading">
                {SIGNAL_LABELS[HOME_CHART_SIGNAL]} over {adoption.days} days
              </h3>
              <AdoptionChart series={chart} id="home-chart" />
            </>
          ) : null}
          <p>
            <a href={links.state}>Every signal and check over time</a>
          </p>
        </div>
      </div>
    </section>
  );
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
          // People land on the results page; agents may call the API with the same words.
          target: [
            { "@type": "EntryPoint", urlTemplate: `${links.search}?q={search_term_string}`, contentType: "text/html" },
            { "@type": "EntryPoint", urlTemplate: links.searchTemplate, contentType: "application/json" },
          ],
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
        // No Offer: the API is free, and a price-0 Offer is product markup that made the home
        // page read as a store's (the checklist's site kind).
      },
    ],
  };
}

interface HomePageProps {
  origin: string;
  /** The endpoint catalog (`c.var.endpoints`), as the descriptor lists it. */
  endpoints: Record<string, string>;
  /** Null when the stores could not give them: the page says so, the rest still works. */
  figures: HomeFigures | null;
}

/** The home page inside the layout: the search box first, then the index at a glance, then the links. */
export function HomePage({ origin, endpoints, figures }: HomePageProps) {
  const links = buildSiteLinks(origin);
  const { name, description } = describeService(origin);
  const machineDocuments: [href: string, label: string, note: string][] = [
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
  return (
    <Layout
      origin={origin}
      url={links.home}
      title={`${name}: sites scored for AI agents`}
      description={description}
      current="home"
      head={<JsonLd data={buildHomeJsonLd(origin)} />}
    >
      <h1 class="home-title">{name}</h1>
      <SearchForm action={links.search} />
      <p class="lead">{description}</p>
      {figures ? (
        <IndexAtAGlance origin={origin} figures={figures} />
      ) : (
        <p class="muted">The index's figures cannot be read right now; search and the links below still work.</p>
      )}
      <p>
        <a href={links.state}>The state of the agent web</a>: how many indexed sites publish each signal and pass each
        check, day by day, and whether their MCP servers answer. Search, the top list, site details, statistics and the
        live checks are free and need no credentials.
      </p>

      <section id="for-owners">
        <h2>For site owners</h2>
        <ul>
          <li>
            <a href={links.check}>Check a site</a>: its score now, each signal with what we found and how to fix it
          </li>
          <li>
            <a href={links.submit}>Submit a site</a> to the index
          </li>
          <li>
            <a href={links.verifyMcp}>Verify an MCP server</a> with a live handshake
          </li>
        </ul>
      </section>

      <section id="for-agents">
        <h2>For agents and developers</h2>
        <ul>
          {machineDocuments.map(([href, label, note]) => (
            <li>
              <a href={href}>{label}</a>: {note}
            </li>
          ))}
        </ul>
      </section>

      <section id="scoring">
        <h2>How a site is scored</h2>
        <p>
          Each indexed site gets an <code>agentic_score</code> from 0 to 100: the sum of the weights of the signals our
          crawler finds on it.
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Signal</th>
              <th scope="col">Field</th>
              <th scope="col">Weight</th>
            </tr>
          </thead>
          <tbody>
            {SIGNAL_FIELDS.map((field) => (
              <tr>
                <td>{SIGNAL_LABELS[field]}</td>
                <td>
                  <code>{field}</code>
                </td>
                <td>{SIGNAL_WEIGHTS[field]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section id="endpoints">
        <h2>Endpoints</h2>
        <p>
          Paths are relative to <code>{links.apiBase}</code>.
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">What it does</th>
            </tr>
          </thead>
          <tbody>
            {listCatalogEndpoints(endpoints).map(({ method, path, summary }) => (
              <tr>
                <td>
                  <code>{`${method} ${path}`}</code>
                </td>
                <td>{summary}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section id="limits">
        <h2>Free limits</h2>
        <ul>
          <li>Search: {FREE_LIMITS.search}</li>
          <li>Live verification: {FREE_LIMITS.live_verification}</li>
          <li>POST /check: {FREE_LIMITS.check}</li>
        </ul>
        <p>
          Over a limit the answer is <code>429</code> with <code>Retry-After</code>; free access resumes after the
          reset.
        </p>
      </section>

      <section id="neutrality">
        <h2>Neutrality</h2>
        <p>
          Organic ordering and scores are never changed by any paid or provider-funded feature. Paid offers, when shown,
          appear beside organic results and never inside them. Searches leave a query-free receipt; see{" "}
          <a href={links.privacy}>Privacy and consent</a> for what is recorded and what is not.
        </p>
      </section>
    </Layout>
  );
}

/** The home page's HTML for a public origin, the service's endpoint catalog and the live figures. */
export function renderHomePage(
  origin: string,
  endpoints: Record<string, string>,
  figures: HomeFigures | null,
): Promise<string> {
  return renderPage(<HomePage origin={origin} endpoints={endpoints} figures={figures} />);
}
