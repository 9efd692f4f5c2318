/** POST /action-tickets: every status, and its abuse limit. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { createGroups } from "../../src/routes/groups.ts";
import { ageLastSuccess, sessionClient } from "../support/accounts.ts";
import { sqlRows } from "../support/sites.ts";
import { insertExpiredTicket } from "../support/ticket-cases.ts";
import { activeOfferOfNewClaim, postTicket, searchDisclosing, ticketOk, ticketRequest } from "../support/tickets.ts";
import { asClient, awayFromWindowEdge, expectInvalid, expectProblem, newClientIp } from "../support/worker.ts";

describe("POST /action-tickets: every status", () => {
  it("400: unknown fields (identity, contact, prompt), a missing attestation, words outside the vocabularies", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    const valid = ticketRequest(search.search_id, offer.id);
    for (const field of ["email", "name", "phone", "prompt", "query", "agent_id", "principal_id", "contact"]) {
      await expectInvalid(await postTicket({ ...valid, [field]: "someone" }), "body", [field]);
    }
    await expectInvalid(
      await postTicket({ ...valid, controlled_intent: { ...valid.controlled_intent, notes: "call me at 555" } }),
      "body",
      ["controlled_intent.notes"],
    );
    await expectInvalid(await postTicket({ ...valid, consent_version: "principal-consent v2" }), "body", [
      "consent_version",
    ]);
    await expectInvalid(await postTicket({ ...valid, caller_attests_principal_consent: false }), "body", [
      "caller_attests_principal_consent",
    ]);
    await expectInvalid(
      await postTicket({
        ...valid,
        controlled_intent: {
          topic: "gardening",
          region_code: "XX",
          budget_band: "lots",
          urgency: "now",
          requirement_flags: ["vip"],
        },
      }),
      "body",
      [
        "controlled_intent.topic",
        "controlled_intent.region_code",
        "controlled_intent.budget_band",
        "controlled_intent.urgency",
        "controlled_intent.requirement_flags.0",
      ],
    );
    const invalidJson = await asClient()("/api/v1/action-tickets", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect(invalidJson.status).toBe(400);
    expect(await sqlRows("select 1 from action_tickets where search_id = $1", [search.search_id])).toEqual([]);
  });

  it("404: an offer not disclosed, an unknown search, a synthetic search (indistinguishable)", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const other = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    const synthetic = await searchDisclosing(claim.domain, { "X-SVC-Synthetic": "true" });
    for (const body of [
      ticketRequest(search.search_id, other.offer.id),
      ticketRequest("AAAAAAAAAAAAAAAAAAAAAA", offer.id),
      ticketRequest(synthetic.search_id, offer.id),
    ]) {
      const problem = await expectProblem(await postTicket(body), 404, "TICKET_SOURCE_UNAVAILABLE");
      expect(problem.detail).toBe(
        "No live, non-synthetic search receipt disclosed this offer beside its organic results.",
      );
    }
  });

  it("409: another ticket of this search and offer, a stale claim, a paused offer, no funded capacity", async () => {
    // Capacity for exactly one open ticket: the second search's ticket finds the limit taken.
    const { claim, offer } = await activeOfferOfNewClaim({ bounty_cents: 2500, terms_credit_limit_cents: 2500 });
    const first = await searchDisclosing(claim.domain);
    await ticketOk(ticketRequest(first.search_id, offer.id));
    const conflict = await expectProblem(
      await postTicket(ticketRequest(first.search_id, offer.id, { urgency: "exploring" })),
      409,
      "TICKET_CONFLICT",
    );
    expect(conflict).toMatchObject({ principal_charged: false, provider_charged: false });
    const second = await searchDisclosing(claim.domain);
    await expectProblem(
      await postTicket(ticketRequest(second.search_id, offer.id)),
      409,
      "FUNDED_CAPACITY_UNAVAILABLE",
    );

    const stale = await activeOfferOfNewClaim();
    const staleSearch = await searchDisclosing(stale.claim.domain);
    await ageLastSuccess(stale.claim.claimId, 604_800);
    await expectProblem(
      await postTicket(ticketRequest(staleSearch.search_id, stale.offer.id)),
      409,
      "PROVIDER_CLAIM_UNAVAILABLE",
    );

    const paused = await activeOfferOfNewClaim();
    const pausedSearch = await searchDisclosing(paused.claim.domain);
    const pause = await sessionClient(paused.claim.session.token)(`/api/v1/provider/offers/${paused.offer.id}/pause`, {
      method: "POST",
    });
    expect(pause.status).toBe(200);
    await expectProblem(
      await postTicket(ticketRequest(pausedSearch.search_id, paused.offer.id)),
      409,
      "AUTHORIZATION_UNAVAILABLE",
    );
  });

  it("410: the replay of a ticket whose authorization expired", async () => {
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    const expired = await insertExpiredTicket(search.search_id, offer, claim);
    await expectProblem(await postTicket(expired.body), 410, "TICKET_AUTHORIZATION_EXPIRED");
  });

  it("503 when signing is not configured (and /healthz says so), while the rest works", async () => {
    const app = createApp(createGroups());
    const unsigned = (path: string, init: RequestInit = {}) =>
      app.fetch(new Request(`http://svc.test${path}`, init), {
        ...(env as Record<string, unknown>),
        ATTRIBUTION_SIGNING_KEYS: "",
        RECEIPT_SIGNING_KEYS: "",
      });
    const post = (path: string, body: unknown) =>
      unsigned(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const { claim, offer } = await activeOfferOfNewClaim();
    const search = await searchDisclosing(claim.domain);
    await expectProblem(
      await post("/api/v1/action-tickets", ticketRequest(search.search_id, offer.id)),
      503,
      "SIGNING_UNAVAILABLE",
    );
    await expectProblem(
      await post("/api/v1/action-tickets/handoff", {
        ticket_id: crypto.randomUUID(),
        attribution_bearer: "a.b.c",
        handoff_consent_version: "svc-provider-handoff-consent-v1",
      }),
      503,
      "SIGNING_UNAVAILABLE",
    );
    await expectProblem(
      await post("/api/v1/action-receipts/verify", { signed_receipt: "{}", signature: "x" }),
      503,
      "SIGNING_UNAVAILABLE",
    );
    const resolve = await unsigned("/api/v1/provider/action-tickets/resolve", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-SVC-Provider-Key": claim.key },
      body: JSON.stringify({ attribution_token: "a.b.c" }),
    });
    await expectProblem(resolve, 503, "SIGNING_UNAVAILABLE");
    const outcome = await unsigned("/api/v1/provider/outcomes", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-SVC-Provider-Key": claim.key, "Idempotency-Key": "unsigned-1" },
      body: JSON.stringify({ attribution_token: "a.b.c", outcome: "accepted" }),
    });
    await expectProblem(outcome, 503, "SIGNING_UNAVAILABLE");
    expect(await sqlRows("select 1 from action_tickets where search_id = $1", [search.search_id])).toEqual([]);
    const health = (await (await unsigned("/healthz")).json()) as { capabilities: Record<string, string> };
    expect(health.capabilities.signing).toBe("not_configured");
    const signed = (await (await asClient()("/healthz")).json()) as { capabilities: Record<string, string> };
    expect(signed.capabilities.signing).toBe("configured");
    expect((await unsigned(`/api/v1/search?q=${claim.domain}`)).status).toBe(200);
  });
});

describe("abuse limits", () => {
  it("429 after 60 ticket requests an hour from one client, counted once the body is valid", async () => {
    await awayFromWindowEdge(3600, 60);
    const ip = newClientIp();
    const body = ticketRequest("AAAAAAAAAAAAAAAAAAAAAA", crypto.randomUUID());
    // Invalid bodies spend nothing.
    await expectInvalid(await postTicket({ ...body, email: "x@example.com" }, ip), "body", ["email"]);
    for (let i = 0; i < 60; i++) expect((await postTicket(body, ip)).status).toBe(404);
    const limited = await postTicket(body, ip);
    await expectProblem(limited, 429, "RATE_LIMITED");
    expect(limited.headers.get("cache-control")).toBe("private, no-store");
  });
});
