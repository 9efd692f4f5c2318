/**
 * The /check body as the command-line checker reads it, whether it crawled the site itself or
 * asked the service: the seven signals, and the checklist (`checks`) when the service carries
 * one. The checklist's shape and ids are the contract of agent-web-2026.md ("The checklist").
 */
import { CHECK_IDS } from "../../src/domain/checklist/checklist-definition.ts";
import type { CheckResult } from "../../src/domain/checks/check-site.ts";
import { SIGNAL_FIELDS, type SignalField } from "../../src/domain/sites/site-fields.ts";

/** A checklist entry's status (the contract's table). */
export type ChecklistStatus = "pass" | "warn" | "fail" | "neutral" | "blocked" | "error";

/** One check in a response: `{id, category, status, title, reason, evidence, fix, applies_to}`. */
export interface ChecklistEntry {
  id: string;
  category: string;
  status: ChecklistStatus;
  title: string;
  reason: string;
  evidence: { url: string; status: number | null; content_type: string | null }[];
  /** Absent on pass. */
  fix?: string;
  applies_to: string[];
}

/** The kind of site the checklist read and how many of the checks that apply to it pass. */
export interface ChecklistSummary {
  site_kind: string;
  site_kind_reason: string;
  /** e.g. "12 of 15 checks that apply to an API site pass". */
  text: string;
}

/** The /check body; `checks` and `checks_summary` are read only when the body carries them. */
export type CheckBody = Omit<CheckResult, "checks" | "checks_summary"> & {
  checks?: ChecklistEntry[];
  checks_summary?: ChecklistSummary;
};

/** Every check id of the contract, so `--require` can tell a check the body lacks from a typo. */
export const CHECKLIST_IDS: readonly string[] = CHECK_IDS;

export function isSignalField(name: string): name is SignalField {
  return (SIGNAL_FIELDS as readonly string[]).includes(name);
}

export function isChecklistId(name: string): boolean {
  return CHECKLIST_IDS.includes(name);
}

/** The body's checklist, or null when it carries none (a service or a build without one). */
export function checklistOf(body: { checks?: unknown }): ChecklistEntry[] | null {
  return Array.isArray(body.checks) ? (body.checks as ChecklistEntry[]) : null;
}
