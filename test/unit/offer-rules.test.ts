/**
 * The offers' pure rules: an offer's commercial state from its acceptances (what activation,
 * renewal and the pilot status rest on), the action URL rule, and the operator's command line.
 */
import { describe, expect, it } from "vitest";
import { parseOperatorArgs } from "../../scripts/operator.ts";
import { type AcceptanceEvidence, commercialState } from "../../src/domain/offers/commercial-state.ts";
import { assertActionUrlOnDomain } from "../../src/domain/offers/offer-input.ts";

const NOW = new Date("2026-11-23T12:00:00.000Z");
const CURRENT = "c".repeat(64);
const OLD = "0".repeat(64);
const draft = {
  status: "draft" as const,
  commercial_terms_sha256: CURRENT,
  terms_credit_limit_cents: 1000,
  revoked_at: null,
};

function acceptance(overrides: Partial<AcceptanceEvidence> = {}): AcceptanceEvidence {
  return {
    id: crypto.randomUUID(),
    provider_offer_id: "offer",
    event_type: "terms_acceptance",
    exact_terms_sha256: CURRENT,
    provider_accepted_at: "2026-11-20T00:00:00.000Z",
    valid_until: "2026-12-20T00:00:00.000Z",
    owner_verified_at: null,
    ...overrides,
  };
}

describe("commercialState", () => {
  it("without acceptances: nothing verified, nothing to renew, not ready, no optional members", () => {
    expect(commercialState(draft, [], true, NOW)).toEqual({
      provider_acknowledges_merchant_of_record: false,
      latest_acceptance_owner_verified: false,
      current_terms_owner_verified: false,
      renewal_eligible: false,
      activation_ready: false,
    });
  });

  it("an owner-verified, unexpired acceptance of the current terms makes a capped draft of a fresh claim ready", () => {
    const verified = acceptance({ owner_verified_at: "2026-11-21T00:00:00.000Z" });
    expect(commercialState(draft, [verified], true, NOW)).toMatchObject({
      current_terms_owner_verified: true,
      current_terms_valid_until: "2026-12-20T00:00:00.000Z",
      activation_ready: true,
      renewal_eligible: true,
      latest_acceptance_id: verified.id,
      latest_acceptance_owner_verified_at: "2026-11-21T00:00:00.000Z",
    });
    expect(commercialState(draft, [verified], false, NOW).activation_ready).toBe(false);
    expect(commercialState({ ...draft, terms_credit_limit_cents: null }, [verified], true, NOW).activation_ready).toBe(
      false,
    );
    expect(commercialState({ ...draft, status: "active" }, [verified], true, NOW).activation_ready).toBe(false);
    expect(commercialState({ ...draft, revoked_at: "2026-11-22T00:00:00.000Z" }, [verified], true, NOW)).toMatchObject({
      activation_ready: false,
      renewal_eligible: false,
    });
  });

  it("counts neither an expired acceptance nor one of other terms for the current terms", () => {
    const expired = acceptance({
      owner_verified_at: "2026-11-01T00:00:00.000Z",
      valid_until: "2026-11-23T12:00:00.000Z",
    });
    const ofOldTerms = acceptance({ exact_terms_sha256: OLD, owner_verified_at: "2026-11-21T00:00:00.000Z" });
    const state = commercialState(draft, [expired, ofOldTerms], true, NOW);
    expect(state.current_terms_owner_verified).toBe(false);
    expect(state.activation_ready).toBe(false);
    expect(state).not.toHaveProperty("current_terms_valid_until");
    // The expired one is still of the current terms: a renewal can chain to it.
    expect(state.renewal_eligible).toBe(true);
  });

  it("describes the newest acceptance as latest, whatever its terms", () => {
    const older = acceptance({ owner_verified_at: "2026-11-21T00:00:00.000Z" });
    const newer = acceptance({
      event_type: "terms_renewal",
      exact_terms_sha256: OLD,
      provider_accepted_at: "2026-11-22T00:00:00.000Z",
    });
    expect(commercialState(draft, [older, newer], true, NOW)).toMatchObject({
      latest_acceptance_id: newer.id,
      latest_acceptance_type: "terms_renewal",
      latest_acceptance_owner_verified: false,
      current_terms_owner_verified: true,
    });
  });

  it("never offers a renewal for a paused offer", () => {
    expect(commercialState({ ...draft, status: "paused" }, [acceptance()], true, NOW).renewal_eligible).toBe(false);
  });
});

describe("assertActionUrlOnDomain", () => {
  it("accepts HTTPS on the domain and its subdomains", () => {
    for (const url of ["https://acme.example/", "https://www.acme.example/a/b", "https://ACME.example/x"]) {
      expect(() => assertActionUrlOnDomain(url, "acme.example"), url).not.toThrow();
    }
  });

  it("refuses other schemes, hosts, queries, fragments, credentials and ports", () => {
    for (const url of [
      "http://acme.example/",
      "https://acme.example.evil.example/",
      "https://notacme.example/",
      "https://acme.example/?",
      "https://acme.example/#",
      "https://acme.example/a?b=1",
      "https://user@acme.example/",
      "https://acme.example:444/",
      "not a url",
    ]) {
      expect(() => assertActionUrlOnDomain(url, "acme.example"), url).toThrow(/action_url/);
    }
  });
});

describe("operator command line", () => {
  const id = "0b6f1f5e-4a43-4c53-9a57-0d2b8f7a9e11";

  it("takes the operator from --by, else OPERATOR", () => {
    expect(parseOperatorArgs(["activate-offer", id, "--by", "alice"], { OPERATOR: "bob" })).toEqual({
      command: "activate-offer",
      id,
      operator: "alice",
    });
    expect(parseOperatorArgs(["owner-verify-acceptance", id], { OPERATOR: "bob" })).toMatchObject({ operator: "bob" });
    expect(parseOperatorArgs(["list-pending"], {})).toEqual({ command: "list-pending" });
  });

  it("refuses a missing operator, a bad id, an unknown command and extra arguments", () => {
    expect(() => parseOperatorArgs(["activate-offer", id], {})).toThrow(/name the operator/);
    expect(() => parseOperatorArgs(["activate-offer", "12", "--by", "a"], {})).toThrow(/UUID/);
    expect(() => parseOperatorArgs(["delete-everything"], {})).toThrow(/unknown command/);
    expect(() => parseOperatorArgs([], {})).toThrow(/no command/);
    expect(() => parseOperatorArgs(["list-pending", "x"], {})).toThrow(/no argument/);
    expect(() => parseOperatorArgs(["activate-offer", id, "extra", "--by", "a"], {})).toThrow(/unexpected/);
    expect(() => parseOperatorArgs(["activate-offer", id, "--by"], {})).toThrow(/--by needs/);
  });
});
