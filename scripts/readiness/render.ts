/**
 * The checker's two readable outputs of one check: a plain-text report for a terminal, and
 * Markdown for a pull-request comment or a job summary. Both show the score, the seven signals
 * (with how to add an absent one), the checklist when the body carries one (failures first, each
 * with what was seen and its fix), the changes since the index's last crawl and the gates.
 */
import { SIGNAL_WEIGHTS } from "../../src/domain/scoring/agentic-score.ts";
import { SIGNAL_FIELDS } from "../../src/domain/sites/site-fields.ts";
import { SIGNAL_GUIDES, SIGNAL_LABELS } from "../../src/web/signal-guide.ts";
import { type CheckBody, type ChecklistEntry, type ChecklistStatus, checklistOf } from "./check-body.ts";
import type { Comparison } from "./compare.ts";
import type { GateVerdict } from "./gates.ts";

export interface Report {
  body: CheckBody;
  gates: GateVerdict;
  comparison?: Comparison;
  /** Where the check ran: "this machine" or the service's base URL. */
  checkedBy: string;
}

/** Failures first, then what could not be decided, then warnings, then the rest. */
const STATUS_ORDER: Record<ChecklistStatus, number> = { fail: 0, error: 1, blocked: 2, warn: 3, neutral: 4, pass: 5 };

const TEXT_MARKS: Record<string, string> = {
  present: "✓",
  pass: "✓",
  absent: "✗",
  fail: "✗",
  warn: "!",
  neutral: "·",
  blocked: "⊘",
  error: "?",
};

const MARKDOWN_MARKS: Record<string, string> = {
  present: "✅",
  pass: "✅",
  absent: "❌",
  fail: "❌",
  warn: "⚠️",
  neutral: "➖",
  blocked: "⛔",
  error: "❓",
};

/** The checklist in the order a site owner reads it: by status, then by category as the body gave it. */
export function orderedChecks(checks: ChecklistEntry[]): ChecklistEntry[] {
  return checks
    .map((check, index) => ({ check, index }))
    .sort((a, b) => (STATUS_ORDER[a.check.status] ?? 9) - (STATUS_ORDER[b.check.status] ?? 9) || a.index - b.index)
    .map(({ check }) => check);
}

