/**
 * The report of one site, as the site's page shows it from the index and the check page shows it
 * from a live crawl: the score, each of the seven signals with its state, the evidence behind it
 * and how to fix it, and (for an indexed site) the score history. Both sources are first turned
 * into one `SiteReport`, so the two pages cannot drift apart.
 */
import type {
  CheckResult as ChecklistCheck,
  ChecklistSummary,
  SiteKind,
} from "../domain/checklist/checklist-definition.ts";
import type { CheckResult } from "../domain/checks/check-site.ts";
import type { SiteLinks } from "../domain/descriptor/site-documents.ts";
import { SIGNAL_WEIGHTS } from "../domain/scoring/agentic-score.ts";
import type { SignalEvidence } from "../domain/signals/types.ts";
import type { SiteDetail } from "../domain/sites/get-site-detail.ts";
import { type Category, SIGNAL_FIELDS, type SignalField } from "../domain/sites/site-fields.ts";
import { Checklist } from "./checklist-report.tsx";
import { Notice, StackingTable } from "./components.tsx";
import { ScoreHistoryChart, type ScorePoint } from "./score-chart.tsx";
import { adviceFor, SIGNAL_GUIDES, STATUS_LABELS } from "./signal-guide.ts";

export interface SiteReport {
  source: "index" | "live";
  domain: string;
  url: string;
  name: string;
  description: string;
  score: number;
  category: Category;
  tags: string[];
  /** Each signal's state and evidence; a signal whose evidence was not kept is derived from its flag. */
  signals: Record<SignalField, SignalEvidence>;
  crawlStatus: string;
  /** Why the crawl ended as it did (live checks say; the index keeps only the status). */
  crawlNote?: string;
  /** When the crawl behind the report ran. */
  crawledAt: string;
  durationMs?: number;
  history: ScorePoint[];
  indexed: boolean;
  isVerified: boolean;
  recrawlQueued: boolean;
  /** The agent-readiness checklist (never part of the score). */
  checks: ChecklistCheck[];
  checksSummary?: ChecklistSummary;
  /** The kind of site chosen on the page, when one was. */
  kind?: SiteKind;
}

/** The state of a signal for which no evidence was kept: what its flag says, with no fetches. */
function evidenceOrFlag(evidence: SignalEvidence | undefined, present: boolean): SignalEvidence {
  if (evidence) return evidence;
  return present
    ? { status: "present", reason: "Found by the last crawl (its details were not kept).", fetched: [] }
    : { status: "absent", reason: "Not found by the last crawl (its details were not kept).", fetched: [] };
}

/** The report of an indexed site, from its detail. */
export function reportFromSiteDetail(detail: SiteDetail): SiteReport {
  const stored = detail.signal_evidence as Partial<Record<string, SignalEvidence>>;
  return {
    source: "index",
    domain: detail.domain,
    url: detail.url,
    name: detail.name,
    description: detail.description,
    score: detail.agentic_score,
    category: detail.category,
    tags: detail.tags,
    signals: Object.fromEntries(
      SIGNAL_FIELDS.map((field) => [field, evidenceOrFlag(stored[field], detail[field])]),
    ) as Record<SignalField, SignalEvidence>,
    crawlStatus: detail.crawl_status,
    crawledAt: detail.last_crawled_at,
    history: detail.score_history,
    indexed: true,
    isVerified: detail.is_verified,
    recrawlQueued: false,
    checks: detail.checks,
    ...(detail.checks_summary ? { checksSummary: detail.checks_summary } : {}),
  };
}

/** The report of a live check. */
export function reportFromCheck(result: CheckResult): SiteReport {
  return {
    source: "live",
    domain: result.domain,
    url: result.url,
    name: result.name,
    description: result.description,
    score: result.agentic_score,
    category: result.category,
    tags: result.tags,
    signals: result.signals,
    crawlStatus: result.crawl_status,
    crawlNote: result.crawl_note,
    crawledAt: result.checked_at,
    durationMs: result.duration_ms,
    history: [],
    indexed: result.indexed,
    isVerified: false,
    recrawlQueued: result.recrawl_queued,
    checks: result.checks,
    checksSummary: result.checks_summary,
  };
}

/** A signal's state as a small label: symbol and word, so colour never carries it alone. */
export function SignalStatus({ status }: { status: SignalEvidence["status"] }) {
  const { symbol, text } = STATUS_LABELS[status];
  return (
    <span class={`status status-${status}`}>
      <span aria-hidden="true">{symbol}</span> {text}
    </span>
  );
}

/** The seven signals at a glance, as one line of labels (search results). */
export function SignalsAtAGlance({ flags }: { flags: Record<SignalField, boolean> }) {
  return (
    <ul class="glance" aria-label="Signals">
      {SIGNAL_FIELDS.map((field) => (
        <li class={flags[field] ? "on" : "off"}>
          <span aria-hidden="true">{flags[field] ? "✓" : "✗"}</span> {SIGNAL_GUIDES[field].label}
          <span class="visually-hidden">{flags[field] ? ": present" : ": absent"}</span>
        </li>
      ))}
    </ul>
  );
}

/** The category and tags of a site, as a definition list. */
export function CategoryAndTags({ category, tags }: { category: Category; tags: string[] }) {
  return (
    <dl class="facts">
      <div>
        <dt>Category</dt>
        <dd>{category}</dd>
      </div>
      <div>
        <dt>Tags</dt>
        <dd>{tags.length ? tags.join(", ") : "none"}</dd>
      </div>
    </dl>
  );
}

