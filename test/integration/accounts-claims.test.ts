/**
 * Accounts and provider claims end to end, as a person's browser and a provider's server call
 * them: e-mail sign-in through the local outbox, the session cookie, claims proven through the
 * local DNS zone, provider keys, the ownership recheck cron, and the shared security cases of every
 * authenticated route.
 */
import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  ageLastSuccess,
  type ChallengeBody,
  createClaim,
  insertAccount,
  insertSession,
  insertSite,
  insertVerifiedClaim,
  jsonPost,
  keyClient,
  newEmail,
  OWN_ORIGIN,
  outboxMessages,
  publishTxt,
  removeTxt,
  SESSION_COOKIE,
  sessionClient,
  sha256Hex,
  signInLinkFor,
  type TestSession,
  type VerifyBody,
  verifiedClaimThroughApi,
  verifyClaim,
} from "../support/accounts.ts";
import worker from "../support/all-in-one-jobs.ts";
import { runSecurityCases } from "../support/security-cases.ts";
import { sqlRows, uniqueToken } from "../support/sites.ts";
import { asClient, awayFromWindowEdge, expectInvalid, expectProblem } from "../support/worker.ts";

const DAY = 86_400;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CLAIM_FIELDS = [
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
const FRESHNESS_RULES = {
  proof_method: "dns_txt",
  record_must_remain_published: true,
  stored_challenge_material: "sha256_hash_only",
  raw_dns_answers_retained: false,
  automatic_reverification: true,
  recheck_interval_seconds: 86400,
  paid_actions_stop_after_consecutive_failures: 3,
  paid_actions_stop_when_last_success_age_reaches_seconds: 604800,
};

const seconds = (iso: unknown) => new Date(iso as string).getTime() / 1000;

/** Every Set-Cookie of a reply (workerd keeps them apart for this). */
const setCookies = (response: Response) => response.headers.getAll("set-cookie");

/** The Set-Cookie of the session cookie, as name, value and lower-cased attributes. */
function sessionCookie(response: Response): { value: string; attributes: Map<string, string> } {
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

const signIn = (client: ReturnType<typeof asClient>, email: string) =>
  client("/api/v1/auth/email", jsonPost({ email }));
const readSession = (token: string) =>
  asClient()("/api/v1/auth/session", { headers: { Cookie: `${SESSION_COOKIE}=${token}` } });
const pilotStatus = (key: string, query = "") => keyClient(key)(`/api/v1/provider/pilot-status${query}`);
const claimAction = (session: TestSession, claimId: string, action: string) =>
  sessionClient(session.token)(`/api/v1/provider/claims/${claimId}/${action}`, { method: "POST" });
const listClaims = async (session: TestSession) => {
  const response = await sessionClient(session.token)("/api/v1/provider/claims");
  expect(response.status).toBe(200);
  return ((await response.json()) as { claims: Record<string, unknown>[] }).claims;
};
const claimRow = async (claimId: string) =>
  (await sqlRows<Record<string, unknown>>("select * from provider_claims where id = $1", [claimId]))[0]!;
const activeKeyCount = async (claimId: string) =>
  Number(
    (
      await sqlRows<{ n: string }>(
        "select count(*) as n from provider_api_keys where claim_id = $1 and revoked_at is null",
        [claimId],
      )
    )[0]?.n,
  );

describe("e-mail sign-in and the session (API)", () => {
  it("mails a one-time link; its token makes a session cookie once; the session reads and ends", async () => {
    const client = asClient();
    const email = newEmail("signer");
    const started = await signIn(client, email);
    expect(started.status).toBe(202);
    expect(await started.json()).toEqual({ sent: true });

    const { link, token, message } = await signInLinkFor(email);
    expect(message.to).toEqual([email]);
    expect(message.from).toBe("Agent Readiness Search <mail@svc.test>");
    expect(message.text).toEqual(expect.any(String));
    expect(message.text).toContain(link);
    expect(link).toBe(`${OWN_ORIGIN}/sign-in?token=${token}`);
    expect(token).toMatch(/^svcsi_[A-Za-z0-9_-]{43}$/);
    // Only the token's SHA-256 is stored.
    const stored = await sqlRows<{ token_sha256: string }>("select token_sha256 from sign_in_tokens where email = $1", [
      email,
    ]);
    expect(stored).toEqual([{ token_sha256: await sha256Hex(token) }]);

    const created = await client("/api/v1/auth/session", jsonPost({ token }));
    expect(created.status).toBe(201);
    const session = (await created.json()) as { email: string; expires_at: string };
    expect(Object.keys(session).sort()).toEqual(["email", "expires_at"]);
    expect(session.email).toBe(email);
    expect(session.expires_at).toMatch(ISO);
    expect(seconds(session.expires_at) - Date.now() / 1000).toBeGreaterThan(13 * DAY);
    const cookie = sessionCookie(created);
    expect(cookie.value).toMatch(/^svcss_[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes.has("httponly")).toBe(true);
    expect(cookie.attributes.has("secure")).toBe(true);
    expect(cookie.attributes.get("samesite")).toBe("Lax");
    expect(cookie.attributes.get("path")).toBe("/");
    expect(
      await sqlRows("select 1 from sessions where token_sha256 = $1", [await sha256Hex(cookie.value)]),
    ).toHaveLength(1);

    // The link works once.
    await expectProblem(await client("/api/v1/auth/session", jsonPost({ token })), 401, "SIGN_IN_TOKEN_INVALID");

    const read = await readSession(cookie.value);
    expect(read.status).toBe(200);
    expect(read.headers.get("cache-control")).toBe("private, no-store");
    expect(await read.json()).toEqual(session);

    // Signing out is a cookie mutation: only from the service's own pages.
    const cookieOnly = { Cookie: `${SESSION_COOKIE}=${cookie.value}` };
    for (const headers of [cookieOnly, { ...cookieOnly, "Sec-Fetch-Site": "cross-site" }]) {
      await expectProblem(
        await client("/api/v1/auth/session", { method: "DELETE", headers }),
        403,
        "SAME_ORIGIN_REQUIRED",
      );
    }
    expect((await readSession(cookie.value)).status).toBe(200);

    const ended = await sessionClient(cookie.value)("/api/v1/auth/session", { method: "DELETE" });
    expect(ended.status).toBe(204);
    const cleared = sessionCookie(ended);
    expect(cleared.value).toBe("");
    expect(cleared.attributes.get("max-age")).toBe("0");
    await expectProblem(await readSession(cookie.value), 401, "SESSION_REQUIRED");
  });

  it("signs the same mailbox into the same account however the address is typed", async () => {
    const client = asClient();
    const email = newEmail("typed");
    const sessions: { email: string }[] = [];
    for (const typed of [email, email.toUpperCase()]) {
      expect((await signIn(client, typed)).status).toBe(202);
      const { token } = await signInLinkFor(email);
      const created = await client("/api/v1/auth/session", jsonPost({ token }));
      expect(created.status).toBe(201);
      sessions.push((await created.json()) as { email: string });
    }
    expect(sessions.map((session) => session.email)).toEqual([email, email]);
    expect(await sqlRows("select id from accounts where email = $1", [email])).toHaveLength(1);
  });

  it("refuses a malformed address (400) and an unknown or expired token (401), mailing and creating nothing", async () => {
    const client = asClient();
    for (const email of ["", "no-at-sign", "two@@example.com", "x@"]) {
      await expectInvalid(await signIn(client, email), "body", ["email"]);
    }
    await expectInvalid(await client("/api/v1/auth/email", jsonPost({ email: newEmail(), extra: 1 })), "body", [
      "extra",
    ]);
    await expectProblem(
      await client("/api/v1/auth/session", jsonPost({ token: `svcsi_${"A".repeat(43)}` })),
      401,
      "SIGN_IN_TOKEN_INVALID",
    );

    const email = newEmail("late");
    expect((await signIn(client, email)).status).toBe(202);
    const { token } = await signInLinkFor(email);
    await sqlRows(
      "update sign_in_tokens set created_at = now() - interval '16 minutes', expires_at = now() - interval '1 minute' where email = $1",
      [email],
    );
    await expectProblem(await client("/api/v1/auth/session", jsonPost({ token })), 401, "SIGN_IN_TOKEN_INVALID");
    expect(await sqlRows("select 1 from accounts where email = $1", [email])).toHaveLength(0);
  });

  it("answers a known and an unknown address alike (no enumeration)", async () => {
    const known = await insertAccount(newEmail("known"));
    const unknown = newEmail("unknown");
    const answers = [];
    for (const email of [known.email, unknown]) {
      const response = await signIn(asClient(), email);
      answers.push({
        status: response.status,
        body: await response.text(),
        type: response.headers.get("content-type"),
      });
    }
    expect(answers[0]).toEqual({ status: 202, body: '{"sent":true}', type: "application/json" });
    expect(answers[1]).toEqual(answers[0]);
    // Both mailboxes get a link: the known account's and, for the unknown one, the one that makes it.
    expect(await outboxMessages(known.email)).toHaveLength(1);
    expect(await outboxMessages(unknown)).toHaveLength(1);
  });
});

describe("e-mail sign-in limits", () => {
  it("sends one address at most 5 links an hour, whoever asks: the 6th answers 429 and mails nothing", async () => {
    await awayFromWindowEdge(3600, 20);
    const email = newEmail("flooded");
    for (let i = 0; i < 5; i++) expect((await signIn(asClient(), email)).status).toBe(202);
    await expectProblem(await signIn(asClient(), email.toUpperCase()), 429, "RATE_LIMITED");
    expect(await outboxMessages(email)).toHaveLength(5);
  }, 60_000);

  it("takes at most 20 sign-in requests an hour from one client, whatever the addresses", async () => {
    await awayFromWindowEdge(3600, 20);
    const client = asClient();
    for (let i = 0; i < 20; i++) expect((await signIn(client, newEmail("many"))).status).toBe(202);
    const refusedAddress = newEmail("many");
    await expectProblem(await signIn(client, refusedAddress), 429, "RATE_LIMITED");
    expect(await outboxMessages(refusedAddress)).toEqual([]);
    expect((await signIn(asClient(), refusedAddress)).status).toBe(202);
  }, 60_000);
});

describe("e-mail sign-in (the page)", () => {
  const pageHeaders = { "Sec-Fetch-Site": "same-origin", Origin: OWN_ORIGIN };
  const form = (fields: Record<string, string>, headers: Record<string, string> = pageHeaders): RequestInit => ({
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

  it("the link's page shows a form that POSTs the token without using it; the POST sets the cookie", async () => {
    const client = asClient();
    const email = newEmail("page");
    expect((await client("/sign-in/email", form({ email }))).status).toBe(202);
    const { link, token } = await signInLinkFor(email);

    // A mail scanner opening the link (twice) uses nothing.
    for (let i = 0; i < 2; i++) {
      const page = await client(new URL(link).pathname + new URL(link).search);
      expect(page.status).toBe(200);
      expect(page.headers.get("cache-control")).toContain("no-store");
      // Not no-referrer: a browser would then POST the button with `Origin: null`, which is refused.
      expect(page.headers.get("referrer-policy")).toBe("same-origin");
      expect(setCookies(page)).toEqual([]);
      const html = await page.text();
      const formHtml = /<form[^>]*action="\/sign-in"[^>]*>[\s\S]*?<\/form>/.exec(html)?.[0] ?? "";
      expect(formHtml).toMatch(/method="post"/);
      expect(formHtml).toContain(`name="token" value="${token}"`);
    }
    expect(await sqlRows("select 1 from sign_in_tokens where email = $1 and used_at is null", [email])).toHaveLength(1);

    // A page POST from another site is refused and uses nothing.
    const crossSite = await client("/sign-in", form({ token }, { "Sec-Fetch-Site": "cross-site" }));
    expect(crossSite.status).toBe(403);
    expect(setCookies(crossSite)).toEqual([]);

    const signedIn = await client("/sign-in", form({ token }));
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toContain(`Signed in as ${email}.`);
    const cookie = sessionCookie(signedIn);
    expect(cookie.attributes.has("httponly")).toBe(true);
    expect(cookie.attributes.has("secure")).toBe(true);
    expect(cookie.attributes.get("samesite")).toBe("Lax");
    expect(cookie.attributes.get("path")).toBe("/");
    expect(await (await readSession(cookie.value)).json()).toMatchObject({ email });

    const again = await client("/sign-in", form({ token }));
    expect(again.status).toBe(401);
    expect(setCookies(again)).toEqual([]);
  });

  it("shows a token from the link as text, never as markup", async () => {
    const hostile = '"><script>alert(1)</script>';
    const page = await asClient()(`/sign-in?token=${encodeURIComponent(hostile)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain('name="token" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });
});

describe("provider claims", () => {
  it("claims an indexed domain: 201 with every field of the claim challenge response, the value stored only hashed", async () => {
    const owner = await insertSession();
    const domain = await insertSite();
    const [site] = await sqlRows<{ id: string }>("select id from sites where domain = $1", [domain]);
    const before = Date.now() / 1000;
    const response = await sessionClient(owner.token)("/api/v1/provider/claims", jsonPost({ domain }));
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const body = (await response.json()) as ChallengeBody;
    expect(Object.keys(body).sort()).toEqual(["claim", "dns_challenge", "ownership_freshness", "verify_endpoint"]);
    const recordName = `_agent-readiness-challenge.${domain}`;

    expect(Object.keys(body.claim).sort()).toEqual(CLAIM_FIELDS);
    expect(body.claim).toEqual({
      id: expect.stringMatching(UUID),
      site_id: site?.id,
      domain,
      verification_method: "dns_txt",
      verification_record_name: recordName,
      status: "pending",
      challenge_expires_at: expect.stringMatching(ISO),
      verified_at: null,
      verification_last_succeeded_at: null,
      verification_last_attempted_at: null,
      verification_consecutive_failures: 0,
      verification_next_check_at: null,
      revoked_at: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(seconds(body.claim.created_at)).toBeGreaterThanOrEqual(Math.floor(before));
    expect(seconds(body.claim.challenge_expires_at)).toBeGreaterThan(seconds(body.claim.created_at));

    expect(body.dns_challenge).toEqual({
      record_type: "TXT",
      record_name: recordName,
      record_value: expect.stringMatching(/^svc-domain-verification=[A-Za-z0-9_-]{43}$/),
      expires_at: body.claim.challenge_expires_at,
      returned_once: true,
    });
    expect(body.ownership_freshness).toEqual({
      ...FRESHNESS_RULES,
      last_succeeded_at: null,
      next_check_at: null,
      consecutive_failures: 0,
    });
    expect(body.verify_endpoint).toBe(`${OWN_ORIGIN}/api/v1/provider/claims/${body.claim.id}/verify`);

    const row = await claimRow(body.claim.id);
    expect(row.challenge_sha256).toBe(await sha256Hex(body.dns_challenge.record_value));
    expect(JSON.stringify(row)).not.toContain(body.dns_challenge.record_value.split("=")[1]);
  });

  it("refuses a domain not in the index (404), a bad one (400), a second claim of the account and a claimed domain (409)", async () => {
    const owner = await insertSession();
    const client = sessionClient(owner.token);
    await expectProblem(
      await client("/api/v1/provider/claims", jsonPost({ domain: `${uniqueToken()}.example` })),
      404,
      "DOMAIN_NOT_INDEXED",
    );
    await expectProblem(
      await client("/api/v1/provider/claims", jsonPost({ domain: "https://x.example/" })),
      400,
      "INVALID_DOMAIN",
    );
    await expectInvalid(await client("/api/v1/provider/claims", jsonPost({})), "body", ["domain"]);
    await expectInvalid(
      await client("/api/v1/provider/claims", jsonPost({ domain: "a.example", site_id: "x" })),
      "body",
      ["site_id"],
    );

    const domain = await insertSite();
    const first = await createClaim(owner, domain);
    // The account's second claim, of another domain or the same one.
    await expectProblem(
      await client("/api/v1/provider/claims", jsonPost({ domain: await insertSite() })),
      409,
      "ACCOUNT_ALREADY_HAS_CLAIM",
    );
    await expectProblem(
      await client("/api/v1/provider/claims", jsonPost({ domain: domain.toUpperCase() })),
      409,
      "DOMAIN_ALREADY_CLAIMED",
    );
    // Another account, the same domain.
    const other = await insertSession();
    await expectProblem(
      await sessionClient(other.token)("/api/v1/provider/claims", jsonPost({ domain })),
      409,
      "DOMAIN_ALREADY_CLAIMED",
    );
    expect(await sqlRows("select id from provider_claims where domain = $1", [domain])).toEqual([
      { id: first.claim.id },
    ]);
  });

  it("verifies only the published value: missing 409, mismatched 409, right 200 with the key once, then without it", async () => {
    const owner = await insertSession();
    const domain = await insertSite();
    const challenge = await createClaim(owner, domain);
    const claimId = challenge.claim.id;
    const recordName = challenge.dns_challenge.record_name;

    await expectProblem(await verifyClaim(owner, claimId), 409, "CHALLENGE_MISSING");
    await publishTxt(recordName, "svc-domain-verification=not-the-value");
    await expectProblem(await verifyClaim(owner, claimId), 409, "CHALLENGE_MISMATCH");
    const pending = await claimRow(claimId);
    expect(pending).toMatchObject({ status: "pending", verification_consecutive_failures: 0, verified_at: null });
    expect(pending.verification_last_attempted_at).not.toBeNull();
    expect(await activeKeyCount(claimId)).toBe(0);

    await publishTxt(recordName, challenge.dns_challenge.record_value);
    const before = Date.now() / 1000;
    const verified = await verifyClaim(owner, claimId);
    expect(verified.status).toBe(200);
    expect(verified.headers.get("cache-control")).toBe("private, no-store");
    const body = (await verified.json()) as VerifyBody & { save_this_key_now?: boolean };
    expect(Object.keys(body).sort()).toEqual(
      [
        "claim",
        "verified",
        "provider_key_returned",
        "ownership_freshness",
        "provider_key",
        "provider_key_metadata",
        "save_this_key_now",
      ].sort(),
    );
    expect(body).toMatchObject({ verified: true, provider_key_returned: true, save_this_key_now: true });
    expect(body.provider_key).toMatch(/^svcpk_[A-Za-z0-9_-]{43}$/);
    expect(body.provider_key_metadata).toEqual({
      provider_api_key_id: expect.any(Number),
      key_prefix: body.provider_key?.slice(0, 10),
      claim_id: claimId,
      created_at: expect.stringMatching(ISO),
      header: "X-SVC-Provider-Key",
    });
    expect(Number.isInteger(body.provider_key_metadata?.provider_api_key_id)).toBe(true);
    const claim = body.claim;
    expect(Object.keys(claim).sort()).toEqual(CLAIM_FIELDS);
    expect(claim).toMatchObject({ id: claimId, status: "verified", verification_consecutive_failures: 0 });
    expect(claim.verified_at).toBe(claim.verification_last_succeeded_at);
    expect(seconds(claim.verification_last_succeeded_at)).toBeGreaterThanOrEqual(Math.floor(before));
    expect(seconds(claim.verification_next_check_at) - seconds(claim.verification_last_succeeded_at)).toBe(DAY);
    expect(body.ownership_freshness).toEqual({
      ...FRESHNESS_RULES,
      last_succeeded_at: claim.verification_last_succeeded_at,
      next_check_at: claim.verification_next_check_at,
      consecutive_failures: 0,
    });
    // The key is stored only as its SHA-256.
    const keys = await sqlRows<{ key_sha256: string }>("select key_sha256 from provider_api_keys where claim_id = $1", [
      claimId,
    ]);
    expect(keys).toEqual([{ key_sha256: await sha256Hex(body.provider_key as string) }]);

    const again = await verifyClaim(owner, claimId);
    expect(again.status).toBe(200);
    const repeat = (await again.json()) as VerifyBody;
    expect(repeat).toMatchObject({ verified: true, provider_key_returned: false });
    expect(repeat.provider_key).toBeUndefined();
    expect(repeat.provider_key_metadata).toBeUndefined();
    expect(repeat.key_endpoint).toBe(`${OWN_ORIGIN}/api/v1/provider/claims/${claimId}/keys/rotate`);
    expect(await activeKeyCount(claimId)).toBe(1);
  });

  it("lists the account's claims without a challenge value or hash", async () => {
    const owner = await insertSession();
    const domain = await insertSite();
    const challenge = await createClaim(owner, domain);
    await publishTxt(challenge.dns_challenge.record_name, challenge.dns_challenge.record_value);
    expect((await verifyClaim(owner, challenge.claim.id)).status).toBe(200);

    const response = await sessionClient(owner.token)("/api/v1/provider/claims");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const text = await response.text();
    const body = JSON.parse(text) as { claims: Record<string, unknown>[] };
    expect(Object.keys(body)).toEqual(["claims"]);
    expect(body.claims).toHaveLength(1);
    expect(Object.keys(body.claims[0]!).sort()).toEqual(CLAIM_FIELDS);
    expect(body.claims[0]).toMatchObject({ id: challenge.claim.id, domain, status: "verified" });
    const value = challenge.dns_challenge.record_value;
    expect(text).not.toContain(value.slice(value.indexOf("=") + 1));
    expect(text).not.toContain(await sha256Hex(value));
    expect(text).not.toMatch(/challenge_sha256|record_value/);
  });

  it("hides another account's claim: 404 on verify, challenge, revoke and key rotation, and changes nothing", async () => {
    const claim = await verifiedClaimThroughApi();
    const stranger = await insertSession();
    const before = await claimRow(claim.claimId);
    for (const action of ["verify", "challenge", "revoke", "keys/rotate"]) {
      await expectProblem(await claimAction(stranger, claim.claimId, action), 404, "CLAIM_NOT_FOUND");
    }
    expect(await claimRow(claim.claimId)).toEqual(before);
    expect((await pilotStatus(claim.key)).status).toBe(200);
    expect(await listClaims(stranger)).toEqual([]);
    // An id that names no claim and one that is not an id.
    await expectProblem(await claimAction(claim.session, crypto.randomUUID(), "verify"), 404, "CLAIM_NOT_FOUND");
    await expectInvalid(await claimAction(claim.session, "not-a-uuid", "verify"), "path", ["claim_id"]);
  });

  it("rotates a pending claim's challenge: a new value, shown once; only it verifies", async () => {
    const owner = await insertSession();
    const domain = await insertSite();
    const first = await createClaim(owner, domain);
    const rotated = await claimAction(owner, first.claim.id, "challenge");
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("cache-control")).toBe("private, no-store");
    const body = (await rotated.json()) as ChallengeBody & { dns_challenge: { returned_once: boolean } };
    expect(Object.keys(body).sort()).toEqual(["claim", "dns_challenge", "ownership_freshness", "verify_endpoint"]);
    expect(body.claim).toMatchObject({ id: first.claim.id, status: "pending" });
    expect(body.dns_challenge).toMatchObject({
      record_type: "TXT",
      record_name: first.dns_challenge.record_name,
      returned_once: true,
    });
    expect(body.dns_challenge.record_value).toMatch(/^svc-domain-verification=[A-Za-z0-9_-]{43}$/);
    expect(body.dns_challenge.record_value).not.toBe(first.dns_challenge.record_value);
    expect((await claimRow(first.claim.id)).challenge_sha256).toBe(await sha256Hex(body.dns_challenge.record_value));

    await publishTxt(first.dns_challenge.record_name, first.dns_challenge.record_value);
    await expectProblem(await verifyClaim(owner, first.claim.id), 409, "CHALLENGE_MISMATCH");
    await publishTxt(first.dns_challenge.record_name, body.dns_challenge.record_value);
    expect((await verifyClaim(owner, first.claim.id)).status).toBe(200);
  });

  it("refuses to verify a pending claim whose challenge expired (409), and lets another account claim the domain", async () => {
    const owner = await insertSession();
    const domain = await insertSite();
    const challenge = await createClaim(owner, domain);
    await publishTxt(challenge.dns_challenge.record_name, challenge.dns_challenge.record_value);
    await sqlRows("update provider_claims set challenge_expires_at = now() - interval '1 second' where id = $1", [
      challenge.claim.id,
    ]);
    await expectProblem(await verifyClaim(owner, challenge.claim.id), 409, "CHALLENGE_EXPIRED");
    const newcomer = await insertSession();
    const taken = await createClaim(newcomer, domain);
    expect(taken.claim.domain).toBe(domain);
    expect(await claimRow(challenge.claim.id)).toMatchObject({ status: "revoked" });
  });

  it("lets an account whose pending claim expired claim another domain", async () => {
    const owner = await insertSession();
    const first = await createClaim(owner, await insertSite());
    await sqlRows("update provider_claims set challenge_expires_at = now() - interval '1 second' where id = $1", [
      first.claim.id,
    ]);
    const second = await createClaim(owner, await insertSite());
    expect(second.claim.status).toBe("pending");
    expect((await listClaims(owner)).map((listed) => [listed.id, listed.status])).toEqual([
      [second.claim.id, "pending"],
      [first.claim.id, "revoked"],
    ]);
  });
});

describe("provider keys", () => {
  it("reads the pilot status with the key: every required field, private and not stored", async () => {
    const claim = await verifiedClaimThroughApi();
    const response = await pilotStatus(claim.key);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const body = (await response.json()) as { pilot_status: Record<string, unknown>; evidence_scope: unknown };
    expect(Object.keys(body).sort()).toEqual(["evidence_scope", "pilot_status"]);
    expect(body.evidence_scope).toEqual(expect.any(String));
    const row = await claimRow(claim.claimId);
    expect(body.pilot_status).toEqual({
      as_of: expect.stringMatching(ISO),
      provider_claim_id: claim.claimId,
      domain: claim.domain,
      claim_status: "verified",
      verification_last_succeeded_at: new Date(row.verification_last_succeeded_at as string).toISOString(),
      verification_consecutive_failures: 0,
      verification_next_check_at: new Date(row.verification_next_check_at as string).toISOString(),
      company_owner_verified: false,
      offers: [],
      recent_observed_handoffs: [],
    });
    expect(JSON.stringify(body)).not.toContain(claim.key);

    for (const limit of ["1", "25", "100"]) expect((await pilotStatus(claim.key, `?limit=${limit}`)).status).toBe(200);
    for (const limit of ["0", "101", "-1", "2.5", "ten", ""]) {
      await expectInvalid(await pilotStatus(claim.key, `?limit=${limit}`), "query", ["limit"]);
    }
    await expectInvalid(await pilotStatus(claim.key, "?days=3"), "query", ["days"]);
  });

  it("reads at most 240 times an hour per key: the 241st answers 429, another key still reads", async () => {
    await awayFromWindowEdge(3600, 40);
    const claim = await insertVerifiedClaim();
    for (let batch = 0; batch < 6; batch++) {
      // Each request from its own address: the limit counts the key, not the client.
      const responses = await Promise.all(Array.from({ length: 40 }, () => pilotStatus(claim.key)));
      for (const response of responses) {
        expect(response.status).toBe(200);
        await response.body?.cancel();
      }
    }
    await expectProblem(await pilotStatus(claim.key), 429, "RATE_LIMITED");
    expect((await pilotStatus((await insertVerifiedClaim()).key)).status).toBe(200);
  }, 90_000);

  it("rotates the key: the new key works, every earlier one answers 401", async () => {
    const claim = await verifiedClaimThroughApi();
    const response = await claimAction(claim.session, claim.claimId, "keys/rotate");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const body = (await response.json()) as { provider_key: string; provider_key_metadata: Record<string, unknown> };
    expect(body).toEqual({
      claim_id: claim.claimId,
      provider_key: expect.stringMatching(/^svcpk_[A-Za-z0-9_-]{43}$/),
      provider_key_metadata: {
        provider_api_key_id: expect.any(Number),
        key_prefix: body.provider_key.slice(0, 10),
        claim_id: claim.claimId,
        created_at: expect.stringMatching(ISO),
        header: "X-SVC-Provider-Key",
      },
      save_this_key_now: true,
      prior_keys_revoked: true,
    });
    expect(body.provider_key).not.toBe(claim.key);
    expect(body.provider_key_metadata.provider_api_key_id).not.toBe(claim.keyId);

    expect((await pilotStatus(body.provider_key)).status).toBe(200);
    await expectProblem(await pilotStatus(claim.key), 401, "PROVIDER_KEY_REQUIRED");
    const again = (await (await claimAction(claim.session, claim.claimId, "keys/rotate")).json()) as {
      provider_key: string;
    };
    await expectProblem(await pilotStatus(body.provider_key), 401, "PROVIDER_KEY_REQUIRED");
    expect((await pilotStatus(again.provider_key)).status).toBe(200);
    expect(await activeKeyCount(claim.claimId)).toBe(1);
  });

  it("revokes the claim: its key answers 401, it can be neither verified nor given keys, and its domain is free", async () => {
    const claim = await verifiedClaimThroughApi();
    const response = await claimAction(claim.session, claim.claimId, "revoke");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { claim: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(["claim"]);
    expect(Object.keys(body.claim).sort()).toEqual(CLAIM_FIELDS);
    expect(body.claim).toMatchObject({ id: claim.claimId, status: "revoked", verification_next_check_at: null });
    expect(body.claim.revoked_at).toMatch(ISO);

    await expectProblem(await pilotStatus(claim.key), 401, "PROVIDER_KEY_REQUIRED");
    expect(await activeKeyCount(claim.claimId)).toBe(0);
    await expectProblem(await verifyClaim(claim.session, claim.claimId), 409, "CLAIM_REVOKED");
    await expectProblem(await claimAction(claim.session, claim.claimId, "keys/rotate"), 409, "CLAIM_NOT_VERIFIED");
    await expectProblem(await claimAction(claim.session, claim.claimId, "challenge"), 409, "CLAIM_REVOKED");
    // Revoking again changes nothing.
    const again = await claimAction(claim.session, claim.claimId, "revoke");
    expect(again.status).toBe(200);
    expect(((await again.json()) as typeof body).claim.revoked_at).toBe(body.claim.revoked_at);
    // The account and the domain may claim again.
    const next = await createClaim(claim.session, claim.domain);
    expect(next.claim.id).not.toBe(claim.claimId);
    expect((await listClaims(claim.session)).map((listed) => [listed.id, listed.status])).toEqual([
      [next.claim.id, "pending"],
      [claim.claimId, "revoked"],
    ]);
  });

  it("stops a key when its claim's last success is 604800 s old (404), not at 604799 s", async () => {
    const claim = await verifiedClaimThroughApi();
    await ageLastSuccess(claim.claimId, 604_799);
    expect((await pilotStatus(claim.key)).status).toBe(200);
    await ageLastSuccess(claim.claimId, 604_800);
    await expectProblem(await pilotStatus(claim.key), 404, "CLAIM_NOT_FRESH");
    await ageLastSuccess(claim.claimId, 30 * DAY);
    await expectProblem(await pilotStatus(claim.key), 404, "CLAIM_NOT_FRESH");
    // A successful recheck by the owner makes it fresh again.
    expect((await verifyClaim(claim.session, claim.claimId)).status).toBe(200);
    expect((await pilotStatus(claim.key)).status).toBe(200);
  });
});

describe("security cases of the authenticated routes", () => {
  /** An account with a session, an ended one and an expired one. */
  async function sessionsOfOneAccount() {
    const valid = await insertSession();
    const revoked = await insertSession({ accountId: valid.accountId, ended: true });
    const stale = await insertSession({ accountId: valid.accountId, expiresInSeconds: -60 });
    return { valid, revoked, stale };
  }

  const client = asClient();
  let listedClaimId = "";
  runSecurityCases(
    {
      name: "GET /api/v1/provider/claims",
      scheme: "session",
      mutation: false,
      okStatus: 200,
      staleStatus: 401,
      async setup() {
        const { valid, revoked, stale } = await sessionsOfOneAccount();
        listedClaimId = (await verifiedClaimThroughApi(valid)).claimId;
        const other = await insertSession();
        await createClaim(other, await insertSite());
        return { valid: valid.token, revoked: revoked.token, stale: stale.token, otherOwner: other.token };
      },
      send: (headers) => client("/api/v1/provider/claims", { headers }),
      async expectOtherOwner(response) {
        expect(response.status).toBe(200);
        const { claims } = (await response.json()) as { claims: { id: string }[] };
        expect(claims).toHaveLength(1);
        expect(claims.map((claim) => claim.id)).not.toContain(listedClaimId);
      },
    },
    { ownOrigin: OWN_ORIGIN },
  );

  for (const action of ["verify", "challenge", "keys/rotate", "revoke"]) {
    let claimId = "";
    runSecurityCases(
      {
        name: `POST /api/v1/provider/claims/{claim_id}/${action}`,
        scheme: "session",
        mutation: true,
        okStatus: 200,
        staleStatus: 401,
        async setup() {
          const { valid, revoked, stale } = await sessionsOfOneAccount();
          claimId = (await verifiedClaimThroughApi(valid)).claimId;
          // The other account holds a claim of its own, so its 404 is about ownership alone.
          const other = await verifiedClaimThroughApi();
          return { valid: valid.token, revoked: revoked.token, stale: stale.token, otherOwner: other.session.token };
        },
        send: (headers) => client(`/api/v1/provider/claims/${claimId}/${action}`, { method: "POST", headers }),
      },
      { ownOrigin: OWN_ORIGIN },
    );
  }

  let ownDomain = "";
  let otherDomain = "";
  let otherClaimId = "";
  runSecurityCases(
    {
      name: "GET /api/v1/provider/pilot-status",
      scheme: "provider_key",
      mutation: false,
      okStatus: 200,
      staleStatus: 404,
      async setup() {
        const owner = await insertSession();
        const own = await insertVerifiedClaim({ accountId: owner.accountId });
        ownDomain = own.domain;
        const rotated = await claimAction(owner, own.claimId, "keys/rotate");
        const { provider_key: valid } = (await rotated.json()) as { provider_key: string };
        const other = await insertVerifiedClaim();
        const stale = await insertVerifiedClaim({ lastSucceededSecondsAgo: 604_800 });
        otherDomain = other.domain;
        otherClaimId = other.claimId;
        return { valid, revoked: own.key, otherOwner: other.key, stale: stale.key };
      },
      send: (headers) => client("/api/v1/provider/pilot-status", { headers }),
      async expectOtherOwner(response) {
        expect(response.status).toBe(200);
        const { pilot_status } = (await response.json()) as { pilot_status: Record<string, unknown> };
        expect(pilot_status.domain).toBe(otherDomain);
        expect(pilot_status.provider_claim_id).toBe(otherClaimId);
        expect(pilot_status.domain).not.toBe(ownDomain);
      },
    },
    { ownOrigin: OWN_ORIGIN },
  );

  let sessionEmail = "";
  runSecurityCases(
    {
      name: "GET /api/v1/auth/session",
      scheme: "session",
      mutation: false,
      okStatus: 200,
      staleStatus: 401,
      async setup() {
        const { valid, revoked, stale } = await sessionsOfOneAccount();
        sessionEmail = valid.email;
        const other = await insertSession();
        return { valid: valid.token, revoked: revoked.token, stale: stale.token, otherOwner: other.token };
      },
      send: (headers) => client("/api/v1/auth/session", { headers }),
      async expectOtherOwner(response) {
        expect(response.status).toBe(200);
        const body = (await response.json()) as { email: string };
        expect(body.email).not.toBe(sessionEmail);
      },
    },
    { ownOrigin: OWN_ORIGIN },
  );
});

// Runs last in this file: the cron's clock is days ahead, so it also rechecks this file's other claims.
describe("the ownership recheck cron", () => {
  const runAt = async (scheduledTime: number) => {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/15 * * * *", scheduledTime }), env, ctx);
  };
  const state = async (claimId: string) => {
    const row = await claimRow(claimId);
    return {
      status: row.status,
      failures: Number(row.verification_consecutive_failures),
      lastSucceeded: row.verification_last_succeeded_at ? seconds(row.verification_last_succeeded_at) : null,
      lastAttempted: row.verification_last_attempted_at ? seconds(row.verification_last_attempted_at) : null,
      nextCheck: row.verification_next_check_at ? seconds(row.verification_next_check_at) : null,
      revokedAt: row.revoked_at ? seconds(row.revoked_at) : null,
    };
  };

  it("succeeds while the record stays published, then counts failures (+6 h, +12 h) and revokes at the third", async () => {
    const claim = await verifiedClaimThroughApi();
    const verifiedAt = (await state(claim.claimId)).lastSucceeded as number;
    // A verified claim of the same run whose check is not due yet, and a pending claim: both untouched.
    const later = await verifiedClaimThroughApi();
    const pending = await createClaim(await insertSession(), await insertSite());
    const t1 = Math.ceil(verifiedAt + DAY + 1) * 1000;
    await sqlRows("update provider_claims set verification_next_check_at = $2 where id = $1", [
      later.claimId,
      new Date(t1 + 3600_000).toISOString(),
    ]);
    const untouched = [await claimRow(later.claimId), await claimRow(pending.claim.id)];

    await runAt(t1);
    expect(await state(claim.claimId)).toEqual({
      status: "verified",
      failures: 0,
      lastSucceeded: t1 / 1000,
      lastAttempted: t1 / 1000,
      nextCheck: t1 / 1000 + DAY,
      revokedAt: null,
    });
    expect([await claimRow(later.claimId), await claimRow(pending.claim.id)]).toEqual(untouched);

    await removeTxt(claim.recordName);
    const t2 = t1 + (DAY + 1) * 1000;
    await runAt(t2);
    expect(await state(claim.claimId)).toEqual({
      status: "verified",
      failures: 1,
      lastSucceeded: t1 / 1000,
      lastAttempted: t2 / 1000,
      nextCheck: t2 / 1000 + 6 * 3600,
      revokedAt: null,
    });
    // Paid actions continue until the third failure.
    expect((await pilotStatus(claim.key)).status).toBe(200);

    // Not due yet: a run in between changes nothing.
    await runAt(t2 + 6 * 3600_000 - 1000);
    expect((await state(claim.claimId)).failures).toBe(1);

    const t3 = t2 + (6 * 3600 + 1) * 1000;
    await runAt(t3);
    expect(await state(claim.claimId)).toMatchObject({
      status: "verified",
      failures: 2,
      lastAttempted: t3 / 1000,
      nextCheck: t3 / 1000 + 12 * 3600,
    });
    expect((await pilotStatus(claim.key)).status).toBe(200);

    const t4 = t3 + (12 * 3600 + 1) * 1000;
    await runAt(t4);
    expect(await state(claim.claimId)).toEqual({
      status: "revoked",
      failures: 3,
      lastSucceeded: t1 / 1000,
      lastAttempted: t4 / 1000,
      nextCheck: null,
      revokedAt: t4 / 1000,
    });
    expect(await activeKeyCount(claim.claimId)).toBe(0);
    await expectProblem(await pilotStatus(claim.key), 401, "PROVIDER_KEY_REQUIRED");

    // A revoked claim is never checked again.
    const revoked = await claimRow(claim.claimId);
    await runAt(t4 + 30 * DAY * 1000);
    expect(await claimRow(claim.claimId)).toEqual(revoked);
  });

  it("resets the failure count when the record is back before the third check", async () => {
    const claim = await verifiedClaimThroughApi();
    const verifiedAt = (await state(claim.claimId)).lastSucceeded as number;
    await removeTxt(claim.recordName);
    const t1 = Math.ceil(verifiedAt + DAY + 1) * 1000;
    await runAt(t1);
    expect(await state(claim.claimId)).toMatchObject({ status: "verified", failures: 1 });
    await publishTxt(claim.recordName, claim.recordValue);
    const t2 = t1 + (6 * 3600 + 1) * 1000;
    await runAt(t2);
    expect(await state(claim.claimId)).toMatchObject({
      status: "verified",
      failures: 0,
      lastSucceeded: t2 / 1000,
      nextCheck: t2 / 1000 + DAY,
    });
    expect((await pilotStatus(claim.key)).status).toBe(200);
  });
});