function checklistSummary(checks: ChecklistEntry[]): string {
  const counts = new Map<string, number>();
  for (const check of checks) counts.set(check.status, (counts.get(check.status) ?? 0) + 1);
  const parts = (["pass", "warn", "fail", "neutral", "blocked", "error"] as const)
    .filter((status) => counts.has(status))
    .map((status) => `${counts.get(status)} ${status}`);
  return `${checks.length} checks: ${parts.join(", ")}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function indent(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((line) => `${prefix}${line}`)
    .join("\n");
}

function signedDelta(before: number, after: number): string {
  const delta = after - before;
  return delta === 0 ? "unchanged" : delta > 0 ? `+${delta}` : String(delta);
}

/** The signals and checks a --require gate named. */
function requiredNames(gates: GateVerdict): Set<string> {
  return new Set(gates.outcomes.flatMap((gate) => (gate.required ? [gate.required] : [])));
}

/**
 * A fix is shown where something is to be done: a check that failed, warned or could not be
 * decided. A neutral check does not apply to the site (or was not asked for), so its fix is noise
 * unless a gate requires that check.
 */
function fixShown(check: ChecklistEntry, required: Set<string>): check is ChecklistEntry & { fix: string } {
  if (!check.fix || check.status === "pass") return false;
  return check.status !== "neutral" || required.has(check.id);
}

/** The report for a terminal. */
export function renderText(report: Report): string {
  const { body, gates, comparison } = report;
  const lines: string[] = [];
  lines.push(`Agent readiness of ${body.url} (${body.domain}), checked by ${report.checkedBy}`);
  lines.push(`Score ${body.agentic_score}/100 (score version ${body.score_version})`);
  lines.push(`Crawl ${body.crawl_status}: ${body.crawl_note} ${seconds(body.duration_ms)}`);
  lines.push("");
  lines.push("Signals (the score is the sum of the weights of those present)");
  const labelWidth = Math.max(...SIGNAL_FIELDS.map((field) => SIGNAL_LABELS[field].length));
  for (const field of SIGNAL_FIELDS) {
    const evidence = body.signals[field];
    const weight = `+${SIGNAL_WEIGHTS[field]}`.padStart(3);
    lines.push(
      `  ${TEXT_MARKS[evidence.status] ?? "?"} ${evidence.status.padEnd(7)} ${weight}  ${SIGNAL_LABELS[field].padEnd(labelWidth)}  ${evidence.reason}`,
    );
    if (evidence.status === "absent") lines.push(`${" ".repeat(16)}how to add: ${SIGNAL_GUIDES[field].howToAdd}`);
  }
  const checks = checklistOf(body);
  if (checks) {
    lines.push("");
    lines.push(`Checklist (${checklistSummary(checks)}; the checklist never changes the score)`);
    if (body.checks_summary) {
      lines.push(`  ${body.checks_summary.text} (${body.checks_summary.site_kind_reason})`);
    }
    const required = requiredNames(gates);
    for (const check of orderedChecks(checks)) {
      lines.push(
        `  ${TEXT_MARKS[check.status] ?? "?"} ${check.status.padEnd(7)} ${check.id} (${check.category}): ${check.title}`,
      );
      lines.push(`${" ".repeat(12)}${check.reason}`);
      if (fixShown(check, required)) lines.push(indent(`fix: ${check.fix}`, " ".repeat(12)));
    }
  }
  if (comparison) lines.push("", ...comparisonText(comparison));
  if (gates.notChecked || gates.outcomes.length > 0) {
    lines.push("");
    lines.push("Gates");
    if (gates.notChecked) lines.push(`  ? not checked: ${gates.notChecked}`);
    for (const gate of gates.outcomes) {
      const mark = gate.outcome === "passed" ? "✓" : gate.outcome === "failed" ? "✗" : "?";
      lines.push(`  ${mark} ${gate.outcome.padEnd(9)} ${gate.gate}: ${gate.message}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function comparisonText(comparison: Comparison): string[] {
  if (!comparison.indexed) return [`Compared with the index: ${comparison.domain} is not in the index.`];
  const lines = [`Changes since the index's last crawl of ${comparison.domain} (${comparison.lastCrawledAt})`];
  const { score, crawlStatus } = comparison;
  if (score) lines.push(`  score ${score.before} → ${score.after} (${signedDelta(score.before, score.after)})`);
  if (crawlStatus && crawlStatus.before !== crawlStatus.after) {
    lines.push(`  crawl ${crawlStatus.before} → ${crawlStatus.after}`);
  }
  for (const change of comparison.signals) {
    lines.push(`  ${SIGNAL_LABELS[change.field]}: ${change.before} → ${change.after}`);
  }
  for (const change of comparison.checks) lines.push(`  ${change.id}: ${change.before} → ${change.after}`);
  if (comparison.signals.length === 0 && comparison.checks.length === 0) lines.push("  no signal or check changed");
  if (!comparison.checklistCompared) lines.push("  (checks not compared: one side carries no checklist)");
  return lines;
}

/** Text safe inside Markdown and its HTML: no tags, no table breaks, one line. */
function inline(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\|/g, "\\|")
    .replace(/\r?\n/g, " ");
}

/** A fenced block that no backtick run inside the text can close early. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}

/** The hidden line a workflow can look for to update its earlier comment instead of adding one. */
export const MARKDOWN_MARKER = "<!-- agent-readiness-check -->";

