/**
 * The guarded fetcher's shapes: what a fetch of a user-supplied URL asks and answers, and the
 * two entry points the rest of the service is given (opening a fetcher, vetting a host name).
 */

/** Why the guarded fetcher gave no usable answer. */
export type FetchFailureKind =
  /** The URL or an address it resolved to is not allowed (scheme, port, private address…). */
  | "refused"
  /** No answer within the per-fetch time cap. */
  | "timeout"
  /** The body exceeded the per-fetch size cap. */
  | "too_large"
  /** More redirects than allowed, or a redirect loop. */
  | "too_many_redirects"
  /** DNS failure, connection refused or reset, TLS failure. */
  | "network"
  /** The whole crawl's time budget ran out before or during this fetch. */
  | "deadline";

export interface ProbeRequest {
  method?: "GET" | "POST" | "HEAD" | "DELETE";
  headers?: Record<string, string>;
  body?: string;
  /**
   * For streamed bodies (Server-Sent Events): stop reading, and close the stream, as soon as this
   * returns true for the text received so far. The body returned is that text.
   */
  readUntil?: (textSoFar: string) => boolean;
  /**
   * Keep the body's bytes as received (`ProbeAnswer.bytes`) beside the text: for images (a
   * site's favicon), which UTF-8 decoding would corrupt.
   */
  keepBytes?: boolean;
}

interface ProbeResponseBase {
  /** The URL asked for. */
  url: string;
  /** The URL of the last hop (after redirects). */
  finalUrl: string;
  /** Every URL visited after the first, in order. */
  redirects: string[];
}

export interface ProbeAnswer extends ProbeResponseBase {
  ok: true;
  status: number;
  headers: Headers;
  /** The media type without parameters, lower-case, or null when absent. */
  contentType: string | null;
  /** The body decoded as UTF-8 (complete unless readUntil stopped it). */
  body: string;
  /** The body's bytes, only when the request asked for them (`keepBytes`). */
  bytes?: Uint8Array;
}

export interface ProbeFailure extends ProbeResponseBase {
  ok: false;
  failure: FetchFailureKind;
  /** A short, public explanation, e.g. "resolves to a private address (10.0.0.8)". */
  message: string;
  /**
   * The host name that DNS says does not exist (NXDOMAIN, or no address record at all), when that
   * is why: a fact about the name rather than a lookup that failed, which the recrawl backs off on.
   */
  unresolvedHost?: string;
}

export type ProbeResponse = ProbeAnswer | ProbeFailure;

/**
 * A fetch of a target site's URL. Never throws: every failure is a ProbeFailure. Redirects are
 * followed inside it (each hop re-checked), so a ProbeAnswer is never a 3xx unless it is the
 * last hop allowed.
 */
export type SiteFetcher = (url: string, request?: ProbeRequest) => Promise<ProbeResponse>;

/** Opens a guarded fetcher whose every fetch fails with "deadline" after `deadline` (epoch ms). */
export type OpenFetcher = (options: { deadline: number }) => SiteFetcher;

/** The refusal of a host name by the addresses it resolves to, or null when it may be fetched. */
export type VetHost = (hostname: string) => Promise<string | null>;
