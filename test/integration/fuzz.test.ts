/**
 * The fuzzer of test/support/fuzz.ts through the Worker, in-process: every OpenAPI operation and
 * every MCP tool, valid, boundary and hostile, with one fixed seed (the same requests on every
 * run) and one random seed printed on failure (FUZZ_SEED replays it). `npm run fuzz` runs longer
 * against `npm start`.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createGroups } from "../../src/routes/groups.ts";
import { openApiDocumentOf } from "../../src/routes/openapi-spec.ts";
import { insertSession, insertVerifiedClaim, OWN_ORIGIN } from "../support/accounts.ts";
import { type FuzzCredentials, type FuzzRequest, reportFuzz, runFuzz } from "../support/fuzz.ts";
import { createOffer } from "../support/offers.ts";
import { call } from "../support/worker.ts";

const FIXED_SEED = 0x5eed_0037;
const settings = env as unknown as Record<string, string | undefined>;
const COUNT_PER_SEED = Number(settings.FUZZ_COUNT ?? 1500);
// Each seed stops starting requests after this long, so the file stays under a minute on a busy
// machine (cut short, the seed sends the same first requests); every operation comes up in the
// first ~55.
// FUZZ_BUDGET_MS=0 (npm run fuzz) sends every request, however long it takes.
const BUDGET_MS = Number(settings.FUZZ_BUDGET_MS ?? 22_000) || Number.POSITIVE_INFINITY;
// Whatever the budget cuts, every operation and the MCP endpoint have had their requests.
const MINIMUM_SENT = 60;
const TIMEOUT_MS = Number.isFinite(BUDGET_MS) ? BUDGET_MS + 30_000 : COUNT_PER_SEED * 1000;

const document = openApiDocumentOf(createGroups());
let credentials: FuzzCredentials;

async function send(request: FuzzRequest) {
  const response = await call(request.path, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

beforeAll(async () => {
  const claim = await insertVerifiedClaim();
  const session = await insertSession({ accountId: claim.accountId });
  const offer = await createOffer(session, claim.claimId, claim.domain);
  credentials = {
    sessionToken: session.token,
    providerKey: claim.key,
    ownOrigin: OWN_ORIGIN,
    knownIds: [claim.claimId, offer.id],
  };
});

describe("fuzzing every operation and MCP tool", () => {
  const seeds = [
    ["the fixed seed", FIXED_SEED],
    ["a random seed", Number(settings.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32))],
  ] as const;

  it.each(seeds)(
    "%s: no 5xx but documented ones, problem+json with request ids, right JSON-RPC codes, bounded answers",
    async (_name, seed) => {
      const run = await runFuzz({ document, seed, count: COUNT_PER_SEED, budgetMs: BUDGET_MS, credentials, send });
      console.info(reportFuzz(run, 0));
      if (run.failures.length > 0) console.error(reportFuzz(run, 50));
      expect(run.sent).toBeGreaterThanOrEqual(Math.min(MINIMUM_SENT, COUNT_PER_SEED));
      expect(run.failures.length, reportFuzz(run)).toBe(0);
    },
    TIMEOUT_MS,
  );
});
