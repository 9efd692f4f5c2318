/** The types every route and middleware share: bindings in, per-request dependencies out. */

import type { Dependencies } from "../deps.ts";
import type { Actor } from "../domain/actor.ts";

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
  };
}
