/**
 * Accounts, sessions, claims and provider keys for the integration tests: credentials written
 * straight to the database where the sign-in flow is not what a test is about, the local stack's
 * outbox and DNS zone, and requests carrying a session cookie as the service's own pages send them.
 * Secrets are made and hashed here, apart from src, so a test never borrows the code it checks.
 */
import { env } from "cloudflare:workers";
import { sha256Hex } from "../../src/domain/sha256.ts";
import { insertSites, sqlRows, uniqueToken } from "./sites.ts";
import { asClient, newClientIp } from "./worker.ts";

export { sha256Hex };

/**
 * The local outbox and DNS zone, read from the Worker's own bindings (set from TEST_MAIL_PORT and
 * TEST_DNS_PORT by the config, in Node): inside workerd the host's environment is not visible, so
 * reading those variables here would fall back to the default ports of somebody else's stack.
 */
const bindings = env as unknown as { MAIL_API_URL: string; OWNERSHIP_DOH_URLS: string };
const OUTBOX_URL = bindings.MAIL_API_URL.replace(/\/$/, "");
const DNS_ZONE_URL = new URL(bindings.OWNERSHIP_DOH_URLS.split(",")[0] ?? "").origin;

/** The origin the Worker sees in the tests (`call` sends to http://svc.test). */
export const OWN_ORIGIN = "http://svc.test";
export const SESSION_COOKIE = "svc_session";
export const PROVIDER_KEY_HEADER = "X-SVC-Provider-Key";
/** The label under a domain where its ownership TXT record is published. */
export const CHALLENGE_LABEL = "_agent-readiness-challenge";

/** A secret shaped as the service issues them: the prefix and 32 random bytes in unpadded base64url (43 characters). */
export function newSecret(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `${prefix}${base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
}

/** An address no other test uses. */
export const newEmail = (label = "person") => `${label}-${uniqueToken()}@example.com`;

export interface TestSession {
  token: string;
  accountId: string;
  email: string;
}

/** An account with this address, made if missing; its id. */
export async function insertAccount(email: string = newEmail()): Promise<{ accountId: string; email: string }> {
  const [row] = await sqlRows<{ id: string }>(
    "insert into accounts (email) values ($1) on conflict (email) do update set email = excluded.email returning id",
    [email],
  );
  return { accountId: row!.id, email };
}

/**
 * A session row for a (new) account, as a completed sign-in leaves it: the token's SHA-256 only.
 * `expiresInSeconds` below zero makes an expired session; `ended` one signed out.
 */
export async function insertSession(
  options: { accountId?: string; email?: string; expiresInSeconds?: number; ended?: boolean } = {},
): Promise<TestSession> {
  const account = options.accountId
    ? { accountId: options.accountId, email: options.email ?? "" }
    : await insertAccount(options.email);
  const token = newSecret("svcss_");
  await sqlRows(
    `insert into sessions (token_sha256, account_id, expires_at, ended_at)
     values ($1, $2, now() + make_interval(secs => $3), case when $4 then now() end)`,
    [await sha256Hex(token), account.accountId, options.expiresInSeconds ?? 3600, options.ended ?? false],
  );
  return { token, ...account };
}

/** Request headers of the service's own page in a browser holding this session. */
export function sessionHeaders(token: string, extra: HeadersInit = {}): Headers {
  const headers = new Headers(extra);
  headers.set("Cookie", `${SESSION_COOKIE}=${token}`);
  headers.set("Sec-Fetch-Site", "same-origin");
  headers.set("Origin", OWN_ORIGIN);
  return headers;
}

/** A client (its own address, so no limit is shared) calling with a session as the service's pages do. */
export function sessionClient(token: string, ip: string = newClientIp()) {
  const client = asClient(ip);
  return (path: string, init: RequestInit = {}) =>
    client(path, { ...init, headers: sessionHeaders(token, init.headers) });
}

/** A client calling with a provider key, as a provider's server does (no browser headers). */
export function keyClient(key: string, ip: string = newClientIp()) {
  const client = asClient(ip);
  return (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set(PROVIDER_KEY_HEADER, key);
    return client(path, { ...init, headers });
  };
}

export interface OutboxMessage {
  id: string;
  to: string[];
  from: string;
  subject: string;
  text: string | null;
  html: string | null;
  headers: Record<string, string>;
  created_at: string;
}

/** The local outbox's messages to this address, newest first. */
export async function outboxMessages(to: string): Promise<OutboxMessage[]> {
  const response = await fetch(`${OUTBOX_URL}/messages?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`outbox answered ${response.status}`);
  return (await response.json()) as OutboxMessage[];
}

/** The sign-in token of the newest message to this address, and the link it came in. */
export async function signInLinkFor(to: string): Promise<{ link: string; token: string; message: OutboxMessage }> {
  const [message] = await outboxMessages(to);
  if (!message) throw new Error(`no message to ${to}`);
  const link = /\S+\/sign-in\?token=\S+/.exec(message.text ?? "")?.[0];
  if (!link) throw new Error(`no sign-in link in: ${message.text}`);
  const token = new URL(link).searchParams.get("token");
  if (!token) throw new Error(`no token in ${link}`);
  return { link, token, message };
}

