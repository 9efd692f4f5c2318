/** The types every route and middleware share: bindings in, per-request dependencies out. */

import type { Dependencies } from "../deps.ts";
import type { Actor } from "../domain/actor.ts";
import type { LiveChecks } from "../domain/checks/live-checks.ts";

export type { Dependencies };

export interface AppEnv {
  Bindings: Record<string, unknown>;
  Variables: {
    requestId: string;
    deps: Dependencies;
    /** Who the request acts for: anonymous until requireSession or requireProviderKey verifies a credential. */
    actor: Actor;
    /** Every endpoint of the service: operationId → description (for the descriptor). */
    endpoints: Record<string, string>;
    /** The RateLimit headers of the limit this request spent, for its reply (`spendRateLimit`). */
    rateLimitHeaders?: Record<string, string>;
    /**
     * The live checks the MCP tools run, set by the MCP endpoint from the source its Worker's entry
     * chose (in-process, or the checks Worker over RPC: src/routes/mcp/live-checks-source.ts).
     */
    liveChecks?: LiveChecks;
  };
}
