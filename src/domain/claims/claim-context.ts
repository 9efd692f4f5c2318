import type { Database } from "../../adapters/db.ts";
import type { TxtLookup } from "../../adapters/dns-txt.ts";

/** What claim operations work with. */
export interface ClaimContext {
  db: Database;
  /** The public origin: endpoint links in answers point there. */
  origin: string;
  /** TXT lookups for ownership proofs (both resolvers when two are configured). */
  txtLookup: TxtLookup;
  /** The time the operation acts at: the request's, or a job run's scheduled time. */
  now: Date;
}

const API = "/api/v1";

export const claimLinks = (origin: string, claimId: string) => ({
  verify: `${origin}${API}/provider/claims/${claimId}/verify`,
  rotateKey: `${origin}${API}/provider/claims/${claimId}/keys/rotate`,
});
