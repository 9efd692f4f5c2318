import { describe, expect, it } from "vitest";
import {
  type ChallengeBody,
  createClaim,
  insertSession,
  insertSite,
  jsonPost,
  OWN_ORIGIN,
  publishTxt,
  sessionClient,
  sha256Hex,
  type VerifyBody,
  verifiedClaimThroughApi,
  verifyClaim,
} from "../support/accounts.ts";
import {
  activeKeyCount,
  CLAIM_FIELDS,
  claimAction,
  claimRow,
  DAY,
  FRESHNESS_RULES,
  ISO,
  listClaims,
  pilotStatus,
  seconds,
  UUID,
} from "../support/claims.ts";
import { sqlRows, uniqueToken } from "../support/sites.ts";
import { expectInvalid, expectProblem } from "../support/worker.ts";

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
