/**
 * Demand in the provider console (`/console/claims/{id}/demand`): the same privacy-thresholded
 * aggregates GET /api/v1/provider/demand gives a provider key, for the owner's own verified claim,
 * as tables and a small server-drawn bar chart. Suppressed figures say so in words, with the
 * threshold; nothing below a threshold is ever shown, not even in the chart.
 */
import type { DemandAnalytics } from "../../domain/demand/read-demand.ts";
import { BarChart } from "../bar-chart.tsx";
import { StackingTable } from "../components.tsx";
import { CONSOLE_PATHS } from "../console-paths.ts";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";

/** The lookbacks the page offers (the API takes any whole number of days from 1 to 30). */
export const DEMAND_PAGE_DAYS = [1, 7, 30] as const;

const SURFACE_WORDS: Record<string, string> = { web: "Web pages", rest: "REST API", mcp: "MCP", unknown: "Unknown" };

function Suppressed({ value, threshold }: { value: number | null; threshold: number }) {
  return value === null ? <span class="muted">hidden (under {threshold})</span> : <>{value}</>;
}

const percent = (rate: number | null) => (rate === null ? null : `${(rate * 100).toFixed(1)} %`);

export interface DemandPageProps {
  origin: string;
  claimId: string;
  demand: DemandAnalytics;
  evidenceScope: string;
}

