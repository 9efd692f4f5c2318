/** What the live checks and submissions run against. */
import type { CrawlContext } from "../crawling/request-crawls.ts";
import type { OpenFetcher, VetHost } from "../signals/types.ts";

export interface CheckContext extends CrawlContext {
  openFetcher: OpenFetcher;
  vetHost: VetHost;
  /** FETCH_ALLOW_PRIVATE: local development and tests only. */
  allowPrivate: boolean;
}
