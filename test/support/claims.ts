/** What the sign-in, claim and provider-key integration tests share: field lists, rules and small clients. */
import { expect } from "vitest";
import { jsonPost, keyClient, SESSION_COOKIE, sessionClient, type TestSession } from "./accounts.ts";
import { sqlRows } from "./sites.ts";
import { asClient } from "./worker.ts";

export const DAY = 86_400;
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const CLAIM_FIELDS = [
  "id",
  "site_id",
  "domain",
  "verification_method",
  "verification_record_name",
  "status",
  "challenge_expires_at",
  "verified_at",
  "verification_last_succeeded_at",
  "verification_last_attempted_at",
  "verification_consecutive_failures",
  "verification_next_check_at",
  "revoked_at",
  "created_at",
  "updated_at",
].sort();
/** The constants of the spec's OwnershipFreshness, written out here. */
export const FRESHNESS_RULES = {
  proof_method: "dns_txt",
  record_must_remain_published: true,
  stored_challenge_material: "sha256_hash_only",
  raw_dns_answers_retained: false,
  automatic_reverification: true,
  recheck_interval_seconds: 86400,
  paid_actions_stop_after_consecutive_failures: 3,
  paid_actions_stop_when_last_success_age_reaches_seconds: 604800,
};

export const seconds = (iso: unknown) => new Date(iso as string).getTime() / 1000;

/** Every Set-Cookie of a reply (workerd keeps them apart for this). */
export const setCookies = (response: Response) => response.headers.getAll("set-cookie");

/** The Set-Cookie of the session cookie, as name, value and lower-cased attributes. */
export function sessionCookie(response: Response): { value: string; attributes: Map<string, string> } {
  const header = setCookies(response).find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
  if (!header) throw new Error(`no ${SESSION_COOKIE} cookie set: ${setCookies(response).join(" | ")}`);
  const [pair = "", ...attributes] = header.split(";").map((part) => part.trim());
  return {
    value: pair.slice(SESSION_COOKIE.length + 1),
    attributes: new Map(
      attributes.map((attribute) => {
        const [name = "", ...rest] = attribute.split("=");
        return [name.toLowerCase(), rest.join("=")];
      }),
    ),
  };
}

export const signIn = (client: ReturnType<typeof asClient>, email: string) =>
  client("/api/v1/auth/email", jsonPost({ email }));
export const readSession = (token: string) =>
  asClient()("/api/v1/auth/session", { headers: { Cookie: `${SESSION_COOKIE}=${token}` } });
export const pilotStatus = (key: string, query = "") => keyClient(key)(`/api/v1/provider/pilot-status${query}`);
export const claimAction = (session: TestSession, claimId: string, action: string) =>
  sessionClient(session.token)(`/api/v1/provider/claims/${claimId}/${action}`, { method: "POST" });
export const listClaims = async (session: TestSession) => {
  const response = await sessionClient(session.token)("/api/v1/provider/claims");
  expect(response.status).toBe(200);
  return ((await response.json()) as { claims: Record<string, unknown>[] }).claims;
};
export const claimRow = async (claimId: string) =>
  (await sqlRows<Record<string, unknown>>("select * from provider_claims where id = $1", [claimId]))[0]!;
export const activeKeyCount = async (claimId: string) =>
  Number(
    (
      await sqlRows<{ n: string }>(
        "select count(*) as n from provider_api_keys where claim_id = $1 and revoked_at is null",
        [claimId],
      )
    )[0]?.n,
  );
