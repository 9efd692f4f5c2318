/**
 * The report of one site, as the site's page shows it from the index and the check page shows it
 * from a live crawl: the score, each of the seven signals with its state, the evidence behind it
 * and how to fix it, and (for an indexed site) the score history. Both sources are first turned
 * into one `SiteReport`, so the two pages cannot drift apart.
 */

import {
  CAPABILITY_SOURCE_LABELS,
  type CapabilityItem,
  type CapabilitySource,
} from "../domain/capabilities/site-capabilities.ts";
import {
  type CheckResult as ChecklistCheck,
  type ChecklistSummary,
  SITE_KIND_LABELS,
  type SiteKind,
  tallyFor,
} from "../domain/checklist/checklist-definition.ts";
import type { CheckResult } from "../domain/checks/check-site.ts";
import type { SiteLinks } from "../domain/descriptor/site-documents.ts";
import { SIGNAL_WEIGHTS } from "../domain/scoring/agentic-score.ts";
import type { SignalEvidence } from "../domain/signals/types.ts";
import type { SiteDetail } from "../domain/sites/get-site-detail.ts";
import { type Category, SIGNAL_FIELDS, type SignalField } from "../domain/sites/site-fields.ts";
import { Checklist } from "./checklist-report.tsx";
import { Notice } from "./components.tsx";
import { displayText } from "./display-text.ts";
import { CONTROL_REQUESTS_ID, EvidenceTable, hasControlRequests } from "./evidence-table.tsx";
import { topFixes, UNREACHABLE_CAUSES, unreachableCause } from "./report-summary.tsx";
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
  /** The index knows the site's icon (served through /icons/{domain}); never for a live check. */
  hasFavicon: boolean;
  recrawlQueued: boolean;
  /** The agent-readiness checklist (never part of the score). */
  checks: ChecklistCheck[];
  checksSummary?: ChecklistSummary;
  /** The kind of site chosen on the page, when one was. */
  kind?: SiteKind;
  /** What the site's own documents say it does, by source (an indexed site's last crawl). */
  capabilities?: { source: CapabilitySource; items: CapabilityItem[] }[];
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
    name: displayText(detail.name),
    description: displayText(detail.description),
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
    hasFavicon: detail.has_favicon,
    recrawlQueued: false,
    checks: detail.checks,
    ...(detail.checks_summary ? { checksSummary: detail.checks_summary } : {}),
    capabilities: detail.capabilities,
  };
}

