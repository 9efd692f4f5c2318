/** The live checks run in the caller's own isolate, with the caller's dependencies. */
import type { CheckContext } from "./check-context.ts";
import { checkSite } from "./check-site.ts";
import type { LiveChecks } from "./live-checks.ts";
import { verifyMcp } from "./verify-mcp.ts";

/** The domain operations of POST /check and GET /verify-mcp, on `ctx`. */
export function runLiveChecksInProcess(ctx: CheckContext): LiveChecks {
  return {
    check: (input, admit) => checkSite({ ctx, input, admit }),
    verifyMcp: (input) => verifyMcp({ ctx, input }),
  };
}
