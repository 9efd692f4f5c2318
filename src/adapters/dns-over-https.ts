/**
 * Address lookups over DNS over HTTPS with the JSON API (as served by Cloudflare's and Google's
 * resolvers): GET {url}?name=…&type=A and type=AAAA with `accept: application/dns-json`. Workers
 * have no socket-level DNS, and a configurable URL lets tests and local runs use a local resolver.
 */
import { formatAddress, parseIpLiteral } from "../domain/crawl/address-policy.ts";

/** A lookup that failed; its message is plain words that may be shown to the person who asked. */
export class DnsLookupError extends Error {}

/** A host name's IPv4 and IPv6 addresses; [] when the name does not exist. Throws on DNS failure. */
export type AddressResolver = (host: string) => Promise<string[]>;

/** Where and how to ask. */
export interface DohResolverOptions {
  /** The resolver's JSON endpoint, e.g. "https://cloudflare-dns.com/dns-query". */
  url: string;
  fetchImpl?: typeof fetch;
  /** The budget for both queries together; 2000 ms unless given. */
  timeoutMs?: number;
}

type RecordType = "A" | "AAAA";

const ADDRESS_RECORD_TYPES = new Set([1, 28]);
const NO_ERROR = 0;
const NXDOMAIN = 3;
const RCODE_NAMES: Record<number, string> = { 1: "FORMERR", 2: "SERVFAIL", 4: "NOTIMP", 5: "REFUSED" };

/** A resolver asking the DoH JSON endpoint for A and AAAA records in parallel. */
export function createDohResolver(options: DohResolverOptions): AddressResolver {
  // Bound, so workerd's fetch is never called with a foreign `this`.
  const fetchImpl = options.fetchImpl ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 2000;
  return async (host: string): Promise<string[]> => {
    const literal = parseIpLiteral(host);
    if (literal) return [formatAddress(literal)];
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const answers = await Promise.all(
        (["A", "AAAA"] as const).map((type) => queryRecords(fetchImpl, options.url, host, type, signal)),
      );
      return [...new Set(answers.flat())];
    } catch (error) {
      if (signal.aborted) throw new DnsLookupError(`DNS lookup of ${host} timed out after ${timeoutMs} ms`);
      if (error instanceof DnsLookupError) throw error;
      // The runtime's words for a failed fetch ("internal error; reference = …") mean nothing to a reader.
      throw new DnsLookupError(`DNS lookup of ${host} failed: the resolver could not be reached`);
    }
  };
}

async function queryRecords(
  fetchImpl: typeof fetch,
  endpoint: string,
  host: string,
  type: RecordType,
  signal: AbortSignal,
): Promise<string[]> {
  const url = new URL(endpoint);
  url.searchParams.set("name", host);
  url.searchParams.set("type", type);
  const response = await fetchImpl(url.href, { headers: { accept: "application/dns-json" }, signal });
  if (!response.ok) {
    await response.body?.cancel();
    throw new DnsLookupError(`DNS lookup of ${host} (${type}) failed: the resolver answered HTTP ${response.status}`);
  }
  const payload: unknown = await response.json();
  return readAddresses(payload, host, type);
}

function readAddresses(payload: unknown, host: string, type: RecordType): string[] {
  if (!isRecord(payload) || typeof payload.Status !== "number") {
    throw new DnsLookupError(`DNS lookup of ${host} (${type}) failed: malformed resolver answer`);
  }
  if (payload.Status === NXDOMAIN) return [];
  if (payload.Status !== NO_ERROR) {
    const name = RCODE_NAMES[payload.Status] ?? `status ${payload.Status}`;
    throw new DnsLookupError(`DNS lookup of ${host} (${type}) failed: ${name}`);
  }
  const answer = payload.Answer ?? [];
  if (!Array.isArray(answer))
    throw new DnsLookupError(`DNS lookup of ${host} (${type}) failed: malformed resolver answer`);
  // A CNAME chain arrives as CNAME records followed by the target's addresses; only addresses count.
  return answer.flatMap((record: unknown) =>
    isRecord(record) && typeof record.type === "number" && ADDRESS_RECORD_TYPES.has(record.type)
      ? typeof record.data === "string"
        ? [record.data.trim()]
        : []
      : [],
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
