/**
 * Offers, acceptances and the operator's acts for the integration tests: offers made through the
 * API as the owner's pages make them, acceptances sent with the provider key as a provider's
 * server sends them, and the operator's commands run through the same domain functions the
 * operator script calls.
 */
import { activateOffer, ownerVerifyAcceptance } from "../../src/domain/offers/operator-acts.ts";
import { insertAccount, keyClient, sessionClient, type TestSession } from "./accounts.ts";
import { sqlRows, testDatabase } from "./sites.ts";

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

/**
 * A claim of an already indexed domain, written by SQL: verified with its last proof this many
 * seconds ago (or revoked). For search tests that need offers on chosen organic results.
 */
export async function insertClaimOf(
  domain: string,
  options: { lastSucceededSecondsAgo?: number; revoked?: boolean } = {},
): Promise<string> {
  const { accountId } = await insertAccount();
  const [claim] = await sqlRows<{ id: string }>(
    `insert into provider_claims (account_id, site_id, domain, verification_record_name, status, challenge_sha256,
       challenge_expires_at, verified_at, verification_last_succeeded_at, revoked_at)
     select $1, s.id, s.domain, '_agent-readiness-challenge.' || s.domain, case when $4 then 'revoked' else 'verified' end,
       repeat('a', 64), now() + interval '7 days', now() - make_interval(secs => $2), now() - make_interval(secs => $2),
       case when $4 then now() end
     from sites s where s.domain = $3
     returning id`,
    [accountId, options.lastSucceededSecondsAgo ?? 0, domain, options.revoked ?? false],
  );
  if (!claim) throw new Error(`no site ${domain}`);
  return claim.id;
}

/** An offer of the claim written by SQL in this status, with its version 1; its id. */
export async function insertOfferOf(
  claimId: string,
  domain: string,
  status: "draft" | "active" | "paused",
  bountyCents = 1000,
): Promise<string> {
  const id = crypto.randomUUID();
  const hash = Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
  const terms = [
    "Try it",
    "A trial of the product.",
    "trial",
    `https://${domain}/trial`,
    "activated",
    bountyCents,
    "usd",
    "free",
    "usd",
    "terms",
    100_000,
    30,
    hash,
  ];
  const columns =
    "name, summary, action_type, action_url, charge_event, bounty_cents, currency, principal_price_mode, principal_currency, billing_mode, terms_credit_limit_cents, terms_period_days, commercial_terms_sha256";
  await sqlRows(
    `with offer as (
       insert into provider_offers (id, claim_id, status, version, activated_at, ${columns})
       values ($1, $2, $3, 1, case when $3 <> 'draft' then now() end, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
       returning *
     )
     insert into provider_offer_versions (offer_id, version, ${columns}) select id, version, ${columns} from offer`,
    [id, claimId, status, ...terms],
  );
  return id;
}
