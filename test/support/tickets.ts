/**
 * The agent-to-provider path for the integration tests: a verified claim with an active offer
 * (made through the API, accepted with the key, verified and activated by the operator's own
 * domain functions), a search that disclosed it, and the ticket, handoff, resolve and outcome
 * calls as an agent and a provider's server make them.
 */
import { env } from "cloudflare:workers";
import { createSigning } from "../../src/adapters/signing.ts";
import { type KeyRing, parseConfig } from "../../src/config.ts";
import { activateOffer, ownerVerifyAcceptance } from "../../src/domain/offers/operator-acts.ts";
import { keyClient, sessionClient, type VerifiedClaim, verifiedClaimThroughApi } from "./accounts.ts";
import { searchOk } from "./search.ts";
import { testDatabase } from "./sites.ts";
import { asClient, newClientIp } from "./worker.ts";

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** The Worker's own signing capability, rebuilt from its bindings (to forge and check in tests). */
export function testSigning() {
  const signing = parseConfig(env as unknown as Record<string, unknown>).capabilities.signing;
  if (!signing) throw new Error("the integration Worker has no signing keys");
  return {
    signing: createSigning({
      attributionKeys: signing.ATTRIBUTION_SIGNING_KEYS,
      receiptKeys: signing.RECEIPT_SIGNING_KEYS,
      attributionTtlSeconds: signing.ATTRIBUTION_TTL_SECONDS,
      receiptValiditySeconds: signing.RECEIPT_VALIDITY_SECONDS,
    }),
    receiptKeys: signing.RECEIPT_SIGNING_KEYS as KeyRing,
  };
}

export interface OfferBody {
  id: string;
  version: number;
  commercial_terms_sha256: string;
  [field: string]: unknown;
}

/** A verified claim (through the API and the local DNS zone) and one active offer of it. */
export async function activeOfferOfNewClaim(
  overrides: Record<string, unknown> = {},
): Promise<{ claim: VerifiedClaim; offer: OfferBody }> {
  const claim = await verifiedClaimThroughApi();
  const created = await sessionClient(claim.session.token)(
    "/api/v1/provider/offers",
    json({
      claim_id: claim.claimId,
      name: "Book a demo",
      summary: "A 30-minute demo with an engineer.",
      action_type: "demo",
      action_url: `https://www.${claim.domain}/demo`,
      charge_event: "converted",
      bounty_cents: 2500,
      currency: "usd",
      principal_price_mode: "free",
      principal_currency: "usd",
      billing_mode: "terms",
      terms_credit_limit_cents: 100_000,
      terms_period_days: 30,
      ...overrides,
    }),
  );
  if (created.status !== 201) throw new Error(`offer answered ${created.status}: ${await created.text()}`);
  const offer = (await created.json()) as OfferBody;
  const accepted = await keyClient(claim.key)(
    "/api/v1/provider/commercial-acceptances",
    json(
      {
        event_type: "terms_acceptance",
        offer_id: offer.id,
        offer_version: offer.version,
        exact_terms_sha256: offer.commercial_terms_sha256,
        provider_acceptance_reference: `contract:${crypto.randomUUID()}`,
      },
      { "Idempotency-Key": `test-${crypto.randomUUID()}` },
    ),
  );
  if (accepted.status !== 201) throw new Error(`acceptance answered ${accepted.status}: ${await accepted.text()}`);
  const acceptanceId = ((await accepted.json()) as { acceptance: { id: string } }).acceptance.id;
  const operator = { db: testDatabase(), now: new Date(), operator: "ticket-tests" };
  await ownerVerifyAcceptance(operator, acceptanceId);
  await activateOffer(operator, offer.id);
  return { claim, offer };
}

/** A real (not synthetic) search for the claim's domain, as an agent runs it; its receipt disclosed the offer. */
export async function searchDisclosing(domain: string, headers: Record<string, string> = {}) {
  const body = (await searchOk(asClient(), { q: domain }, headers)) as unknown as {
    search_id: string;
    paid_offers: { offer_id?: string; id?: string }[];
  };
  return body;
}

/** A ticket request body for this search and offer. */
export function ticketRequest(searchId: string, offerId: string, intent: Record<string, unknown> = {}) {
  return {
    search_id: searchId,
    offer_id: offerId,
    caller_attests_principal_consent: true,
    consent_version: "principal-consent v1",
    controlled_intent: {
      topic: "developer-tools",
      region_code: "DE",
      budget_band: "usd_100_499",
      urgency: "this_week",
      requirement_flags: ["api_access"],
      ...intent,
    },
  };
}

export interface TicketBody {
  ticket_id: string;
  attribution_bearer: string;
  ticket_status: string;
  expires_at: string;
  [field: string]: unknown;
}

export const postTicket = (body: unknown, ip: string = newClientIp()) =>
  asClient(ip)("/api/v1/action-tickets", json(body));

export async function ticketOk(body: unknown): Promise<TicketBody> {
  const response = await postTicket(body);
  if (response.status !== 201) throw new Error(`ticket answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as TicketBody;
}

export function handoffRequest(ticket: Pick<TicketBody, "ticket_id" | "attribution_bearer">, disclose = true) {
  return {
    ticket_id: ticket.ticket_id,
    attribution_bearer: ticket.attribution_bearer,
    handoff_consent_version: "svc-provider-handoff-consent-v1",
    ...(disclose
      ? { controlled_intent_disclosure_consent_version: "svc-provider-controlled-intent-disclosure-consent-v1" }
      : {}),
  };
}

export const postHandoff = (body: unknown, ip: string = newClientIp()) =>
  asClient(ip)("/api/v1/action-tickets/handoff", json(body));

export const postResolve = (key: string, body: unknown) =>
  keyClient(key)("/api/v1/provider/action-tickets/resolve", json(body));

/** POST /provider/outcomes with the key; a fresh Idempotency-Key unless one is given (null: none). */
export const postOutcome = (key: string, body: unknown, idempotencyKey: string | null = `out-${crypto.randomUUID()}`) =>
  keyClient(key)(
    "/api/v1/provider/outcomes",
    json(body, idempotencyKey === null ? {} : { "Idempotency-Key": idempotencyKey }),
  );

export const postVerify = (body: unknown) => asClient()("/api/v1/action-receipts/verify", json(body));

/** Everything up to a handed-off ticket: claim, active offer, disclosing search, ticket, handoff. */
export async function handedOffTicket(options: { offer?: Record<string, unknown>; disclose?: boolean } = {}) {
  const { claim, offer } = await activeOfferOfNewClaim(options.offer);
  const search = await searchDisclosing(claim.domain);
  const ticket = await ticketOk(ticketRequest(search.search_id, offer.id));
  const handoff = await postHandoff(handoffRequest(ticket, options.disclose ?? true));
  if (handoff.status !== 201) throw new Error(`handoff answered ${handoff.status}: ${await handoff.text()}`);
  return { claim, offer, search, ticket, handoff: (await handoff.json()) as Record<string, unknown> };
}
