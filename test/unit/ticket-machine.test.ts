/**
 * The ticket state machine and the charge ledger's rules: every state against every outcome and
 * charge position, and a property test over random histories of many tickets of one offer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CHARGE_EVENTS,
  CHARGE_STATUSES,
  type ChargeEvent,
  type ChargeStatus,
  decideHandoff,
  decideOutcome,
  effectiveStatus,
  hasFundedCapacity,
  OUTCOMES,
  type Outcome,
  TICKET_STATUSES,
  type TicketState,
  type TicketStatus,
  ticketExposureCents,
} from "../../src/domain/tickets/ticket-machine.ts";

/** The expected next status, written out by hand, for a ticket that was never charged. */
const EXPECTED: Record<TicketStatus, Partial<Record<Outcome, TicketStatus>>> = {
  created: {},
  redirected: {
    accepted: "accepted",
    activated: "activated",
    converted: "converted",
    rejected: "rejected",
    duplicate: "duplicate",
    invalid: "invalid",
  },
  accepted: { activated: "activated", converted: "converted", duplicate: "duplicate", invalid: "invalid" },
  activated: { converted: "converted", duplicate: "duplicate", invalid: "invalid" },
  converted: { duplicate: "duplicate", invalid: "invalid" },
  rejected: {},
  duplicate: {},
  invalid: {},
  expired: {},
  revoked: {},
};

const BOUNTY = 2500;
const ticket = (status: TicketStatus, charge: ChargeStatus, chargeEvent: ChargeEvent): TicketState => ({
  status,
  charge,
  chargeEvent,
  bountyCents: BOUNTY,
});

describe("decideOutcome: every state × every outcome × every charge position × every charge event", () => {
  for (const status of TICKET_STATUSES) {
    for (const outcome of OUTCOMES) {
      it(`${status} + ${outcome}`, () => {
        for (const chargeEvent of CHARGE_EVENTS) {
          for (const charge of CHARGE_STATUSES) {
            const decision = decideOutcome(ticket(status, charge, chargeEvent), outcome);
            const isCredit = outcome === "duplicate" || outcome === "invalid";
            if (status === "expired" || status === "revoked") {
              // Only the credit of a standing charge crosses expiry or revocation.
              if (charge === "charged" && isCredit) {
                expect(decision).toEqual({
                  ok: true,
                  next: outcome,
                  ledger: { entry: "credit", amountCents: BOUNTY },
                  charge: "credited",
                  billedCents: 0,
                });
              } else {
                expect(decision).toEqual({
                  ok: false,
                  reason: status === "expired" ? "ticket_expired" : "authorization_revoked",
                });
              }
              continue;
            }
            const next = EXPECTED[status][outcome];
            if (!next) {
              expect(decision).toEqual({ ok: false, reason: "invalid_transition" });
              continue;
            }
            if (!decision.ok) throw new Error(`${status} + ${outcome} refused`);
            expect(decision.next).toBe(next);
            if (isCredit) {
              expect(decision.ledger).toEqual(charge === "charged" ? { entry: "credit", amountCents: BOUNTY } : null);
              expect(decision.charge).toBe(charge === "charged" ? "credited" : charge);
              expect(decision.billedCents).toBe(0);
            } else if (outcome === chargeEvent && charge === "none") {
              expect(decision.ledger).toEqual({ entry: "charge", amountCents: BOUNTY });
              expect(decision.charge).toBe("charged");
              expect(decision.billedCents).toBe(BOUNTY);
            } else {
              // Not the charge event, or charged already: no ledger row, the money unchanged.
              expect(decision.ledger).toBeNull();
              expect(decision.charge).toBe(charge);
              expect(decision.billedCents).toBe(charge === "charged" ? BOUNTY : 0);
            }
          }
        }
      });
    }
  }
});

describe("effectiveStatus and decideHandoff", () => {
  const now = new Date("2026-11-23T04:00:00Z");
  const later = new Date("2026-11-24T04:00:00Z");
  it("expires and revokes only open tickets; revocation wins over expiry", () => {
    for (const stored of TICKET_STATUSES) {
      const open = ["created", "redirected", "accepted", "activated"].includes(stored);
      expect(effectiveStatus({ stored, expiresAt: later, now, authorizationLive: true })).toBe(stored);
      expect(effectiveStatus({ stored, expiresAt: now, now, authorizationLive: true })).toBe(open ? "expired" : stored);
      expect(effectiveStatus({ stored, expiresAt: later, now, authorizationLive: false })).toBe(
        open ? "revoked" : stored,
      );
      expect(effectiveStatus({ stored, expiresAt: now, now, authorizationLive: false })).toBe(
        open ? "revoked" : stored,
      );
    }
  });

  it("hands off from created only", () => {
    for (const status of TICKET_STATUSES) {
      const expected =
        status === "created"
          ? { ok: true }
          : {
              ok: false,
              reason:
                status === "expired"
                  ? "ticket_expired"
                  : status === "revoked"
                    ? "authorization_revoked"
                    : "ticket_ineligible",
            };
      expect(decideHandoff(status)).toEqual(expected);
    }
  });

  it("counts a ticket against the credit limit while it is charged or still chargeable", () => {
    for (const status of TICKET_STATUSES) {
      for (const charge of CHARGE_STATUSES) {
        const open = ["created", "redirected", "accepted", "activated"].includes(status);
        const expected = charge === "charged" ? BOUNTY : charge === "credited" ? 0 : open ? BOUNTY : 0;
        expect(ticketExposureCents(ticket(status, charge, "converted"))).toBe(expected);
      }
    }
    expect(hasFundedCapacity({ limitCents: 5000, periodDays: 30, heldCents: 2500, bountyCents: 2500 })).toBe(true);
    expect(hasFundedCapacity({ limitCents: 5000, periodDays: 30, heldCents: 2501, bountyCents: 2500 })).toBe(false);
    expect(hasFundedCapacity({ limitCents: null, periodDays: 30, heldCents: 0, bountyCents: 1 })).toBe(false);
    expect(hasFundedCapacity({ limitCents: 5000, periodDays: null, heldCents: 0, bountyCents: 1 })).toBe(false);
  });
});

