/**
 * Commercial acceptances racing on one claim-scoped Idempotency-Key, on the database the run uses
 * (CI: a real Postgres, where the requests truly overlap). The Redis lock only spares duplicate
 * work; the unique (claim, key) decides: exactly one event, the rest replays or 409s.
 */
import { describe, expect, it } from "vitest";
import { insertSession, insertVerifiedClaim } from "../support/accounts.ts";
import { createOffer, newIdempotencyKey, postAcceptance, termsAcceptance } from "../support/offers.ts";
import { sqlRows } from "../support/sites.ts";
import { newClientIp } from "../support/worker.ts";

const RACERS = 100;

async function claimWithOffer() {
  const claim = await insertVerifiedClaim();
  const session = await insertSession({ accountId: claim.accountId });
  const offer = await createOffer(session, claim.claimId, claim.domain);
  return { claim, offer };
}

const answersOf = (responses: Response[]) =>
  Promise.all(
    responses.map(async (response) => ({
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
    })),
  );

const eventsOf = (claimId: string) =>
  sqlRows<{ id: string }>("select id from commercial_acceptance_events where provider_claim_id = $1", [claimId]);

describe(`${RACERS} concurrent acceptances with one Idempotency-Key`, { timeout: 90_000 }, () => {
  it("identical bodies: exactly one event; one 201, every other answer the same acceptance replayed (200)", async () => {
    const { claim, offer } = await claimWithOffer();
    const key = newIdempotencyKey();
    const body = termsAcceptance(offer);
    const answers = await answersOf(
      await Promise.all(Array.from({ length: RACERS }, () => postAcceptance(claim.key, key, body, newClientIp()))),
    );
    const events = await eventsOf(claim.claimId);
    expect(events).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(RACERS - 1);
    for (const answer of answers) {
      expect(answer.body).toMatchObject({
        acceptance: { id: events[0]!.id },
        created: answer.status === 201,
        idempotent_replay: answer.status === 200,
      });
    }
  });

  it("different bodies: exactly one event; the winner's 201, every other 409", async () => {
    const { claim, offer } = await claimWithOffer();
    const key = newIdempotencyKey();
    const answers = await answersOf(
      await Promise.all(
        Array.from({ length: RACERS }, (_, index) =>
          postAcceptance(
            claim.key,
            key,
            { ...termsAcceptance(offer), provider_acceptance_reference: `contract-race-${index}` },
            newClientIp(),
          ),
        ),
      ),
    );
    const events = await eventsOf(claim.claimId);
    expect(events).toHaveLength(1);
    const winners = answers.filter((answer) => answer.status === 201);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.body).toMatchObject({ acceptance: { id: events[0]!.id } });
    const losers = answers.filter((answer) => answer.status !== 201);
    expect(losers).toHaveLength(RACERS - 1);
    for (const loser of losers) expect(loser).toMatchObject({ status: 409, body: { code: "IDEMPOTENCY_KEY_REUSED" } });
  });
});
