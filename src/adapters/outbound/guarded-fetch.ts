/**
 * The one fetcher for user-supplied URLs (checks, crawls, MCP probes). Every hop is checked
 * before it is requested: the static URL rules of address-policy, then the host name is resolved
 * over DNS over HTTPS and refused when any address is not public or there is none. Redirects are
 * followed by hand (each hop re-checked), and one time cap and one size cap bound each call.
 *
 * What remains open: the runtime's fetch resolves the host name again by itself, so a name whose
 * DNS answer changes between our lookup and the connection (DNS rebinding) can still reach an
 * address we never saw. The resolver a check passes in narrows that window (it never reuses an
 * answer past its TTL, and refuses a name that moves to new addresses mid-check: see
 * createCheckResolver); docs/crawling.md says what else protects production and what does not.
 *
 * `allowPrivate` turns off the address, host-name and port rules. It exists for local development
 * and tests against servers on 127.0.0.1 only and must never be set in production.
 *
 * `trustedHost` turns them off for one host only: the host a person named when checking their own
 * site from their own machine (the command-line checker). Every other hop is held to the public
 * rules, so a public start cannot be redirected into a private range it did not name.
 *
 * Headers: the caller's headers are sent, except that user-agent is always ours, host and
 * accept-encoding are left to the runtime (which decompresses; the size cap counts decoded
 * bytes), and credentials (authorization, cookie) are dropped when a redirect changes origin.
 */
import { checkTargetUrl, classifyAddress, describeAddressClass, parseIpLiteral } from "./address-policy.ts";
import { type AddressResolver, DnsAnswerChangedError, DnsLookupError } from "./dns-over-https.ts";
import type { FetchFailureKind, ProbeFailure, ProbeRequest, ProbeResponse, SiteFetcher } from "./fetch-types.ts";

/** How the guarded fetcher resolves, identifies itself and bounds each call. */
export interface GuardedFetchOptions {
  resolver: AddressResolver;
  /** Local development and tests only: allows private addresses, private names and any port. */
  allowPrivate: boolean;
  /**
   * A host (`URL.host`: the name and a port other than the scheme's), or several, exempt from
   * those rules, as allowPrivate would make it, while every other host keeps them: the host named
   * on the checker's command line, or the local demo sites of `npm start` (LOCAL_DEMO_HOSTS).
   */
  trustedHost?: string | readonly string[];
  userAgent: string;
  /** One cap for the whole call: lookups, every redirect hop and the body. 5000 ms unless given. */
  timeoutMs?: number;
  /** The largest body accepted, in decoded bytes; 1 MiB unless given. */
  maxBytes?: number;
  /** Redirects followed before giving up; 5 unless given. */
  maxRedirects?: number;
  /** Epoch ms after which every call fails with "deadline" (the crawl's whole budget). */
  deadline?: number;
  fetchImpl?: typeof fetch;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const BODY_HEADERS = ["content-type", "content-encoding", "content-language", "content-location"];
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie"];
const RUNTIME_HEADERS = ["host", "accept-encoding", "content-length"];

/** The per-call time cap unless one is given. */
const DEFAULT_TIMEOUT_MS = 5000;

/** A failure carrying its kind, thrown inside a call and turned into a ProbeFailure at its edge. */
class ProbeStop extends Error {
  constructor(
    readonly failure: FetchFailureKind,
    message: string,
    readonly unresolvedHost?: string,
  ) {
    super(message);
  }
}

/** Builds the guarded SiteFetcher. The returned function never throws. */
export function createGuardedFetch(options: GuardedFetchOptions): SiteFetcher {
  // Bound, so workerd's fetch is never called with a foreign `this`.
  const fetchImpl = options.fetchImpl ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? 1_048_576;
  const maxRedirects = options.maxRedirects ?? 5;

  return async (url: string, request: ProbeRequest = {}): Promise<ProbeResponse> => {
    const redirects: string[] = [];
    let current = url;
    const fail = (failure: FetchFailureKind, message: string, unresolvedHost?: string): ProbeFailure => ({
      ok: false,
      url,
      finalUrl: current,
      redirects,
      failure,
      message,
      ...(unresolvedHost === undefined ? {} : { unresolvedHost }),
    });

    const remaining = options.deadline === undefined ? Number.POSITIVE_INFINITY : options.deadline - Date.now();
    if (remaining <= 0) return fail("deadline", "the crawl's time budget ran out");
    const limitedByDeadline = remaining < timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), limitedByDeadline ? remaining : timeoutMs);
    const signal = controller.signal;