/** The report as a pull-request comment or job summary. */
export function renderMarkdown(report: Report): string {
  const { body, gates, comparison } = report;
  const out: string[] = [MARKDOWN_MARKER];
  const verdict =
    gates.exitCode === 0 ? "gates passed" : gates.exitCode === 1 ? "a gate failed" : "could not be checked";
  out.push(`### Agent readiness of \`${inline(body.domain)}\`: ${body.agentic_score}/100 (${verdict})`);
  out.push("");
  out.push(
    `Crawl **${body.crawl_status}**: ${inline(body.crawl_note)} Checked ${inline(body.url)} by ${inline(report.checkedBy)} at ${body.checked_at} in ${seconds(body.duration_ms)}.`,
  );
  if (gates.notChecked || gates.outcomes.length > 0) {
    out.push("", "| Gate | Result | |", "|---|---|---|");
    if (gates.notChecked) out.push(`| site checked | ❓ not checked | ${inline(gates.notChecked)} |`);
    for (const gate of gates.outcomes) {
      const mark = gate.outcome === "passed" ? "✅" : gate.outcome === "failed" ? "❌" : "❓";
      out.push(`| ${inline(gate.gate)} | ${mark} ${gate.outcome} | ${inline(gate.message)} |`);
    }
  }
  if (comparison) out.push("", ...comparisonMarkdown(comparison));
  out.push("", "#### Signals", "", "| Signal | Weight | Status | What we saw |", "|---|---|---|---|");
  for (const field of SIGNAL_FIELDS) {
    const evidence = body.signals[field];
    out.push(
      `| ${SIGNAL_LABELS[field]} (\`${field}\`) | ${SIGNAL_WEIGHTS[field]} | ${MARKDOWN_MARKS[evidence.status] ?? ""} ${evidence.status} | ${inline(evidence.reason)} |`,
    );
  }
  const absent = SIGNAL_FIELDS.filter((field) => body.signals[field].status === "absent");
  if (absent.length > 0) {
    out.push("", "<details><summary>How to add the absent signals</summary>", "");
    for (const field of absent) out.push(`- **${SIGNAL_LABELS[field]}**: ${inline(SIGNAL_GUIDES[field].howToAdd)}`);
    out.push("", "</details>");
  }
  const checks = checklistOf(body);
  if (checks) {
    out.push("", `#### Checklist (${checklistSummary(checks)})`, "");
    if (body.checks_summary) {
      out.push(`**${inline(body.checks_summary.text)}** (${inline(body.checks_summary.site_kind_reason)})`, "");
    }
    const required = requiredNames(gates);
    // Listed in full: what is to be done, and any check a gate requires.
    const open = orderedChecks(checks).filter(
      (check) => check.status !== "pass" && (check.status !== "neutral" || required.has(check.id)),
    );
    for (const check of open) {
      out.push(
        `- ${MARKDOWN_MARKS[check.status] ?? ""} **${inline(check.title)}** (\`${inline(check.id)}\`, ${inline(check.category)}, ${check.status}): ${inline(check.reason)}`,
      );
      if (fixShown(check, required)) {
        out.push("", "  <details><summary>Fix</summary>", "", indent(fenced(check.fix), "  "), "", "  </details>", "");
      }
    }
    const folded = (status: ChecklistStatus, summary: string, mark: string) => {
      const listed = checks.filter((check) => check.status === status && !open.includes(check));
      if (listed.length === 0) return;
      out.push("", `<details><summary>${listed.length} ${summary}</summary>`, "");
      for (const check of listed)
        out.push(`- ${mark} ${inline(check.title)} (\`${inline(check.id)}\`): ${inline(check.reason)}`);
      out.push("", "</details>");
    };
    folded("neutral", "not applicable to this site", "➖");
    folded("pass", "passed", "✅");
    out.push("", "The checklist never changes the score, which stays the sum of the seven signals' weights.");
  }
  return `${out.join("\n")}\n`;
}

function comparisonMarkdown(comparison: Comparison): string[] {
  if (!comparison.indexed) return [`Compared with the index: \`${inline(comparison.domain)}\` is not in the index.`];
  const out = [
    `#### Changes since the index's last crawl of \`${inline(comparison.domain)}\` (${comparison.lastCrawledAt})`,
    "",
  ];
  const { score, crawlStatus } = comparison;
  if (score) out.push(`- Score ${score.before} → **${score.after}** (${signedDelta(score.before, score.after)})`);
  if (crawlStatus && crawlStatus.before !== crawlStatus.after) {
    out.push(`- Crawl ${crawlStatus.before} → ${crawlStatus.after}`);
  }
  for (const change of comparison.signals) {
    out.push(`- ${SIGNAL_LABELS[change.field]}: ${change.before} → **${change.after}**`);
  }
  for (const change of comparison.checks) {
    out.push(`- ${inline(change.title)} (\`${inline(change.id)}\`): ${change.before} → **${change.after}**`);
  }
  if (comparison.signals.length === 0 && comparison.checks.length === 0) out.push("- No signal or check changed.");
  if (!comparison.checklistCompared) out.push("- Checks not compared: one side carries no checklist.");
  return out;
}

/** The Markdown of a run that produced no check result (a refused URL, a service that said no). */
export function renderNotCheckedMarkdown(url: string, reason: string): string {
  return `${MARKDOWN_MARKER}\n### Agent readiness of ${inline(url)}: could not be checked\n\n${inline(reason)}\n`;
}
