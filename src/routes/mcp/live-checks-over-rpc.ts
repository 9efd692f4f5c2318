/**
 * The mcp Worker's live checks: the checks Worker's LiveChecksEntrypoint over the `CHECKS` service
 * binding (wrangler.toml `[[env.mcp.services]]`), one internal call that stays in the same data
 * center. The live check is the checks group's: running it there keeps the crawler and its parsers
 * out of this Worker's bundle (docs/operations.md, "Workers per group").
 *
 * Errors meant for the client come back as values and are thrown again here as they were thrown
 * there (src/http/live-check-outcome.ts). A Worker deployed without the binding answers the 503
 * DEPENDENCY_UNAVAILABLE problem, as for any other missing store, rather than failing the request.
 */
import type { CheckResult } from "../../domain/checks/check-site.ts";
import type { Admit, LiveChecks } from "../../domain/checks/live-checks.ts";
import type { McpVerification } from "../../domain/checks/verify-mcp.ts";
import type { LiveCheckOutcome } from "../../http/live-check-outcome.ts";
import { unwrapOutcome } from "../../http/live-check-outcome.ts";
import { HttpProblem } from "../../http/problem.ts";
import { STORE_RETRY_AFTER_SECONDS } from "../../http/store-unavailable.ts";
import type { LiveCheckCaller } from "../checks/live-checks-entrypoint.ts";
import type { LiveChecksSource } from "./live-checks-source.ts";

/** The binding's name in the mcp Worker's environment. */
export const CHECKS_BINDING = "CHECKS";

/** What the binding offers: LiveChecksEntrypoint's methods, as the caller sees them. */
export interface ChecksService {
  check(input: { url: string }, caller: LiveCheckCaller, admit?: Admit): Promise<LiveCheckOutcome<CheckResult>>;
  verifyMcp(input: { url: string }, caller: LiveCheckCaller): Promise<LiveCheckOutcome<McpVerification>>;
}

function checksServiceUnavailable(): HttpProblem {
  console.error(`the ${CHECKS_BINDING} service binding is not set: check_site and verify_mcp answer 503 until it is`);
  return new HttpProblem(
    503,
    "DEPENDENCY_UNAVAILABLE",
    `The live check cannot be reached right now; try again in ${STORE_RETRY_AFTER_SECONDS} s.`,
    { retry_after_seconds: STORE_RETRY_AFTER_SECONDS },
    { "Retry-After": String(STORE_RETRY_AFTER_SECONDS) },
  );
}

/**
 * The checks Worker's check, with `admit` passed over RPC as a function: the checks Worker calls
 * it back beside its index lookup, as in-process, so the limit is spent here, in this Worker, once.
 * Its refusal crosses back as a bare Error (RATE_LIMITED's code and retry_after_seconds would be
 * lost), so it is kept here and thrown as it was thrown.
 */
async function checkOverRpc(
  service: ChecksService,
  input: { url: string },
  caller: LiveCheckCaller,
  admit: Admit | undefined,
): Promise<CheckResult> {
  let refusal: { error: unknown } | undefined;
  const admitHere =
    admit &&
    (async () => {
      try {
        await admit();
      } catch (error) {
        refusal = { error };
        throw error;
      }
    });
  let outcome: LiveCheckOutcome<CheckResult>;
  try {
    outcome = await service.check({ url: input.url }, caller, admitHere);
  } catch (error) {
    throw refusal ? refusal.error : error;
  }
  if (refusal) throw refusal.error;
  return unwrapOutcome(outcome);
}

/** The live checks of the checks Worker bound as `CHECKS`, asked on behalf of `deps.origin`. */
export const liveChecksOverRpc: LiveChecksSource = (bindings, deps) => {
  const service = bindings[CHECKS_BINDING] as ChecksService | undefined;
  const caller: LiveCheckCaller = { origin: deps.origin };
  const reach = () => {
    if (!service) throw checksServiceUnavailable();
    return service;
  };
  return {
    check: (input, admit) => checkOverRpc(reach(), input, caller, admit),
    verifyMcp: async (input) => unwrapOutcome(await reach().verifyMcp({ url: input.url }, caller)),
  } satisfies LiveChecks;
};