    try {
      let method = request.method ?? "GET";
      let body = request.body;
      const headers = new Headers(request.headers);
      for (const name of RUNTIME_HEADERS) headers.delete(name);
      headers.set("user-agent", options.userAgent);
      const visited = new Set<string>();

      for (;;) {
        const allowPrivate = options.allowPrivate || isTrustedHost(current, options.trustedHost);
        const check = checkTargetUrl(current, { allowPrivate });
        if (!check.ok) return fail("refused", check.reason);
        const target = check.url;
        current = target.href;
        visited.add(`${method} ${current}`);
        await checkResolvedAddresses(target.hostname, { resolver: options.resolver, allowPrivate }, signal);

        const response = await raceAbort(
          fetchImpl(target.href, { method, headers, body, redirect: "manual", signal }),
          signal,
        );
        const location = response.headers.get("location");
        if (!REDIRECT_STATUSES.has(response.status) || location === null) {
          return await readAnswer(response, { url, finalUrl: current, redirects }, request, maxBytes, signal);
        }

        discardBody(response);
        if (redirects.length >= maxRedirects) {
          return fail("too_many_redirects", `more than ${maxRedirects} redirects`);
        }
        const next = resolveLocation(location, target);
        if (next === null) return fail("refused", "the redirect target is not a valid URL");
        // Browsers turn these into a bodiless GET; a probe must see what a browser would.
        const becomesGet =
          (response.status === 303 && method !== "HEAD") || (method === "POST" && response.status < 303);
        if (becomesGet) {
          method = "GET";
          body = undefined;
          for (const name of BODY_HEADERS) headers.delete(name);
        }
        if (next.origin !== target.origin) {
          for (const name of CREDENTIAL_HEADERS) headers.delete(name);
        }
        redirects.push(next.href);
        current = next.href;
        if (visited.has(`${method} ${current}`)) {
          return fail("too_many_redirects", `redirect loop back to ${current}`);
        }
      }
    } catch (error) {
      if (signal.aborted) {
        return limitedByDeadline
          ? fail("deadline", "the crawl's time budget ran out")
          : fail("timeout", `no complete answer within ${timeoutMs} ms`);
      }
      if (error instanceof ProbeStop) return fail(error.failure, error.message, error.unresolvedHost);
      return fail("network", describeNetworkError(error, hostOf(current)));
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Whether `url` is on the trusted host; a trailing dot on the name changes nothing. */
function isTrustedHost(url: string, trustedHost: string | readonly string[] | undefined): boolean {
  if (trustedHost === undefined) return false;
  try {
    const withoutDot = (host: string) => host.replace(/\.(?=:|$)/, "").toLowerCase();
    const host = withoutDot(new URL(url).host);
    return (typeof trustedHost === "string" ? [trustedHost] : trustedHost).some((entry) => withoutDot(entry) === host);
  } catch {
    return false;
  }
}

/**
 * Vets a host name by the addresses it resolves to, without fetching anything (for requests that
 * only queue work). Returns the refusal, or null when the name may be fetched; a resolver that is
 * down is not a refusal: the fetch itself checks again.
 */
export async function vetHostAddresses(
  hostname: string,
  options: Pick<GuardedFetchOptions, "allowPrivate" | "resolver">,
): Promise<string | null> {
  try {
    await checkResolvedAddresses(hostname, options, AbortSignal.timeout(DEFAULT_TIMEOUT_MS));
    return null;
  } catch (error) {
    return error instanceof ProbeStop && error.failure === "refused" ? error.message : null;
  }
}

async function checkResolvedAddresses(
  hostname: string,
  options: Pick<GuardedFetchOptions, "allowPrivate" | "resolver">,
  signal: AbortSignal,
): Promise<void> {
  if (options.allowPrivate || parseIpLiteral(hostname) !== null) return;
  let addresses: string[];
  try {
    addresses = await raceAbort(
      Promise.resolve().then(() => options.resolver(hostname)),
      signal,
    );
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof DnsAnswerChangedError) throw new ProbeStop("refused", error.message);
    const reason = error instanceof DnsLookupError ? error.message : `the DNS lookup of ${hostname} failed`;
    throw new ProbeStop("network", `could not resolve ${hostname}: ${reason}`);
  }
  if (addresses.length === 0) {
    throw new ProbeStop("refused", `the host name ${hostname} does not resolve`, hostname);
  }
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind !== "public") {
      throw new ProbeStop("refused", `${hostname} resolves to ${address}, which is ${describeAddressClass(kind)}`);
    }
  }
}