/** One offer's tickets driven through random histories by the same rules the service applies. */
interface ModelTicket {
  createdAt: number;
  expiresAt: number;
  stored: TicketStatus;
  charge: ChargeStatus;
  charges: number;
  credits: number;
  netCents: number;
}

const DAY = 86_400;
const command = fc.oneof(
  fc.record({ kind: fc.constant("create" as const) }),
  fc.record({ kind: fc.constant("wait" as const), seconds: fc.integer({ min: 1, max: 10 * DAY }) }),
  fc.record({ kind: fc.constant("handoff" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("outcome" as const), pick: fc.nat(), outcome: fc.constantFrom(...OUTCOMES) }),
  fc.record({ kind: fc.constant("authorization" as const), live: fc.boolean() }),
);

describe("property: no history charges a ticket twice or an offer beyond its credit limit", () => {
  it("holds for random offers, tickets, outcomes, expiries and revocations", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom(...CHARGE_EVENTS),
        fc.array(command, { maxLength: 120 }),
        (bounty, limit, periodDays, ttlDays, chargeEvent, commands) => {
          const period = periodDays * DAY;
          const tickets: ModelTicket[] = [];
          let now = 0;
          let live = true;
          const state = (t: ModelTicket): TicketState => ({
            status: effectiveStatus({
              stored: t.stored,
              expiresAt: new Date(t.expiresAt * 1000),
              now: new Date(now * 1000),
              authorizationLive: live,
            }),
            charge: t.charge,
            chargeEvent,
            bountyCents: bounty,
          });
          for (const step of commands) {
            if (step.kind === "wait") now += step.seconds;
            if (step.kind === "authorization") live = step.live;
            if (step.kind === "create") {
              // What the tickets created within the last period hold, as the service counts it.
              const held = tickets
                .filter((t) => t.createdAt > now - period)
                .reduce((sum, t) => sum + ticketExposureCents(state(t)), 0);
              if (live && hasFundedCapacity({ limitCents: limit, periodDays, heldCents: held, bountyCents: bounty })) {
                tickets.push({
                  createdAt: now,
                  expiresAt: now + ttlDays * DAY,
                  stored: "created",
                  charge: "none",
                  charges: 0,
                  credits: 0,
                  netCents: 0,
                });
              }
            }
            const target = "pick" in step && tickets.length > 0 ? tickets[step.pick % tickets.length] : undefined;
            if (step.kind === "handoff" && target && decideHandoff(state(target).status).ok) {
              target.stored = "redirected";
            }
            if (step.kind === "outcome" && target) {
              const before = state(target);
              const decision = decideOutcome(before, step.outcome);
              if (decision.ok) {
                // A positive outcome never crosses expiry or revocation.
                if (before.status === "expired" || before.status === "revoked") {
                  expect(decision.ledger?.entry).toBe("credit");
                }
                target.stored = decision.next;
                target.charge = decision.charge;
                if (decision.ledger?.entry === "charge") {
                  target.charges += 1;
                  target.netCents += decision.ledger.amountCents;
                }
                if (decision.ledger?.entry === "credit") {
                  target.credits += 1;
                  target.netCents -= decision.ledger.amountCents;
                }
              }
            }
            for (const t of tickets) {
              expect(t.charges).toBeLessThanOrEqual(1);
              expect(t.credits).toBeLessThanOrEqual(t.charges);
              expect(t.netCents).toBeGreaterThanOrEqual(0);
              expect(t.netCents).toBeLessThanOrEqual(bounty);
            }
            // Every period-long window of ticket creations is charged (net) within the limit.
            for (const first of tickets) {
              const windowNet = tickets
                .filter((t) => t.createdAt >= first.createdAt && t.createdAt < first.createdAt + period)
                .reduce((sum, t) => sum + t.netCents, 0);
              expect(windowNet).toBeLessThanOrEqual(limit);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
