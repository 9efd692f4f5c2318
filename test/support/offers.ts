/**
 * Offers, acceptances and the operator's acts for the integration tests: offers made through the
 * API as the owner's pages make them, acceptances sent with the provider key as a provider's
 * server sends them, and the operator's commands run through the same domain functions the
 * operator script calls.
 */
import { activateOffer, ownerVerifyAcceptance } from "../../src/domain/offers/operator-acts.ts";
import { keyClient, sessionClient, type TestSession } from "./accounts.ts";
import { testDatabase } from "./sites.ts";

/** A complete, valid offer request for a claim of this domain. */
export function offerBody(claimId: string | undefined, domain: string, overrides: Record<string, unknown> = {}) {
  return {
    ...(claimId ? { claim_id: claimId } : {}),
    name: "Book a demo",
    summary: "A 30-minute demo with an engineer.",
    action_type: "demo",
    action_url: `https://www.${domain}/demo`,
    charge_event: "converted",
    bounty_cents: 2500,
    currency: "usd",
    principal_price_mode: "free",
    principal_currency: "usd",
    billing_mode: "terms",
    terms_credit_limit_cents: 100_000,
    terms_period_days: 30,
    ...overrides,
  };
}

export interface OfferBody {
  id: string;
  claim_id: string;
  status: string;
  version: number;
  commercial_terms_sha256: string;
  commercial_state: Record<string, unknown>;
  [field: string]: unknown;
}

const jsonInit = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** POST /provider/offers through the API; throws unless 201. */
export async function createOffer(
  session: TestSession,
  claimId: string,
  domain: string,
  overrides: Record<string, unknown> = {},
): Promise<OfferBody> {
  const response = await sessionClient(session.token)(
    "/api/v1/provider/offers",
    jsonInit("POST", offerBody(claimId, domain, overrides)),
  );
  if (response.status !== 201) throw new Error(`offer answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as OfferBody;
}

/** POST /provider/commercial-acceptances with the key and an Idempotency-Key. */
export function postAcceptance(key: string, idempotencyKey: string | undefined, body: unknown, ip?: string) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (idempotencyKey !== undefined) headers["Idempotency-Key"] = idempotencyKey;
  return keyClient(key, ip)("/api/v1/provider/commercial-acceptances", {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
}

/** A new Idempotency-Key. */
export const newIdempotencyKey = () => `test-${crypto.randomUUID()}`;

/** The terms_acceptance body of the offer's current version. */
export const termsAcceptance = (offer: Pick<OfferBody, "id" | "version" | "commercial_terms_sha256">) => ({
  event_type: "terms_acceptance",
  offer_id: offer.id,
  offer_version: offer.version,
  exact_terms_sha256: offer.commercial_terms_sha256,
  provider_acceptance_reference: `contract:${crypto.randomUUID()}`,
});

/** Accepts the offer's current terms with the key; the acceptance id. */
export async function acceptTerms(key: string, offer: OfferBody): Promise<string> {
  const response = await postAcceptance(key, newIdempotencyKey(), termsAcceptance(offer));
  if (response.status !== 201) throw new Error(`acceptance answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { acceptance: { id: string } }).acceptance.id;
}

const operatorContext = () => ({ db: testDatabase(), now: new Date(), operator: "test-operator" });

/** The operator's owner verification of an acceptance. */
export const operatorVerify = (acceptanceId: string) => ownerVerifyAcceptance(operatorContext(), acceptanceId);

/** The operator's activation of an offer. */
export const operatorActivate = (offerId: string) => activateOffer(operatorContext(), offerId);

/** An active offer of a verified claim: created, accepted with the key, verified and activated. */
export async function activeOffer(
  claim: { session: TestSession; claimId: string; domain: string; key: string },
  overrides: Record<string, unknown> = {},
): Promise<OfferBody> {
  const offer = await createOffer(claim.session, claim.claimId, claim.domain, overrides);
  await operatorVerify(await acceptTerms(claim.key, offer));
  await operatorActivate(offer.id);
  return offer;
}
