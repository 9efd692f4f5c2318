/** What domain operations run against: adapters only, never a transport. */
import type { JsonCache } from "../adapters/cache.ts";
import type { Database } from "../adapters/db.ts";

export interface DomainContext {
  db: Database;
  cache: JsonCache;
  /** The service's public origin, without trailing slash: links in answers point there. */
  origin: string;
}
