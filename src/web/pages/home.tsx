/**
 * The home page: what the service is, a search box, where its API, documents and MCP server live,
 * how sites are scored, the endpoints and the free limits, with schema.org JSON-LD. Everything is
 * rendered from the descriptor, the endpoint catalog and the scoring weights.
 */
import { FREE_LIMITS } from "../../domain/descriptor/build-descriptor.ts";
import { buildSiteLinks, describeService, listCatalogEndpoints } from "../../domain/descriptor/site-documents.ts";
import { SIGNAL_WEIGHTS } from "../../domain/scoring/agentic-score.ts";
import { SIGNAL_FIELDS } from "../../domain/sites/site-fields.ts";
import { JsonLd } from "../json-ld.tsx";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";
import { SearchForm } from "../search-form.tsx";
import { SIGNAL_LABELS } from "../signal-guide.ts";

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
}

/** The home page inside the layout. */
export function HomePage({ origin, endpoints }: HomePageProps) {
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
      <h1>{name}</h1>
      <p class="lead">{description}</p>
      <p>Search, the top list, site details, statistics and the live checks are free and need no credentials.</p>
      <SearchForm action={links.search} />
      <p>
        <a href={links.state}>The state of the agent web</a>: how many indexed sites publish each signal and pass each
        check, day by day, and whether their MCP servers answer.
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

/** The home page's HTML for a public origin and the service's endpoint catalog. */
export function renderHomePage(origin: string, endpoints: Record<string, string>): Promise<string> {
  return renderPage(<HomePage origin={origin} endpoints={endpoints} />);
}
