/**
 * What a signal detector receives and returns, and the evidence kept for each signal.
 * Runtime-agnostic (workerd and Node). The fetcher's own shapes belong to the outbound adapter
 * and are re-exported here for the detectors that read them.
 */
import type { SignalEvidence } from "../../../db/schema/sites.ts";
import type { ProbeResponse, SiteFetcher } from "../../adapters/outbound/fetch-types.ts";

export type { DnsRecordLookup } from "../../adapters/dns-records.ts";
export type {
  FetchFailureKind,
  OpenFetcher,
  ProbeAnswer,
  ProbeFailure,
  ProbeRequest,
  ProbeResponse,
  SiteFetcher,
  VetHost,
} from "../../adapters/outbound/fetch-types.ts";
export type { SignalEvidence };

/** One HTTP exchange a probe made, as shown in evidence. */
export type FetchRecord = SignalEvidence["fetched"][number];

/** What a signal detector works with. */
export interface ProbeContext {
  /** The site's origin, e.g. "https://example.com" (no trailing slash). */
  origin: string;
  /**
   * The crawl's fetcher: guarded, bounded in concurrency, and memoised, so the same method, URL
   * and body are fetched once per crawl however many detectors ask for them.
   */
  fetch: SiteFetcher;
  /**
   * MCP endpoints named for the site by a list outside it (an MCP Registry entry of a seed import):
   * leads for the MCP signal, tried after the site's own documents' (detect-mcp-server.ts).
   */
  mcpLeads?: readonly string[];
}

/** A detector's verdict on one signal, with its evidence and anything later steps may use. */
export interface SignalFinding extends SignalEvidence {
  /** Detector-specific facts (the OpenAPI URL found, the MCP endpoint, the tools count…). */
  details?: Record<string, unknown>;
}

export type SignalDetector = (context: ProbeContext) => Promise<SignalFinding>;

/** The evidence record of one fetch result. */
export function fetchRecord(response: ProbeResponse): FetchRecord {
  return {
    url: response.finalUrl || response.url,
    status: response.ok ? response.status : null,
    content_type: response.ok ? response.contentType : null,
  };
}