/** Publishes a TXT record in the local zone the Worker's ownership lookups ask. */
export async function publishTxt(name: string, value: string): Promise<void> {
  const response = await fetch(`${DNS_ZONE_URL}/records`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, type: "TXT", value }),
  });
  if (response.status !== 201) throw new Error(`zone answered ${response.status}: ${await response.text()}`);
}

/** Removes every TXT record of the name from the local zone. */
export async function removeTxt(name: string): Promise<void> {
  const url = `${DNS_ZONE_URL}/records?name=${encodeURIComponent(name)}&type=TXT`;
  const response = await fetch(url, { method: "DELETE" });
  if (!response.ok) throw new Error(`zone answered ${response.status}`);
}

/** An indexed site of its own; its domain. */
export async function insertSite(): Promise<string> {
  const domain = `${uniqueToken()}.example`;
  await insertSites([{ domain }]);
  return domain;
}

const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** The claim challenge response as a test reads it. */
export interface ChallengeBody {
  claim: Record<string, unknown> & { id: string; domain: string; status: string };
  dns_challenge: { record_type: string; record_name: string; record_value: string; expires_at: string };
  ownership_freshness: Record<string, unknown>;
  verify_endpoint: string;
}

/** The claim verify response as a test reads it. */
export interface VerifyBody {
  claim: Record<string, unknown> & { id: string; status: string };
  verified: boolean;
  provider_key_returned: boolean;
  provider_key?: string;
  provider_key_metadata?: Record<string, unknown>;
  key_endpoint?: string;
  ownership_freshness: Record<string, unknown>;
}

/** POST /provider/claims through the API; throws unless 201. */
export async function createClaim(session: TestSession, domain: string): Promise<ChallengeBody> {
  const response = await sessionClient(session.token)("/api/v1/provider/claims", json({ domain }));
  if (response.status !== 201) throw new Error(`claim answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as ChallengeBody;
}

/** POST …/verify through the API, as the owner's page does. */
export function verifyClaim(session: TestSession, claimId: string, ip?: string): Promise<Response> {
  return sessionClient(session.token, ip)(`/api/v1/provider/claims/${claimId}/verify`, { method: "POST" });
}

export interface VerifiedClaim {
  session: TestSession;
  domain: string;
  claimId: string;
  recordName: string;
  recordValue: string;
  key: string;
  keyId: number;
}

/** The whole owner's path through the API: a session, an indexed site, its claim, the TXT record published, verified. */
export async function verifiedClaimThroughApi(session?: TestSession): Promise<VerifiedClaim> {
  const owner = session ?? (await insertSession());
  const domain = await insertSite();
  const challenge = await createClaim(owner, domain);
  await publishTxt(challenge.dns_challenge.record_name, challenge.dns_challenge.record_value);
  const response = await verifyClaim(owner, challenge.claim.id);
  if (response.status !== 200) throw new Error(`verify answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as VerifyBody;
  if (!body.provider_key) throw new Error("the first verification returned no key");
  return {
    session: owner,
    domain,
    claimId: challenge.claim.id,
    recordName: challenge.dns_challenge.record_name,
    recordValue: challenge.dns_challenge.record_value,
    key: body.provider_key,
    keyId: Number(body.provider_key_metadata?.provider_api_key_id),
  };
}

/**
 * A verified claim with an active key, written by SQL (no DNS record: its next check is unset, so
 * the recheck job leaves it alone). `lastSucceededSecondsAgo` ages its last ownership proof.
 */
export async function insertVerifiedClaim(
  options: { accountId?: string; lastSucceededSecondsAgo?: number } = {},
): Promise<{ claimId: string; domain: string; key: string; accountId: string }> {
  const accountId = options.accountId ?? (await insertAccount()).accountId;
  const domain = await insertSite();
  const [claim] = await sqlRows<{ id: string }>(
    `insert into provider_claims (account_id, site_id, domain, verification_record_name, status, challenge_sha256,
       challenge_expires_at, verified_at, verification_last_succeeded_at, verification_last_attempted_at)
     select $1, s.id, s.domain, $2, 'verified', $3, now() + interval '7 days',
       now() - make_interval(secs => $4), now() - make_interval(secs => $4), now() - make_interval(secs => $4)
     from sites s where s.domain = $5
     returning id`,
    [
      accountId,
      `${CHALLENGE_LABEL}.${domain}`,
      await sha256Hex(newSecret("svc-domain-verification=")),
      options.lastSucceededSecondsAgo ?? 0,
      domain,
    ],
  );
  const key = await insertProviderKey(claim!.id);
  return { claimId: claim!.id, domain, key, accountId };
}

/** A new active key of the claim, written by SQL (the claim must hold no other active key). */
export async function insertProviderKey(claimId: string): Promise<string> {
  const key = newSecret("svcpk_");
  await sqlRows("insert into provider_api_keys (claim_id, key_sha256, key_prefix) values ($1, $2, $3)", [
    claimId,
    await sha256Hex(key),
    key.slice(0, 10),
  ]);
  return key;
}

/** Moves the claim's last successful proof this many seconds into the past. */
export async function ageLastSuccess(claimId: string, seconds: number): Promise<void> {
  await sqlRows(
    "update provider_claims set verification_last_succeeded_at = now() - make_interval(secs => $2) where id = $1",
    [claimId, seconds],
  );
}

export { json as jsonPost };