const CRAWL_STATUS_TITLES: Record<string, string> = {
  blocked: "The site refused our crawler",
  unreachable: "The site could not be reached",
  error: "The site answered, but not with a usable page",
};

function SignalCard({ field, evidence, links }: { field: SignalField; evidence: SignalEvidence; links: SiteLinks }) {
  const guide = SIGNAL_GUIDES[field];
  const example = guide.example(links);
  const headingId = `signal-${field}`;
  return (
    <li class={`signal signal-${evidence.status}`}>
      <h3 id={headingId}>
        <span>{guide.label}</span> <SignalStatus status={evidence.status} />
      </h3>
      <p class="muted">
        {guide.purpose} Worth {SIGNAL_WEIGHTS[field]} of 100 points.
      </p>
      <p>
        <strong>What we saw:</strong> {evidence.reason || "no details"}
      </p>
      {evidence.fetched.length ? (
        <StackingTable>
          <caption class="visually-hidden">Fetches behind {guide.label}</caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Status</th>
              <th scope="col">Type</th>
            </tr>
          </thead>
          <tbody>
            {evidence.fetched.map((fetch) => (
              <tr>
                <td data-label="URL">
                  <code class="url">{fetch.url}</code>
                </td>
                <td data-label="Status">{fetch.status === null ? "no answer" : String(fetch.status)}</td>
                <td data-label="Type">{fetch.content_type ?? "none"}</td>
              </tr>
            ))}
          </tbody>
        </StackingTable>
      ) : null}
      {evidence.status === "present" ? null : (
        <p>
          <strong>How to fix:</strong> {adviceFor(field, evidence.status)}
        </p>
      )}
      <p class="refs">
        {guide.standards.map((standard) => (
          <>
            <a href={standard.href}>{standard.label}</a>
            {" · "}
          </>
        ))}
        Example: <a href={example.href}>{example.label}</a>
      </p>
    </li>
  );
}

export interface ReportProps {
  report: SiteReport;
  links: SiteLinks;
  /** The report page's own address, for choosing the kind of site (index reports only). */
  kindLinkBase?: string;
}

/** The body of a report: score (with its history when indexed), crawl note, the seven signals. */
export function Report({ report, links, kindLinkBase }: ReportProps) {
  const problem = CRAWL_STATUS_TITLES[report.crawlStatus];
  const present = SIGNAL_FIELDS.filter((field) => report.signals[field].status === "present").length;
  return (
    <>
      <section aria-labelledby="score-heading" class="score-card">
        <h2 id="score-heading">Score</h2>
        <div class="score-columns">
          <div>
            <p class="score">
              <span class="score-value">{report.score}</span>
              <span class="score-of">/100</span>
            </p>
            <meter
              min={0}
              max={100}
              low={50}
              high={80}
              optimum={100}
              value={report.score}
              aria-labelledby="score-heading"
            >
              {report.score} of 100
            </meter>
            {report.checks.length ? (
              <p>
                <a href="#checklist-heading">
                  {report.checksSummary && !report.kind
                    ? report.checksSummary.text
                    : `${report.checks.filter((check) => check.status === "pass").length} of ${report.checks.length} checklist checks pass`}
                </a>{" "}
                (not part of the score).
              </p>
            ) : null}
            <p>
              {present} of 7 signals present.{" "}
              {report.source === "live" ? (
                <>
                  Checked live{" "}
                  <time datetime={report.crawledAt}>{report.crawledAt.replace("T", " ").slice(0, 19)} UTC</time>
                  {report.durationMs !== undefined ? ` in ${(report.durationMs / 1000).toFixed(1)} s` : ""}.
                </>
              ) : (
                <>
                  Last crawled <time datetime={report.crawledAt}>{report.crawledAt.slice(0, 10)}</time>.
                </>
              )}
            </p>
            <ul class="glance" aria-label="Signals at a glance">
              {SIGNAL_FIELDS.map((field) => {
                const { status } = report.signals[field];
                return (
                  <li class={status === "present" ? "on" : "off"}>
                    <a href={`#signal-${field}`}>
                      <span aria-hidden="true">{STATUS_LABELS[status].symbol}</span> {SIGNAL_GUIDES[field].label}
                      <span class="visually-hidden">: {STATUS_LABELS[status].text.toLowerCase()}</span>
                    </a>
                  </li>
                );
              })}
            </ul>
            <CategoryAndTags category={report.category} tags={report.tags} />
          </div>
          {report.source === "index" ? (
            <div>
              <h3 id="history-heading">History</h3>
              <ScoreHistoryChart history={report.history} id="history" />
            </div>
          ) : null}
        </div>
      </section>

      {problem ? (
        <Notice tone="warning" title={problem}>
          <p>
            {report.crawlNote ??
              `The last crawl ended with the status “${report.crawlStatus}”; the signals below are from the last crawl that read the site.`}
          </p>
        </Notice>
      ) : null}

      <section aria-labelledby="signals-heading">
        <h2 id="signals-heading">Signals</h2>
        <ul class="signals">
          {SIGNAL_FIELDS.map((field) => (
            <SignalCard field={field} evidence={report.signals[field]} links={links} />
          ))}
        </ul>
      </section>

      <Checklist
        checks={report.checks}
        {...(report.checksSummary ? { summary: report.checksSummary } : {})}
        {...(report.kind ? { kind: report.kind } : {})}
        {...(kindLinkBase ? { kindLinkBase } : {})}
      />
    </>
  );
}
