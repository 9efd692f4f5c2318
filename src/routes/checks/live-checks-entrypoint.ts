/**
 * The checks Worker's RPC entrypoint: the live check and the live MCP verification for the other
 * Workers of the service, reached over a service binding (wrangler.toml `[[env.mcp.services]]`).
 * The mcp Worker's check_site and verify_mcp tools call it, so that the live check (the crawler,
 * its parsers, the checklist: most of the checks Worker) is bundled by the group that owns it only.
 *
 * It is not a REST route: the caller validates the input and spends its client's rate limit (the
 * tool's own, shared with REST) in its own Worker, so nothing here spends a limit. The domain
 * operation is the one POST /check and GET /verify-mcp run, on dependencies built from this
 * Worker's bindings; its errors come back as values (src/http/live-check-outcome.ts says why).
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { createDependencies } from "../../deps.ts";
import type { CheckResult } from "../../domain/checks/check-site.ts";
import { runLiveChecksInProcess } from "../../domain/checks/in-process-live-checks.ts";
import type { Admit, LiveCheckInput } from "../../domain/checks/live-checks.ts";
import type { McpVerification } from "../../domain/checks/verify-mcp.ts";
import { carryOutcome, type LiveCheckOutcome } from "../../http/live-check-outcome.ts";

/** Who asks: the public origin the caller's request has, for the crawler's user agent (`+<origin>/`). */
export interface LiveCheckCaller {
  origin: string;
}

/** The class wrangler.toml names as the binding's `entrypoint`. */
export class LiveChecksEntrypoint extends WorkerEntrypoint<Record<string, unknown>> {
  /**
   * POST /check's operation on `input`; the caller's origin stands in when PUBLIC_ORIGIN is unset.
   * `admit` is the caller's own admission (a function passed over RPC: calling it calls back into
   * the caller's Worker), run beside the index lookup as in-process.
   */
  check(input: LiveCheckInput, caller: LiveCheckCaller, admit?: Admit): Promise<LiveCheckOutcome<CheckResult>> {
    return carryOutcome(() => this.liveChecks(caller).check({ url: input.url }, admit && (() => admit())));
  }

  /** GET /verify-mcp's operation on `input`. */
  verifyMcp(input: LiveCheckInput, caller: LiveCheckCaller): Promise<LiveCheckOutcome<McpVerification>> {
    return carryOutcome(() => this.liveChecks(caller).verifyMcp({ url: input.url }));
  }

  private liveChecks(caller: LiveCheckCaller) {
    return runLiveChecksInProcess(createDependencies(this.env, caller.origin));
  }
}
