/**
 * Idempotent acceptances fail closed: with the lock store (Redis) unreachable, an acceptance is
 * refused with 503 IDEMPOTENCY_UNAVAILABLE and nothing is written, rather than risk a double write.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { createGroups } from "../../src/routes/groups.ts";
import { insertVerifiedClaim } from "../support/accounts.ts";
import { newIdempotencyKey } from "../support/offers.ts";
import { sqlRows } from "../support/sites.ts";
import { newClientIp, type ProblemBody } from "../support/worker.ts";

const bindings = env as unknown as Record<string, string>;

describe("POST /provider/commercial-acceptances without its lock store", () => {
  it("answers 503 IDEMPOTENCY_UNAVAILABLE with Retry-After and writes nothing", async () => {
    const claim = await insertVerifiedClaim();
    const app = createApp(createGroups());
    // Port 9 (discard) on loopback: nothing listens, so every Redis call is refused.
    const workerBindings = { ...bindings, UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9", REDIS_TIMEOUT_MS: "300" };
    const response = await app.fetch(
      new Request("http://svc.test/api/v1/provider/commercial-acceptances", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "CF-Connecting-IP": newClientIp(),
          "X-SVC-Provider-Key": claim.key,
          "Idempotency-Key": newIdempotencyKey(),
        },
        body: JSON.stringify({ event_type: "pilot_company", provider_acceptance_reference: "fault-ref-0001" }),
      }),
      workerBindings,
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(((await response.json()) as ProblemBody).code).toBe("IDEMPOTENCY_UNAVAILABLE");
    expect(
      await sqlRows("select id from commercial_acceptance_events where provider_claim_id = $1", [claim.claimId]),
    ).toEqual([]);
  });
});