async function readAnswer(
  response: Response,
  base: { url: string; finalUrl: string; redirects: string[] },
  request: ProbeRequest,
  maxBytes: number,
  signal: AbortSignal,
): Promise<ProbeResponse> {
  const tooLarge = (): ProbeResponse => ({
    ok: false,
    ...base,
    failure: "too_large",
    message: `the body is larger than ${maxBytes} bytes`,
  });
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    discardBody(response);
    return tooLarge();
  }
  let text = "";
  const chunks: Uint8Array[] | null = request.keepBytes ? [] : null;
  if (response.body) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let received = 0;
    try {
      for (;;) {
        const { value, done } = await raceAbort(reader.read(), signal);
        if (done) break;
        received += value.byteLength;
        if (received > maxBytes) {
          cancelQuietly(reader);
          return tooLarge();
        }
        text += decoder.decode(value, { stream: true });
        chunks?.push(value);
        if (request.readUntil?.(text)) {
          cancelQuietly(reader);
          break;
        }
      }
    } catch (error) {
      cancelQuietly(reader);
      throw error;
    }
    text += decoder.decode();
  }
  return {
    ok: true,
    ...base,
    status: response.status,
    headers: response.headers,
    contentType: mediaType(response.headers.get("content-type")),
    body: text,
    ...(chunks ? { bytes: concatBytes(chunks) } : {}),
  };
}

function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function mediaType(header: string | null): string | null {
  const type = header?.split(";")[0]?.trim().toLowerCase();
  return type ? type : null;
}

function resolveLocation(location: string, base: URL): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

/** Settles with the promise, or rejects as soon as the signal aborts, even if the promise never settles. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

// Not awaited: a peer that stalls must not hold the call past its answer.
function discardBody(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

function cancelQuietly(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  reader.cancel().catch(() => undefined);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the site";
  }
}

/** Connection failures by the system error code Node reports, in plain words. */
const NETWORK_CODE_PHRASES: readonly [RegExp, (host: string) => string][] = [
  [/^ECONNREFUSED$/, (host) => `${host} refused the connection`],
  [/^(?:ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/, (host) => `${host} closed the connection before answering`],
  [/^(?:ENOTFOUND|EAI_AGAIN|EAI_NODATA|EAI_NONAME)$/, (host) => `the host name of ${host} could not be resolved`],
  [/^(?:ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$/, (host) => `the connection to ${host} timed out`],
  [/^(?:EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)$/, (host) => `${host} is not reachable on the network`],
  [
    /^(?:CERT_|ERR_TLS_|ERR_SSL_)|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/,
    (host) => `the secure connection to ${host} failed: its TLS certificate or handshake could not be used`,
  ],
];

/**
 * Plain words for a failed connection. The runtime's own text never leaves: workerd reports
 * most failures as "internal error; reference = …", which tells a person nothing, and Node's
 * fetch says only "fetch failed" with the reason in its cause's code.
 */
function describeNetworkError(error: unknown, host: string): string {
  const code = systemErrorCode(error);
  const phrase = code ? NETWORK_CODE_PHRASES.find(([pattern]) => pattern.test(code))?.[1] : undefined;
  if (phrase) return phrase(host);
  // workerd's words for a connection refused or cut before any answer.
  if (error instanceof Error && /network connection lost/i.test(error.message)) {
    return `the connection to ${host} was refused or cut before any answer`;
  }
  return `no connection could be made to ${host}`;
}

function systemErrorCode(error: unknown): string | null {
  const codeOf = (value: unknown): string | null =>
    typeof value === "object" && value !== null && "code" in value && typeof value.code === "string"
      ? value.code
      : null;
  const cause = error instanceof Error ? error.cause : undefined;
  // Node reports a name with several addresses as an AggregateError of one failure per address.
  const inner = cause instanceof AggregateError ? cause.errors[0] : undefined;
  return codeOf(cause) ?? codeOf(inner) ?? codeOf(error);
}
