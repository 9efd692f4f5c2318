/**
 * The checklist on the report pages: checks grouped by category, the categories with failures
 * first and the failures first within each, each with what we saw, the evidence and the fix with
 * a copyable example. The tally for the site's kind ("N of M checks that apply to an API site
 * pass") stands beside the score, never in it.
 */
import {
  CHECK_CATEGORIES,
  type CheckCategory,
  type ChecklistSummary,
  type CheckResult,
  type CheckStatus,
  SITE_KIND_LABELS,
  SITE_KINDS,
  type SiteKind,
  tallyFor,
  tallyText,
} from "../domain/checklist/checklist-definition.ts";
import { EvidenceTable } from "./evidence-table.tsx";

/** Order of statuses on the page: what needs doing first. */
const STATUS_ORDER: CheckStatus[] = ["fail", "error", "blocked", "warn", "neutral", "pass"];

export const CHECK_STATUS_LABELS: Record<CheckStatus, { symbol: string; text: string }> = {
  pass: { symbol: "✓", text: "Pass" },
  warn: { symbol: "!", text: "Warning" },
  fail: { symbol: "✗", text: "Fail" },
  neutral: { symbol: "–", text: "Neutral" },
  blocked: { symbol: "⊘", text: "Blocked" },
  error: { symbol: "?", text: "Error" },
};

const CATEGORY_TITLES: Record<CheckCategory, string> = {
  discoverability: "Discoverability",
  content: "Content",
  "bot access": "Bot access",
  discovery: "Discovery",
  auth: "Auth",
  commerce: "Commerce",
  legacy: "Legacy",
};

/** Splits a fix into its instruction and its example (after the first blank line). */
export function splitFix(fix: string): { instruction: string; example: string | null } {
  const index = fix.indexOf("\n\n");
  return index < 0
    ? { instruction: fix, example: null }
    : { instruction: fix.slice(0, index), example: fix.slice(index + 2) };
}

function rank(status: CheckStatus): number {
  return STATUS_ORDER.indexOf(status);
}

/** The checks grouped by category, the worst groups first and the worst checks first in each. */
export function groupChecks(checks: readonly CheckResult[]): { category: CheckCategory; checks: CheckResult[] }[] {
  const groups = CHECK_CATEGORIES.map((category) => ({
    category,
    checks: checks.filter((check) => check.category === category).sort((a, b) => rank(a.status) - rank(b.status)),
  })).filter((group) => group.checks.length > 0);
  const worst = (group: { checks: CheckResult[] }) => Math.min(...group.checks.map((check) => rank(check.status)));
  return groups.sort((a, b) => worst(a) - worst(b));
}

function CheckStatusLabel({ status }: { status: CheckStatus }) {
  const { symbol, text } = CHECK_STATUS_LABELS[status];
  return (
    <span class={`status check-status-${status}`}>
      <span aria-hidden="true">{symbol}</span> {text}
    </span>
  );
}

/** Statuses whose card is folded into one line: nothing to do there. */
const FOLDED_STATUSES: readonly CheckStatus[] = ["pass", "neutral"];

function CheckBody({ check, kind }: { check: CheckResult; kind: SiteKind }) {
  const fix = check.fix ? splitFix(check.fix) : null;
  const applies = check.applies_to.includes(kind);
  const exampleId = `fix-${check.id}`;
  return (
    <>
      <p>
        <strong>What we saw:</strong> {check.reason}
      </p>
      {check.evidence.length ? <EvidenceTable fetches={check.evidence} subject={check.title} /> : null}
      {fix ? (
        <>
          <p>
            <strong>How to fix:</strong> {fix.instruction}
          </p>
          {fix.example ? (
            <>
              <label for={exampleId}>Example to copy</label>
              <textarea id={exampleId} class="snippet" readonly rows={Math.min(8, fix.example.split("\n").length + 1)}>
                {fix.example}
              </textarea>
            </>
          ) : null}
        </>
      ) : null}
      <p class="muted">
        {check.applies_to.length === 0
          ? "Matters only for sites that publish it."
          : `Matters for ${check.applies_to.map((each) => SITE_KIND_LABELS[each].replace(/^an? /, "")).join(", ")}.`}
        {applies ? "" : ` Not counted for ${SITE_KIND_LABELS[kind]}.`}
      </p>
    </>
  );
}

/** A check: open when it fails, warns or could not be decided; folded into one line otherwise. */
function CheckCard({ check, kind }: { check: CheckResult; kind: SiteKind }) {
  if (FOLDED_STATUSES.includes(check.status)) {
    return (
      <li class={`check check-${check.status} folded`} id={`check-${check.id}`}>
        <details>
          <summary>
            <span class="folded-title">{check.title}</span> <CheckStatusLabel status={check.status} />{" "}
            <span class="folded-reason">{check.reason}</span>
          </summary>
          <CheckBody check={check} kind={kind} />
        </details>
      </li>
    );
  }
  return (
    <li class={`check check-${check.status}`} id={`check-${check.id}`}>
      <h4>
        <span>{check.title}</span> <CheckStatusLabel status={check.status} />
      </h4>
      <CheckBody check={check} kind={kind} />
    </li>
  );
}

export interface ChecklistProps {
  checks: readonly CheckResult[];
  summary?: ChecklistSummary;
  /** The kind chosen on the page; the inferred kind when none. */
  kind?: SiteKind;
  /** The page's address, for the kind links (none on a page that cannot be re-read, such as a check's result). */
  kindLinkBase?: string;
}

/** The checklist section. */
export function Checklist({ checks, summary, kind, kindLinkBase }: ChecklistProps) {
  if (checks.length === 0) {
    return (
      <section aria-labelledby="checklist-heading">
        <h2 id="checklist-heading">Checklist</h2>
        <p>This site has not been crawled since the checklist was added; a live check shows it now.</p>
      </section>
    );
  }
  const inferred = summary?.site_kind ?? "content";
  const selected = kind ?? inferred;
  const tally = tallyFor(checks, selected);
  return (
    <section aria-labelledby="checklist-heading">
      <h2 id="checklist-heading">Checklist</h2>
      <p class="lead">
        <strong>{tallyText(tally, selected)}.</strong> The checklist is never part of the score.
      </p>
      <p>
        Read as {SITE_KIND_LABELS[inferred]}
        {summary ? `: ${summary.site_kind_reason.replace(/\.$/, "")}` : ""}.
      </p>
      {kindLinkBase ? (
        <nav aria-label="Kind of site">
          <ul class="kinds">
            {SITE_KINDS.map((each) => (
              <li>
                <a
                  href={`${kindLinkBase}?kind=${each}#checklist-heading`}
                  aria-current={each === selected ? "true" : undefined}
                >
                  Read as {SITE_KIND_LABELS[each].replace(/^an? /, "")} ({tallyFor(checks, each).passing} of{" "}
                  {tallyFor(checks, each).applicable})
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : (
        <p class="muted">
          {SITE_KINDS.filter((each) => each !== selected)
            .map((each) => `${tallyText(tallyFor(checks, each), each)}`)
            .join("; ")}
          .
        </p>
      )}
      {groupChecks(checks).map((group) => (
        <section aria-labelledby={`checks-${group.category.replace(" ", "-")}`}>
          <h3 id={`checks-${group.category.replace(" ", "-")}`}>{CATEGORY_TITLES[group.category]}</h3>
          <ul class="checks">
            {group.checks.map((check) => (
              <CheckCard check={check} kind={selected} />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
