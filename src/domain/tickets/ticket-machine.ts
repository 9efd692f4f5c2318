/**
 * The action ticket's state machine and the charge ledger's rules, as pure functions: the one
 * place that says which outcome a provider may report in which state, when that outcome charges
 * the offer's bounty, when it credits an earlier charge, and how much of an offer's credit limit a
 * ticket holds. The SQL of the ticket operations applies exactly these decisions (and re-checks
 * their preconditions in the statement that writes them); docs/exchange-tickets.md prints the
 * table and test/unit/ticket-machine.test.ts checks every state against every outcome.
 */
import { CHARGE_EVENTS, type ChargeEvent } from "../offers/offer-constants.ts";

export const TICKET_STATUSES = [
  "created",
  "redirected",
  "accepted",
  "activated",
  "converted",
  "rejected",
  "duplicate",
  "invalid",
  "expired",
  "revoked",
] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const OUTCOMES = ["accepted", "activated", "converted", "rejected", "duplicate", "invalid"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The outcomes an offer may name as its charge event (the offer request's charge_event). */
export { CHARGE_EVENTS, type ChargeEvent };

/** Where a ticket's money stands: never charged, charged once, or charged and then credited. */
export const CHARGE_STATUSES = ["none", "charged", "credited"] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** Outcomes that dispute a ticket: after a charge they credit it, even past expiry or revocation. */
export const CREDIT_OUTCOMES: readonly Outcome[] = ["duplicate", "invalid"];

/**
 * Statuses in which a ticket's authorization is still running: expiry and revocation apply to
 * them. A converted, rejected, duplicate or invalid ticket keeps its status for good.
 */
export const OPEN_STATUSES: readonly TicketStatus[] = ["created", "redirected", "accepted", "activated"];

/**
 * Which outcomes each status accepts while the ticket's authorization runs (the next status is
 * always the outcome's own name). An outcome needs an observed handoff first, so `created`
 * accepts none; the positive steps only move forward (accepted → activated → converted, any of
 * them may be skipped); `rejected` only answers a handoff; `duplicate` and `invalid` dispute any
 * handed-off ticket that is not already settled as rejected, duplicate or invalid.
 */
export const TRANSITIONS: Record<TicketStatus, readonly Outcome[]> = {
  created: [],
  redirected: ["accepted", "activated", "converted", "rejected", "duplicate", "invalid"],
  accepted: ["activated", "converted", "duplicate", "invalid"],
  activated: ["converted", "duplicate", "invalid"],
  converted: ["duplicate", "invalid"],
  rejected: [],
  duplicate: [],
  invalid: [],
  // Past expiry or revocation only a credit of an earlier charge crosses (see decideOutcome).
  expired: [],
  revoked: [],
};

/** A ticket as the rules see it. `status` is the effective one (see effectiveStatus). */
export interface TicketState {
  status: TicketStatus;
  charge: ChargeStatus;
  chargeEvent: ChargeEvent;
  bountyCents: number;
}

export type OutcomeRefusal = "invalid_transition" | "ticket_expired" | "authorization_revoked";

export type OutcomeDecision =
  | {
      ok: true;
      next: TicketStatus;
      /** The ledger row this outcome writes, if any: a charge of the bounty or its credit. */
      ledger: { entry: "charge" | "credit"; amountCents: number } | null;
      /** The ticket's money after the outcome, and what it is billed net (0 after a credit). */
      charge: ChargeStatus;
      billedCents: number;
    }
  | { ok: false; reason: OutcomeRefusal };

/**
 * The status a ticket shows at `now`: an open ticket whose authorization is gone (its claim no
 * longer verified and fresh, or its offer no longer active) is revoked, one past its expiry is
 * expired; any other stored status stands.
 */
export function effectiveStatus(input: {
  stored: TicketStatus;
  expiresAt: Date;
  now: Date;
  authorizationLive: boolean;
}): TicketStatus {
  if (!OPEN_STATUSES.includes(input.stored)) return input.stored;
  if (!input.authorizationLive) return "revoked";
  if (input.now.getTime() >= input.expiresAt.getTime()) return "expired";
  return input.stored;
}

/**
 * What a provider-reported outcome does to a ticket. It charges the bounty exactly when the
 * outcome is the offer's charge event and the ticket was never charged; `duplicate` or `invalid`
 * after a charge credits it (also past expiry or revocation); nothing else crosses expiry or
 * revocation, and nothing charges twice.
 */
export function decideOutcome(ticket: TicketState, outcome: Outcome): OutcomeDecision {
  const billed = ticket.charge === "charged" ? ticket.bountyCents : 0;
  if (ticket.status === "expired" || ticket.status === "revoked") {
    if (ticket.charge === "charged" && CREDIT_OUTCOMES.includes(outcome)) {
      return credit(ticket, outcome);
    }
    return { ok: false, reason: ticket.status === "expired" ? "ticket_expired" : "authorization_revoked" };
  }
  if (!TRANSITIONS[ticket.status].includes(outcome)) return { ok: false, reason: "invalid_transition" };
  if (CREDIT_OUTCOMES.includes(outcome)) {
    return ticket.charge === "charged"
      ? credit(ticket, outcome)
      : { ok: true, next: outcome, ledger: null, charge: ticket.charge, billedCents: 0 };
  }
  if (outcome === ticket.chargeEvent && ticket.charge === "none") {
    return {
      ok: true,
      next: outcome,
      ledger: { entry: "charge", amountCents: ticket.bountyCents },
      charge: "charged",
      billedCents: ticket.bountyCents,
    };
  }
  return { ok: true, next: outcome, ledger: null, charge: ticket.charge, billedCents: billed };
}

function credit(ticket: TicketState, outcome: Outcome): OutcomeDecision {
  return {
    ok: true,
    next: outcome,
    ledger: { entry: "credit", amountCents: ticket.bountyCents },
    charge: "credited",
    billedCents: 0,
  };
}

export type HandoffDecision =
  | { ok: true }
  | { ok: false; reason: "ticket_expired" | "authorization_revoked" | "ticket_ineligible" };

/** A handoff is observed once, from `created` only; its exact replay is answered before this. */
export function decideHandoff(status: TicketStatus): HandoffDecision {
  if (status === "created") return { ok: true };
  if (status === "expired") return { ok: false, reason: "ticket_expired" };
  if (status === "revoked") return { ok: false, reason: "authorization_revoked" };
  return { ok: false, reason: "ticket_ineligible" };
}

/**
 * How much of its offer's credit limit a ticket holds: its bounty while it could still be charged
 * (open and uncharged) or while it is charged; nothing once credited, settled without a charge,
 * or past expiry or revocation uncharged (no new charge crosses those).
 */
export function ticketExposureCents(ticket: TicketState): number {
  if (ticket.charge === "charged") return ticket.bountyCents;
  if (ticket.charge === "credited") return 0;
  return OPEN_STATUSES.includes(ticket.status) ? ticket.bountyCents : 0;
}

/**
 * Funded capacity for a new ticket: the offer's capped terms hold a credit limit per period, and
 * what the tickets created within the last period hold (charged, or still chargeable) plus the
 * new ticket's bounty must fit in it. Counting tickets by their creation time makes the
 * reservation exact: a charge is always within the limit its ticket reserved against.
 */
export function hasFundedCapacity(input: {
  limitCents: number | null;
  periodDays: number | null;
  heldCents: number;
  bountyCents: number;
}): boolean {
  if (input.limitCents === null || input.periodDays === null) return false;
  return input.heldCents + input.bountyCents <= input.limitCents;
}
