/**
 * Claims and keys under concurrency, on the database the run uses (CI: a real Postgres, where
 * requests truly overlap): racing verifications issue one key, racing claims of a domain or by one
 * account leave one live claim, and racing key rotations leave one active key. Each request comes
 * from its own client address, so no per-client limit decides an outcome.
 */
import { describe, expect, it } from "vitest";
import {
  createClaim,
  insertSession,
  insertSite,
  jsonPost,
  keyClient,
  newEmail,
  newSecret,
  publishTxt,
  sessionClient,
  sha256Hex,
  type VerifyBody,
  verifiedClaimThroughApi,
  verifyClaim,
} from "../support/accounts.ts";
import { sqlRows } from "../support/sites.ts";
import { asClient, newClientIp } from "../support/worker.ts";

const RACERS = 50;

const bodiesOf = (responses: Response[]) =>
  Promise.all(responses.map(async (response) => ({ status: response.status, body: (await response.json()) as never })));
const pilotStatus = (key: string) => keyClient(key)("/api/v1/provider/pilot-status");

describe("racing exchanges of one sign-in token", () => {
  it("make exactly one session: one 201, the rest 401", async () => {
    const email = newEmail("racer");
    const token = newSecret("svcsi_");
    await sqlRows(
      "insert into sign_in_tokens (token_sha256, email, expires_at) values ($1, $2, now() + interval '15 minutes')",
      [await sha256Hex(token), email],
    );
    const answers = await bodiesOf(
      await Promise.all(Array.from({ length: 20 }, () => asClient()("/api/v1/auth/session", jsonPost({ token })))),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.status !== 201)) {
      expect(answer).toMatchObject({ status: 401, body: { code: "SIGN_IN_TOKEN_INVALID" } });
    }
    const sessions = await sqlRows(
      "select s.id from sessions s join accounts a on a.id = s.account_id where a.email = $1",
      [email],
    );
    expect(sessions).toHaveLength(1);
  });
});

describe("racing verifications of one claim", () => {
  it(`issue exactly one key among ${RACERS}: one answer carries it, the others point at rotation`, async () => {
    const owner = await insertSession();
    const challenge = await createClaim(owner, await insertSite());
    const claimId = challenge.claim.id;
    await publishTxt(challenge.dns_challenge.record_name, challenge.dns_challenge.record_value);

    const answers = await bodiesOf(
      await Promise.all(Array.from({ length: RACERS }, () => verifyClaim(owner, claimId, newClientIp()))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(RACERS).fill(200));
    const bodies = answers.map((answer) => answer.body as VerifyBody);
    const withKey = bodies.filter((body) => body.provider_key_returned);
    expect(withKey).toHaveLength(1);
    expect(withKey[0]?.provider_key).toMatch(/^svcpk_/);
    for (const body of bodies.filter((candidate) => !candidate.provider_key_returned)) {
      expect(body).toMatchObject({ verified: true, claim: { id: claimId, status: "verified" } });
      expect(body.provider_key).toBeUndefined();
      expect(body.key_endpoint).toBe(`http://svc.test/api/v1/provider/claims/${claimId}/keys/rotate`);
    }

    const keys = await sqlRows<{ key_sha256: string; revoked_at: string | null }>(
      "select key_sha256, revoked_at from provider_api_keys where claim_id = $1",
      [claimId],
    );
    expect(keys).toEqual([{ key_sha256: await sha256Hex(withKey[0]?.provider_key as string), revoked_at: null }]);
    expect((await pilotStatus(withKey[0]?.provider_key as string)).status).toBe(200);
  });
});

describe("racing claims", () => {
  it(`of one domain by ${RACERS} accounts create exactly one claim: one 201, the rest 409`, async () => {
    const domain = await insertSite();
    const owners = await Promise.all(Array.from({ length: RACERS }, () => insertSession()));
    const answers = await bodiesOf(
      await Promise.all(
        owners.map((owner) => sessionClient(owner.token)("/api/v1/provider/claims", jsonPost({ domain }))),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(RACERS - 1);
    for (const answer of answers.filter((candidate) => candidate.status === 409)) {
      expect(answer.body).toMatchObject({ code: "DOMAIN_ALREADY_CLAIMED" });
    }

    const winner = owners[statuses.indexOf(201)];
    const claims = await sqlRows<{ account_id: string; status: string }>(
      "select account_id, status from provider_claims where domain = $1",
      [domain],
    );
    expect(claims).toEqual([{ account_id: winner?.accountId, status: "pending" }]);
  });

  it("of different domains by one account create exactly one claim", async () => {
    const owner = await insertSession();
    const domains = await Promise.all(Array.from({ length: 20 }, () => insertSite()));
    const answers = await bodiesOf(
      await Promise.all(
        domains.map((domain) =>
          sessionClient(owner.token, newClientIp())("/api/v1/provider/claims", jsonPost({ domain })),
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.status !== 201)) {
      expect(answer).toMatchObject({ status: 409, body: { code: "ACCOUNT_ALREADY_HAS_CLAIM" } });
    }
    const claims = await sqlRows<{ domain: string }>("select domain from provider_claims where account_id = $1", [
      owner.accountId,
    ]);
    expect(claims).toEqual([{ domain: domains[statuses.indexOf(201)] }]);
  });
});

describe("racing key rotations", () => {
  it("leave exactly one active key, one of those returned; every other key answers 401", async () => {
    const claim = await verifiedClaimThroughApi();
    const answers = await bodiesOf(
      await Promise.all(
        Array.from({ length: 10 }, () =>
          sessionClient(claim.session.token, newClientIp())(`/api/v1/provider/claims/${claim.claimId}/keys/rotate`, {
            method: "POST",
          }),
        ),
      ),
    );
    const issued = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => (answer.body as { provider_key: string }).provider_key);
    expect(issued.length).toBeGreaterThan(0);
    for (const answer of answers.filter((candidate) => candidate.status !== 200)) {
      expect(answer).toMatchObject({ status: 409, body: { code: "KEY_ROTATION_CONFLICT" } });
    }

    const active = await sqlRows<{ key_sha256: string }>(
      "select key_sha256 from provider_api_keys where claim_id = $1 and revoked_at is null",
      [claim.claimId],
    );
    expect(active).toHaveLength(1);
    const hashes = await Promise.all(issued.map(sha256Hex));
    expect(hashes).toContain(active[0]?.key_sha256);
    for (const key of [claim.key, ...issued]) {
      const expected = (await sha256Hex(key)) === active[0]?.key_sha256 ? 200 : 401;
      expect((await pilotStatus(key)).status).toBe(expected);
    }
  });
});
