/**
 * The checker's gates and its exit status: 0 when every gate passes, 1 when one fails, 2 when
 * the site could not be checked (no usable home page, or, with no gate failed, a required item
 * the crawl could not decide or the body does not carry). A gate is never decided on a crawl
 * that saw nothing.
 */
import { SIGNAL_LABELS } from "../../src/web/signal-guide.ts";
import { type CheckBody, checklistOf, isChecklistId, isSignalField } from "./check-body.ts";

export const EXIT_PASS = 0;
export const EXIT_GATE_FAILED = 1;
export const EXIT_NOT_CHECKED = 2;

export interface GateSettings {
  /** The lowest score that passes. */
  failUnder?: number;
  /** Signal fields (has_llms_txt…) and check ids (robots_txt…) that must be present or pass. */
  require: string[];
}

/** One gate's outcome: passed, failed, or undecided (the crawl could not tell). */
export interface GateOutcome {
  gate: string;
  outcome: "passed" | "failed" | "undecided";
  message: string;
  /** The signal or check a --require gate names. */
  required?: string;
}

export interface GateVerdict {
  outcomes: GateOutcome[];
  exitCode: number;
  /** Why the site could not be checked, when exitCode is 2 for the crawl itself. */
  notChecked?: string;
}

/** A name --require does not know at all: a usage error, said before any crawl. */
export function unknownRequirements(names: string[]): string[] {
  return names.filter((name) => !isSignalField(name) && !isChecklistId(name));
}

function requireSignal(body: CheckBody, field: keyof typeof SIGNAL_LABELS): GateOutcome {
  const evidence = body.signals[field];
  const gate = `require ${field}`;
  const required = field;
  if (evidence.status === "present") {
    return { gate, required, outcome: "passed", message: `${SIGNAL_LABELS[field]} is present` };
  }
  const outcome = evidence.status === "absent" ? "failed" : "undecided";
  return { gate, required, outcome, message: `${SIGNAL_LABELS[field]} is ${evidence.status}: ${evidence.reason}` };
}

/**
 * A required check passes on pass and on warn (present, flawed in a way agents live with; the
 * warning is shown). fail and neutral (does not apply, or was not asked for) fail the gate: it was
 * required and was not found. blocked and error leave it undecided.
 */
function requireCheck(body: CheckBody, id: string): GateOutcome {
  const gate = `require ${id}`;
  const required = id;
  const checks = checklistOf(body);
  if (checks === null) {
    return {
      gate,
      required,
      outcome: "undecided",
      message: `the check ${id} is not available: this check result carries no checklist`,
    };
  }
  const check = checks.find((entry) => entry.id === id);
  if (!check) {
    return { gate, required, outcome: "undecided", message: `the check ${id} is not available in this check result` };
  }
  const seen = `${check.status}: ${check.reason}`;
  if (check.status === "pass" || check.status === "warn") return { gate, required, outcome: "passed", message: seen };
  if (check.status === "fail" || check.status === "neutral")
    return { gate, required, outcome: "failed", message: seen };
  return { gate, required, outcome: "undecided", message: seen };
}

/** Decides every gate on a check body, and the exit status they give. */
export function evaluateGates(body: CheckBody, settings: GateSettings): GateVerdict {
  if (body.crawl_status !== "success") {
    return {
      outcomes: [],
      exitCode: EXIT_NOT_CHECKED,
      notChecked: `the site could not be checked (crawl ${body.crawl_status}): ${body.crawl_note}`,
    };
  }
  const outcomes: GateOutcome[] = [];
  if (settings.failUnder !== undefined) {
    const passed = body.agentic_score >= settings.failUnder;
    outcomes.push({
      gate: `fail under ${settings.failUnder}`,
      outcome: passed ? "passed" : "failed",
      message: `the score is ${body.agentic_score}, ${passed ? "at least" : "under"} ${settings.failUnder}`,
    });
  }
  for (const name of settings.require) {
    outcomes.push(isSignalField(name) ? requireSignal(body, name) : requireCheck(body, name));
  }
  // A gate that failed decides the run whatever the undecided ones would have said.
  const exitCode = outcomes.some((gate) => gate.outcome === "failed")
    ? EXIT_GATE_FAILED
    : outcomes.some((gate) => gate.outcome === "undecided")
      ? EXIT_NOT_CHECKED
      : EXIT_PASS;
  return { outcomes, exitCode };
}
