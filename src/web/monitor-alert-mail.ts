/**
 * The words of a score-drop alert (plain text): the score before and now, each signal lost with
 * the latest crawl's evidence and how to fix it (the report page's own guide), the score history,
 * and how to stop the alerts. The monitor job sends it with the List-Unsubscribe headers.
 */

import { buildSiteLinks, siteReportUrl } from "../domain/descriptor/site-documents.ts";
import type { DropAlert } from "../domain/monitors/drop-alerts.ts";
import { adviceFor, SIGNAL_GUIDES, STATUS_LABELS } from "./signal-guide.ts";

const when = (timestamp: string) => `${new Date(timestamp).toISOString().replace("T", " ").slice(0, 16)} UTC`;

/** Subject and text of the alert. */
export function composeDropAlert(alert: DropAlert): { subject: string; text: string } {
  const links = buildSiteLinks(alert.origin);
  const points = alert.previousScore - alert.score;
  const headline =
    points > 0
      ? `The agent-readiness score of ${alert.domain} dropped from ${alert.previousScore} to ${alert.score}.`
      : `${alert.domain} lost ${alert.lostSignals.length === 1 ? "a signal" : "signals"} (score ${alert.score}).`;
  const lines = [headline, ""];
  if (alert.lostSignals.length > 0) {
    lines.push(
      alert.lostSignals.length === 1
        ? "Signal lost since the previous crawl:"
        : "Signals lost since the previous crawl:",
      "",
    );
    for (const field of alert.lostSignals) {
      const guide = SIGNAL_GUIDES[field];
      const evidence = alert.evidence[field];
      const status = evidence?.status ?? "absent";
      lines.push(`* ${guide.label}: now ${STATUS_LABELS[status].text.toLowerCase()}`);
      if (evidence?.reason) lines.push(`  Why: ${evidence.reason}`);
      for (const fetched of evidence?.fetched ?? []) {
        const type = fetched.content_type ? `, ${fetched.content_type}` : "";
        lines.push(`  Fetched: ${fetched.url} (status ${fetched.status ?? "no answer"}${type})`);
      }
      lines.push(`  How to fix it: ${status === "present" ? guide.howToAdd : adviceFor(field, status)}`);
      for (const standard of guide.standards) lines.push(`  Standard: ${standard.label}, ${standard.href}`);
      lines.push("");
    }
  } else {
    lines.push("No signal was lost: the score changed with how the site's signals are weighed.", "");
  }
  lines.push("Score history (newest first):");
  for (const entry of alert.history) lines.push(`  ${when(entry.recordedAt)}  ${entry.score}`);
  lines.push(
    "",
    `The full report, with every signal's evidence: ${siteReportUrl(alert.origin, alert.domain)}`,
    `Check the site again once it is fixed: ${links.check}`,
    "",
    `You get this e-mail because this address confirmed score-drop alerts for ${alert.domain}.`,
    `Stop them with one click: ${alert.unsubscribeUrl}`,
  );
  return { subject: `Score drop: ${alert.domain} ${alert.previousScore} → ${alert.score}`, text: lines.join("\n") };
}
