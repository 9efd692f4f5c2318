/**
 * The state of the agent web (/state): adoption of each signal and checklist check over the days
 * the rollups cover, as charts with text alternatives, the latest figures as a table sortable
 * without script (plain links), MCP endpoint health, and how everything is counted. One category
 * or all of them. Rendered from the same figures as GET /api/v1/stats/adoption.
 */
import { CHECK_CATEGORIES } from "../../domain/checklist/checklist-definition.ts";
import { buildSiteLinks } from "../../domain/descriptor/site-documents.ts";
import { CATEGORIES, type Category } from "../../domain/sites/site-fields.ts";
import type { AdoptionFigures } from "../../domain/stats/adoption-figures.ts";
import { AdoptionChart, HealthBar, shareAxisTop } from "../adoption-chart.tsx";
import {
  type AdoptionSeries,
  adoptionSeries,
  formatChange,
  formatShare,
  STATE_SORT_LABELS,
  STATE_SORTS,
  type StateSort,
  sortSeries,
} from "../adoption-summary.ts";
import { StackingTable } from "../components.tsx";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";

export interface StatePageProps {
  origin: string;
  category?: Category;
  sort: StateSort;
  figures: AdoptionFigures;
}

/** The page's own URL for a category and an order (defaults left out). */
export function statePageUrl(origin: string, category: Category | undefined, sort: StateSort): string {
  const params = new URLSearchParams();
  if (category) params.set("category", category);
  if (sort !== "item") params.set("sort", sort);
  const query = params.toString();
  return `${buildSiteLinks(origin).state}${query ? `?${query}` : ""}`;
}

const KIND_LABELS = { signal: "Signal", check: "Check", mcp_endpoint: "MCP endpoint" } as const;

/** The column each order sorts, for `aria-sort`. */
const SORTED_COLUMN: Record<StateSort, string> = { item: "item", share: "share", change: "change", sites: "sites" };

function LatestTable({ series, sort, firstDay }: { series: AdoptionSeries[]; sort: StateSort; firstDay: string }) {
  const sorted = (column: string) =>
    SORTED_COLUMN[sort] === column ? (column === "item" ? "ascending" : "descending") : undefined;
  return (
    <StackingTable>
      <caption class="visually-hidden">Latest adoption figures, ordered by {STATE_SORT_LABELS[sort]}</caption>
      <thead>
        <tr>
          <th scope="col" aria-sort={sorted("item")}>
            Item
          </th>
          <th scope="col">Kind</th>
          <th scope="col" class="number" aria-sort={sorted("sites")}>
            Sites counted
          </th>
          <th scope="col" class="number">
            With it
          </th>
          <th scope="col" class="number" aria-sort={sorted("share")}>
            Share
          </th>
          <th scope="col" class="number" aria-sort={sorted("change")}>
            Change since {firstDay}
          </th>
        </tr>
      </thead>
      <tbody>
        {series.map((entry) => (
          <tr data-item={entry.item}>
            <td>
              {entry.label} <code>{entry.item}</code>
            </td>
            <td data-label="Kind">{entry.kind === "check" ? `Check (${entry.group})` : KIND_LABELS[entry.kind]}</td>
            <td data-label="Sites counted" class="number" data-value={entry.latest.sites}>
              {entry.latest.sites}
            </td>
            <td data-label="With it" class="number" data-value={entry.latest.with_item}>
              {entry.latest.with_item}
            </td>
            <td data-label="Share" class="number" data-value={entry.latest.share}>
              {formatShare(entry.latest.share)}
            </td>
            <td data-label={`Change since ${firstDay}`} class="number">
              {formatChange(entry.change)}
            </td>
          </tr>
        ))}
      </tbody>
    </StackingTable>
  );
}