export function DemandPage({ origin, claimId, demand, evidenceScope }: DemandPageProps) {
  const path = CONSOLE_PATHS.demand(claimId);
  const { summary } = demand;
  const window = demand.days === 1 ? "the last 24 hours" : `the last ${demand.days} days`;
  const bars = demand.surfaces.map((row) => ({
    label: SURFACE_WORDS[row.surface] ?? row.surface,
    value: row.organic_results_returned,
  }));
  return (
    <Layout
      origin={origin}
      url={`${origin}${path}`}
      title={`Demand for ${demand.domain} · Provider console`}
      description="How often agents' searches returned and chose your domain, as privacy-thresholded aggregates."
    >
      <p class="breadcrumb">
        <a href={`${origin}${CONSOLE_PATHS.home}`}>Provider console</a> ›{" "}
        <a href={`${origin}${CONSOLE_PATHS.claim(claimId)}`}>{demand.domain}</a>
      </p>
      <h1>Demand for {demand.domain}</h1>
      <form method="get" action={`${origin}${path}`} class="days-form">
        <label for="demand-days">Period</label>
        <div class="field-row">
          <select id="demand-days" name="days">
            {DEMAND_PAGE_DAYS.map((days) => (
              <option value={String(days)} selected={days === demand.days}>
                {days === 1 ? "Last 24 hours" : `Last ${days} days`}
              </option>
            ))}
          </select>
          <button type="submit">Show</button>
        </div>
      </form>
      <p>
        Searches in {window} that returned {demand.domain} in their organic results, counted from retained receipts
        (kept {demand.retention_days} days), synthetic traffic excluded. Counts of searches, not of agents.
      </p>

      <h2 id="summary-heading">Summary</h2>
      <dl class="claim-facts">
        <div>
          <dt>Searches returning the domain</dt>
          <dd>{summary.search_receipts}</dd>
        </div>
        <div>
          <dt>Average organic position</dt>
          <dd>{summary.organic_results_returned ? summary.average_organic_position : "—"}</dd>
        </div>
        <div>
          <dt>Results chosen</dt>
          <dd>
            <Suppressed value={summary.result_selections} threshold={demand.result_selection_receipt_threshold} />
            {percent(summary.result_selection_rate) ? ` (${percent(summary.result_selection_rate)})` : ""}
          </dd>
        </div>
        <div>
          <dt>Action interests</dt>
          <dd>
            <Suppressed value={summary.action_interest_receipts} threshold={demand.action_interest_receipt_threshold} />
            {percent(summary.action_interest_rate) ? ` (${percent(summary.action_interest_rate)})` : ""}
          </dd>
        </div>
      </dl>

      <h2 id="surfaces-heading">By surface</h2>
      {summary.search_receipts ? (
        <BarChart
          id="surfaces-chart"
          bars={bars}
          title={`Searches returning ${demand.domain}, by surface`}
          summary={bars.map((bar) => `${bar.label}: ${bar.value}`).join("; ")}
        />
      ) : (
        <p class="muted">No search returned the domain in this period, so there is nothing to chart yet.</p>
      )}
      <StackingTable>
        <caption class="visually-hidden">Demand by surface</caption>
        <thead>
          <tr>
            <th scope="col">Surface</th>
            <th scope="col">Searches returning it</th>
            <th scope="col">Results chosen</th>
            <th scope="col">Action interests</th>
          </tr>
        </thead>
        <tbody>
          {demand.surfaces.map((row) => (
            <tr>
              <td>{SURFACE_WORDS[row.surface] ?? row.surface}</td>
              <td data-label="Searches returning it">{row.organic_results_returned}</td>
              <td data-label="Results chosen">
                <Suppressed value={row.result_selections} threshold={demand.result_selection_receipt_threshold} />
              </td>
              <td data-label="Action interests">
                <Suppressed value={row.action_interest_receipts} threshold={demand.action_interest_receipt_threshold} />
              </td>
            </tr>
          ))}
        </tbody>
      </StackingTable>

      <h2 id="topics-heading">By topic</h2>
      {demand.demand_topics.length ? (
        <StackingTable>
          <caption class="visually-hidden">Demand by topic, most searched first</caption>
          <thead>
            <tr>
              <th scope="col">Topic</th>
              <th scope="col">Searches</th>
              <th scope="col">Average position</th>
              <th scope="col">Results chosen</th>
              <th scope="col">Action interests</th>
            </tr>
          </thead>
          <tbody>
            {demand.demand_topics.map((row) => (
              <tr>
                <td>{row.topic}</td>
                <td data-label="Searches">{row.search_receipts}</td>
                <td data-label="Average position">{row.average_organic_position}</td>
                <td data-label="Results chosen">
                  <Suppressed value={row.result_selections} threshold={demand.result_selection_receipt_threshold} />
                </td>
                <td data-label="Action interests">
                  <Suppressed
                    value={row.action_interest_receipts}
                    threshold={demand.action_interest_receipt_threshold}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </StackingTable>
      ) : (
        <p>
          No topic reached {demand.topic_receipt_threshold} searches in this period; topics below that are not shown.
        </p>
      )}

      <h2 id="actions-heading">By action type</h2>
      {demand.action_types.length ? (
        <StackingTable>
          <caption class="visually-hidden">Action interests by type</caption>
          <thead>
            <tr>
              <th scope="col">Action type</th>
              <th scope="col">Interests</th>
            </tr>
          </thead>
          <tbody>
            {demand.action_types.map((row) => (
              <tr>
                <td>{row.action_type}</td>
                <td data-label="Interests">{row.receipt_count}</td>
              </tr>
            ))}
          </tbody>
        </StackingTable>
      ) : (
        <p>No action type reached {demand.topic_receipt_threshold} interests in this period.</p>
      )}

      <h2 id="privacy-heading">What is hidden, and why</h2>
      <p>
        Topics and action types under {demand.topic_receipt_threshold} searches are left out, and chosen results and
        action interests under their thresholds ({demand.result_selection_receipt_threshold} and{" "}
        {demand.action_interest_receipt_threshold}) are hidden, so no small group of searches can be singled out, and
        more is hidden where two figures could be subtracted to reveal one. Scope: <code>{evidenceScope}</code>.
      </p>
    </Layout>
  );
}

export function renderDemandPage(props: DemandPageProps): Promise<string> {
  return renderPage(<DemandPage {...props} />);
}