/** The report of a live check. */
export function reportFromCheck(result: CheckResult): SiteReport {
  return {
    source: "live",
    domain: result.domain,
    url: result.url,
    name: displayText(result.name),
    description: displayText(result.description),
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
    hasFavicon: false,
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

function SignalBody({ field, evidence, links }: { field: SignalField; evidence: SignalEvidence; links: SiteLinks }) {
  const guide = SIGNAL_GUIDES[field];
  const example = guide.example(links);
  return (
    <>
      <p class="muted">
        {guide.purpose} Worth {SIGNAL_WEIGHTS[field]} of 100 points.
      </p>
      <p>
        <strong>What we saw:</strong> {evidence.reason || "no details"}
      </p>
      {evidence.fetched.length ? <EvidenceTable fetches={evidence.fetched} subject={guide.label} /> : null}
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
    </>
  );
}

/**
 * A signal's card: open when something is to be done, folded into one line (its name, state and
 * what we saw) when the signal is present.
 */
function SignalCard({ field, evidence, links }: { field: SignalField; evidence: SignalEvidence; links: SiteLinks }) {
  const guide = SIGNAL_GUIDES[field];
  const headingId = `signal-${field}`;
  if (evidence.status === "present") {
    return (
      <li class="signal signal-present folded" id={headingId}>
        <details>
          <summary>
            <span class="folded-title">{guide.label}</span> <SignalStatus status={evidence.status} />{" "}
            <span class="folded-reason">{evidence.reason}</span>
          </summary>
          <SignalBody field={field} evidence={evidence} links={links} />
        </details>
      </li>
    );
  }
  return (
    <li class={`signal signal-${evidence.status}`}>
      <h3 id={headingId}>
        <span>{guide.label}</span> <SignalStatus status={evidence.status} />
      </h3>
      <SignalBody field={field} evidence={evidence} links={links} />
    </li>
  );
}

export interface ReportProps {
  report: SiteReport;
  links: SiteLinks;
  /** The report page's own address, for choosing the kind of site (index reports only). */
  kindLinkBase?: string;
}

/** True when the crawl behind the report read the site's home page. */
export function wasRead(report: Pick<SiteReport, "crawlStatus">): boolean {
  return report.crawlStatus === "success";
}

/** A live check that could not read the site: what happened and why, the fix, and no score. */
function NotReadLead({ report }: { report: SiteReport }) {
  const note = report.crawlNote ?? "";
  const cause = report.crawlStatus === "blocked" ? null : unreachableCause(note);
  const text = cause ? UNREACHABLE_CAUSES[cause] : null;
  return (
    <section aria-labelledby="not-read-heading" class="not-read">
      <Notice tone="error" title={text?.title ?? CRAWL_STATUS_TITLES[report.crawlStatus] ?? "The site was not read"}>
        <p>
          <strong>What happened:</strong> {note || `The check ended with the status “${report.crawlStatus}”.`}
        </p>
        <p>
          <strong>How to fix:</strong>{" "}
          {text
            ? text.fix
            : "The site answered the crawler with an access-denied or rate-limit status, or a bot challenge. Let the crawler through in your firewall or bot protection; then check again."}
        </p>
      </Notice>
      <h2 id="not-read-heading">No score</h2>
      <p>
        The site was not read, so it has no score and nothing was checked: every signal and every check starts from the
        home page. Fix the cause above and check again.
      </p>
    </section>
  );
}

/** The summary: score, kind, the checklist's tally, and the three fixes that would help most. */
function Summary({ report }: { report: SiteReport }) {
  const present = SIGNAL_FIELDS.filter((field) => report.signals[field].status === "present").length;
  const kind = report.kind ?? report.checksSummary?.site_kind ?? "content";
  const fixes = topFixes(report.signals, report.checks, kind);
  const tally = tallyFor(report.checks, kind);
  return (
    <section aria-labelledby="score-heading" class="score-card">
      <h2 id="score-heading">Summary</h2>
      <div class="score-columns">
        <div>
          <p class="score">
            <span class="score-value">{report.score}</span>
            <span class="score-of">/100</span>
            <span class="visually-hidden"> agent readiness score</span>
          </p>
          <meter min={0} max={100} low={50} high={80} optimum={100} value={report.score} aria-label="Score">
            {report.score} of 100
          </meter>
          <dl class="summary-facts">
            <div>
              <dt>Signals</dt>
              <dd>{present} of 7 present</dd>
            </div>
            <div>
              <dt>Kind</dt>
              <dd>{SITE_KIND_LABELS[kind].replace(/^an? /, "").replace(/^./, (first) => first.toUpperCase())}</dd>
            </div>
            {report.checks.length ? (
              <div>
                <dt>Checklist</dt>
                <dd>
                  <a href="#checklist-heading" class="tally">
                    {tally.passing} of {tally.applicable} checks that apply pass
                  </a>{" "}
                  (not part of the score)
                </dd>
              </div>
            ) : null}
            <div>
              <dt>{report.source === "live" ? "Checked" : "Last crawled"}</dt>
              <dd>
                {report.source === "live" ? (
                  <>
                    <time datetime={report.crawledAt}>{report.crawledAt.replace("T", " ").slice(0, 19)} UTC</time>
                    {report.durationMs !== undefined ? ` in ${(report.durationMs / 1000).toFixed(1)} s` : ""}
                  </>
                ) : (
                  <time datetime={report.crawledAt}>{report.crawledAt.slice(0, 10)}</time>
                )}
              </dd>
            </div>
          </dl>
        </div>
        <div>
          <h3 id="fixes-heading">What would help most</h3>
          {fixes.length ? (
            <ol class="top-fixes">
              {fixes.map((fix) => (
                <li>
                  <a href={fix.href}>{fix.title}</a> <span class="effect">({fix.effect})</span>: {fix.instruction}
                </li>
              ))}
            </ol>
          ) : (
            <p>Nothing: every signal is present and every check that applies passes.</p>
          )}
        </div>
      </div>
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
    </section>
  );
}

/** The one explanation of control requests, shown when the report lists any. */
function ControlRequestsNote() {
  return (
    <aside id={CONTROL_REQUESTS_ID} class="notice notice-info" aria-labelledby="control-requests-heading">
      <p class="notice-title" id="control-requests-heading">
        About control requests
      </p>
      <p>
        Some fetches below are control requests: a path that cannot exist (a random name such as <code>/3f9c….txt</code>
        ), asked to tell a real file from a catch-all page. Many sites answer 200 to any address; a document that looks
        like that answer does not count. They are listed apart from the evidence.
      </p>
    </aside>
  );
}

/**
 * "What agents can do here": what the site's own documents say it does, grouped by the document
 * it was read from, in the site's words (markup stripped, cut to size: docs/discovery.md).
 */
export function Capabilities({ groups }: { groups: NonNullable<SiteReport["capabilities"]> }) {
  return (
    <section aria-labelledby="capabilities-heading" class="capabilities">
      <h2 id="capabilities-heading">What agents can do here</h2>
      {groups.length === 0 ? (
        <p>
          The site's own documents name nothing the last crawl could read: no MCP tools, OpenAPI operations, A2A or
          Agent Skills, ARD entries, or llms.txt summary.
        </p>
      ) : (
        <>
          <p>As the site's own machine-readable documents describe it, read at the last crawl.</p>
          {groups.map((group) => (
            <section aria-labelledby={`capabilities-${group.source}`}>
              <h3 id={`capabilities-${group.source}`}>{CAPABILITY_SOURCE_LABELS[group.source]}</h3>
              <ul class="capability-list">
                {group.items.map((item) => (
                  <li>
                    <strong>{item.name}</strong>
                    {item.description ? ` — ${item.description}` : ""}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
    </section>
  );
}

/** The body of a report: the summary (or why the site was not read), the signals, the checklist. */
export function Report({ report, links, kindLinkBase }: ReportProps) {
  if (report.source === "live" && !wasRead(report)) return <NotReadLead report={report} />;
  const problem = CRAWL_STATUS_TITLES[report.crawlStatus];
  const controls =
    SIGNAL_FIELDS.some((field) => hasControlRequests(report.signals[field].fetched)) ||
    report.checks.some((check) => hasControlRequests(check.evidence));
  const open = SIGNAL_FIELDS.filter((field) => report.signals[field].status !== "present");
  const folded = SIGNAL_FIELDS.filter((field) => report.signals[field].status === "present");
  return (
    <>
      {problem ? (
        <Notice tone="warning" title={problem}>
          <p>
            {report.crawlNote ??
              `The last crawl ended with the status “${report.crawlStatus}”; the signals below are from the last crawl that read the site.`}
          </p>
        </Notice>
      ) : null}

      <Summary report={report} />

      {report.capabilities ? <Capabilities groups={report.capabilities} /> : null}

      {report.source === "index" ? (
        <section aria-labelledby="history-heading">
          <h2 id="history-heading">Score history</h2>
          <ScoreHistoryChart history={report.history} id="history" />
        </section>
      ) : null}

      <section aria-labelledby="signals-heading">
        <h2 id="signals-heading">Signals</h2>
        {controls ? <ControlRequestsNote /> : null}
        <ul class="signals">
          {[...open, ...folded].map((field) => (
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