function McpHealth({ series }: { series: AdoptionSeries[] }) {
  const advertised = series[0]?.latest.sites ?? 0;
  if (advertised === 0) {
    return <p>No indexed site {series.length === 0 ? "" : "of this category "}advertises an MCP endpoint yet.</p>;
  }
  return (
    <>
      <p>
        Of the <strong>{advertised}</strong> indexed sites that advertise an MCP endpoint, the endpoint of each, at its
        last crawl:
      </p>
      <HealthBar series={series} id="mcp-health-bar" />
      <StackingTable>
        <caption class="visually-hidden">MCP endpoint health, latest figures</caption>
        <thead>
          <tr>
            <th scope="col">The endpoint</th>
            <th scope="col" class="number">
              Sites
            </th>
            <th scope="col" class="number">
              Share
            </th>
          </tr>
        </thead>
        <tbody>
          {series.map((entry) => (
            <tr data-item={entry.item}>
              <td>
                {entry.label.replace(/^Endpoint /, "")} <code>{entry.item}</code>
              </td>
              <td data-label="Sites" class="number" data-value={entry.latest.with_item}>
                {entry.latest.with_item} of {entry.latest.sites}
              </td>
              <td data-label="Share" class="number" data-value={entry.latest.share}>
                {formatShare(entry.latest.share)}
              </td>
            </tr>
          ))}
        </tbody>
      </StackingTable>
    </>
  );
}

/** A group's charts as small multiples on one shared scale, said above them. */
function ChartGroup({ title, series, id }: { title: string; series: AdoptionSeries[]; id: string }) {
  if (series.length === 0) return null;
  const top = shareAxisTop(series);
  return (
    <>
      <h3 id={id}>{title}</h3>
      <p class="muted chart-scale">One scale for the charts of this group: 0 to {Math.round(top * 100)} %.</p>
      <div class="chart-grid">
        {series.map((entry) => (
          <AdoptionChart series={entry} id={`chart-${entry.item}`} top={top} />
        ))}
      </div>
    </>
  );
}

export function StatePage({ origin, category, sort, figures }: StatePageProps) {
  const links = buildSiteLinks(origin);
  const { latestDay, series } = adoptionSeries(figures.rows);
  const figuresOf = series.filter((entry) => entry.kind !== "mcp_endpoint");
  const health = series.filter((entry) => entry.kind === "mcp_endpoint");
  const signals = series.filter((entry) => entry.kind === "signal");
  const indexed = signals[0]?.latest.sites ?? 0;
  const scope = category ? `the ${category} category` : "every category";
  const query = new URLSearchParams({ days: String(figures.days), ...(category ? { category } : {}) }).toString();
  const title = category ? `The state of the agent web: ${category}` : "The state of the agent web";
  return (
    <Layout
      origin={origin}
      url={statePageUrl(origin, category, sort)}
      title={title}
      description="How many indexed sites publish each agent signal and pass each checklist check, day by day, and how their MCP endpoints answer."
    >
      <h1>{title}</h1>
      <p class="lead">
        How many indexed sites publish each of the seven agent signals and pass each check of the checklist, day by day,
        and whether the MCP servers sites advertise answer. Counted by the index from its own crawls, with the rules
        below.
      </p>
      {latestDay ? (
        <p>
          Latest figures: <time datetime={latestDay}>{latestDay}</time>, over {indexed} indexed sites of {scope}; the
          charts go back to {figures.from}. The same figures for machines:{" "}
          <a href={`${links.apiBase}/stats/adoption?${query}`}>JSON</a> and{" "}
          <a href={`${links.apiBase}/stats/adoption.csv?${query}`}>CSV</a> (every day, every item).
        </p>
      ) : (
        <p>
          No figures yet for {scope}: the rollup writes them once a day, at 23:50 UTC, from the sites the index holds.
        </p>
      )}

      <nav aria-labelledby="category-heading">
        <h2 id="category-heading">Category</h2>
        <ul class="choice-list">
          <li>
            <a href={statePageUrl(origin, undefined, sort)} aria-current={category ? undefined : "page"}>
              All categories
            </a>
          </li>
          {CATEGORIES.map((each) => (
            <li>
              <a href={statePageUrl(origin, each, sort)} aria-current={each === category ? "page" : undefined}>
                {each}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      {latestDay ? (
        <>
          <section id="over-time" aria-labelledby="over-time-heading">
            <h2 id="over-time-heading">Over time</h2>
            <p>
              Each chart is one item's share of the sites counted for it, from {figures.from} to {latestDay}; the charts
              of a group share one scale, so their curves compare by eye. Each has its values behind a toggle, and every
              latest figure is in the table further down.
            </p>
            <ChartGroup title="The seven signals" series={signals} id="charts-signals" />
            {CHECK_CATEGORIES.map((group) => (
              <ChartGroup
                title={`Checks: ${group}`}
                series={series.filter((entry) => entry.kind === "check" && entry.group === group)}
                id={`charts-${group.replace(/\s+/g, "-")}`}
              />
            ))}
            <ChartGroup title="MCP endpoint health" series={health} id="charts-mcp-endpoints" />
          </section>
          <section id="latest" aria-labelledby="latest-heading">
            <h2 id="latest-heading">Latest figures</h2>
            <nav aria-label="Order of the latest figures">
              <p>
                Order by:{" "}
                {STATE_SORTS.map((each, index) => (
                  <>
                    {index > 0 ? " · " : ""}
                    <a
                      href={`${statePageUrl(origin, category, each)}#latest`}
                      aria-current={each === sort ? "true" : undefined}
                    >
                      {STATE_SORT_LABELS[each]}
                    </a>
                  </>
                ))}
              </p>
            </nav>
            <LatestTable series={sortSeries(figuresOf, sort)} sort={sort} firstDay={figures.from ?? latestDay} />
          </section>

          <section id="mcp-endpoints" aria-labelledby="mcp-heading">
            <h2 id="mcp-heading">MCP endpoint health</h2>
            <McpHealth series={health} />
          </section>
        </>
      ) : null}

      <section id="how-counted" aria-labelledby="how-heading">
        <h2 id="how-heading">How they are counted</h2>
        <ul>
          <li>
            <strong>A file counts only when it is the file.</strong> Many sites answer 200 to any path with an app
            shell, a Markdown "page not found" or a JSON error. Each crawl also asks for a path that cannot exist (a
            control request of the same shape, such as <code>/&lt;random&gt;.txt</code>); a document that looks like
            that answer is a soft-404, not a file, and never counts.
          </li>
          <li>
            <strong>Signals</strong> count every indexed site of {scope}: the share is the sites whose signal the last
            crawl proved, over all indexed sites.
          </li>
          <li>
            <strong>Checks</strong> count the sites whose latest checklist has the check (sites crawled before the
            checklist existed are left out), and only a <code>pass</code> is adoption: <code>warn</code> (present but
            flawed), <code>fail</code>, <code>neutral</code> (does not apply), <code>blocked</code> and{" "}
            <code>error</code> are not.
          </li>
          <li>
            <strong>MCP endpoint health</strong> counts the sites that advertise an MCP endpoint (an AI Catalog, a
            server card, a discovery document or an MCP Registry entry names one; the conventional <code>/mcp</code>{" "}
            tried on every site is not an advertisement). Their endpoint either completes a handshake (
            <code>initialize</code> and <code>tools/list</code>), is auth-gated (401, 402, 403, 429 or a bot challenge),
            answers HTTP but not as a Streamable HTTP MCP server, or is unreachable.
          </li>
          <li>
            A day's figures are the index as it stood near the end of that day (the rollup runs at 23:50 UTC); each site
            counts once, with its last crawl.
          </li>
        </ul>
        <p>
          Want your own site counted? <a href={links.check}>Check it</a> or <a href={links.submit}>submit it</a>.
        </p>
      </section>
    </Layout>
  );
}

export function renderStatePage(props: StatePageProps): Promise<string> {
  return renderPage(<StatePage {...props} />);
}
