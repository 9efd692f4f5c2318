/**
 * Address lookups over DNS over HTTPS with the JSON API (as served by Cloudflare's and Google's
 * resolvers): GET {url}?name=…&type=A and type=AAAA with `accept: application/dns-json`. Workers
 * have no socket-level DNS, and a configurable URL lets tests and local runs use a local resolver.
 *
 * The JSON format has no RFC: Cloudflare documents that it follows Google's schema, and Google
 * documents the `type` of a query as a number or a mnemonic. An answer is read whatever spelling
 * a resolver uses for each record, because a guard that skips a record it cannot read lets the
 * address in it through: `type` as a number (1), a numeric string ("1"), a mnemonic in any case
 * ("A", "aaaa", "CNAME") or RFC 3597's generic "TYPE1"; `data` with or without surrounding space
 * and a trailing dot. Anything else that could hide an address (a record that is not an object, a
 * type that cannot be read, address data that is not text, a truncated answer) fails the lookup
 * rather than being skipped.
 */
import { formatAddress, parseIpLiteral } from "./address-policy.ts";

/** A lookup that failed; its message is plain words that may be shown to the person who asked. */
export class DnsLookupError extends Error {}

/**
 * A name whose answer gained addresses between two lookups of one check: the shape of DNS
 * rebinding, where a name passes the guard with one address and is fetched at another.
 */
export class DnsAnswerChangedError extends DnsLookupError {}

/** One lookup's result: every IPv4 and IPv6 address, canonical, and how long it may be reused. */
export interface DnsAnswer {
  addresses: string[];
  /** The smallest TTL of the records that led to the addresses, in seconds; 0 when none. */
  ttlSeconds: number;
}

/** Looks a host name up; addresses [] when the name does not exist. Throws DnsLookupError on failure. */
export type DnsLookup = (host: string) => Promise<DnsAnswer>;

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

const ADDRESS_TYPES = new Set([1, 28]);
/** The mnemonics of the record types a resolver may put in an address answer, with their numbers. */
const TYPE_NUMBERS: Readonly<Record<string, number>> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  DNAME: 39,
  OPT: 41,
  DS: 43,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  SVCB: 64,
  HTTPS: 65,
  CAA: 257,
};
export const NO_ERROR = 0;
export const NXDOMAIN = 3;
export const RCODE_NAMES: Record<number, string> = { 1: "FORMERR", 2: "SERVFAIL", 4: "NOTIMP", 5: "REFUSED" };

/** A lookup asking the DoH JSON endpoint for A and AAAA records in parallel. */
export function createDohLookup(options: DohResolverOptions): DnsLookup {
  // Bound, so workerd's fetch is never called with a foreign `this`.
  const fetchImpl = options.fetchImpl ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 2000;
  return async (host: string): Promise<DnsAnswer> => {
    const literal = parseIpLiteral(host);
    if (literal) return { addresses: [formatAddress(literal)], ttlSeconds: Number.POSITIVE_INFINITY };
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const answers = await Promise.all(
        (["A", "AAAA"] as const).map((type) => queryRecords(fetchImpl, options.url, host, type, signal)),
      );
      return {
        addresses: [...new Set(answers.flatMap((answer) => answer.addresses))],
        ttlSeconds: Math.min(...answers.map((answer) => answer.ttlSeconds)),
      };
    } catch (error) {
      if (signal.aborted) throw new DnsLookupError(`DNS lookup of ${host} timed out after ${timeoutMs} ms`);
      if (error instanceof DnsLookupError) throw error;
      // The runtime's words for a failed fetch ("internal error; reference = …") mean nothing to a reader.
      throw new DnsLookupError(`DNS lookup of ${host} failed: the resolver could not be reached`);
    }
  };
}

/** A resolver asking the DoH JSON endpoint for A and AAAA records in parallel. */
export function createDohResolver(options: DohResolverOptions): AddressResolver {
  const lookup = createDohLookup(options);
  return async (host) => (await lookup(host)).addresses;
}

/**
 * The resolver of one check (one request, or one queue batch): every lookup the guard makes for
 * it, vetting included, goes through here, so their answers can be compared.
 *
 * - An answer is reused while its TTL lasts, as any resolver would; once it has run out (at once
 *   for TTL 0, the setting DNS rebinding needs), the name is looked up again before the next fetch,
 *   so the guard's answer is never older than the name's own TTL.
 * - A later answer holding an address the first answer of the check did not is refused with
 *   DnsAnswerChangedError: a name that moves to new addresses in the middle of a check is what a
 *   rebinding attack looks like from here. Answers that only drop addresses are fine.
 * - Concurrent lookups of one name share one query; failed lookups are not kept.
 */
export function createCheckResolver(lookup: DnsLookup, now: () => number = Date.now): AddressResolver {
  const first = new Map<string, Set<string>>();
  const reusable = new Map<string, { addresses: string[]; until: number }>();
  const pending = new Map<string, Promise<string[]>>();

  const ask = async (host: string): Promise<string[]> => {
    const answer = await lookup(host);
    const seen = first.get(host);
    const added = seen ? answer.addresses.filter((address) => !seen.has(address)) : [];
    if (seen && added.length > 0) {
      const before = seen.size > 0 ? [...seen].join(", ") : "no address";
      throw new DnsAnswerChangedError(
        `the DNS answer for ${host} changed during the check (first ${before}, then ${answer.addresses.join(", ")}); a name that moves to new addresses between lookups is refused, as DNS rebinding would`,
      );
    }
    if (!seen) first.set(host, new Set(answer.addresses));
    reusable.set(host, { addresses: answer.addresses, until: now() + answer.ttlSeconds * 1000 });
    return answer.addresses;
  };

  return (host) => {
    const key = host.toLowerCase().replace(/\.$/, "");
    const kept = reusable.get(key);
    if (kept && now() < kept.until) return Promise.resolve(kept.addresses);
    let query = pending.get(key);
    if (!query) {
      query = ask(key).finally(() => pending.delete(key));
      pending.set(key, query);
    }
    return query;
  };
}

async function queryRecords(
  fetchImpl: typeof fetch,
  endpoint: string,
  host: string,
  type: RecordType,
  signal: AbortSignal,
): Promise<DnsAnswer> {
  const url = new URL(endpoint);
  url.searchParams.set("name", host);
  url.searchParams.set("type", type);
  const response = await fetchImpl(url.href, { headers: { accept: "application/dns-json" }, signal });
  if (!response.ok) {
    await response.body?.cancel();
    throw new DnsLookupError(`DNS lookup of ${host} (${type}) failed: the resolver answered HTTP ${response.status}`);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(await response.text());
  } catch {
    if (signal.aborted) throw signal.reason;
    payload = undefined;
  }
  return readAnswer(payload, host, type);
}

/** Reads a DoH JSON answer (see the module comment for the spellings accepted). */
function readAnswer(payload: unknown, host: string, type: RecordType): DnsAnswer {
  const malformed = (what: string) =>
    new DnsLookupError(`DNS lookup of ${host} (${type}) failed: malformed resolver answer (${what})`);
  if (!isRecord(payload)) throw malformed("not a JSON object");
  const status = readInteger(payload.Status);
  if (status === null) throw malformed("no Status");
  if (status === NXDOMAIN) return { addresses: [], ttlSeconds: 0 };
  if (status !== NO_ERROR) {
    const name = RCODE_NAMES[status] ?? `status ${status}`;
    throw new DnsLookupError(`DNS lookup of ${host} (${type}) failed: ${name}`);
  }
  // A truncated answer may lack the very record that would have been refused.
  if (payload.TC === true) throw malformed("truncated");
  const records = payload.Answer ?? [];
  if (!Array.isArray(records)) throw malformed("Answer is not a list");
  const addresses: string[] = [];
  let ttlSeconds = Number.POSITIVE_INFINITY;
  for (const record of records) {
    if (!isRecord(record)) throw malformed("a record that is not an object");
    const recordType = readRecordType(record.type);
    if (recordType === null) throw malformed(`a record of unreadable type ${JSON.stringify(record.type)}`);
    const ttl = readInteger(record.TTL);
    // A CNAME chain arrives as CNAME records followed by the target's addresses; only addresses count.
    if (!ADDRESS_TYPES.has(recordType)) {
      if (recordType === TYPE_NUMBERS.CNAME) ttlSeconds = Math.min(ttlSeconds, ttl ?? 0);
      continue;
    }
    if (typeof record.data !== "string") throw malformed("an address record without text data");
    addresses.push(canonicalAddress(record.data));
    ttlSeconds = Math.min(ttlSeconds, ttl ?? 0);
  }
  return { addresses: [...new Set(addresses)], ttlSeconds: addresses.length > 0 ? ttlSeconds : 0 };
}

/** A record type as a number, from any documented spelling; null when it cannot be read. */
export function readRecordType(value: unknown): number | null {
  const number = readInteger(value);
  if (number !== null) return number;
  if (typeof value !== "string") return null;
  const text = value.trim().toUpperCase();
  const generic = /^TYPE(\d+)$/.exec(text);
  if (generic) return Number(generic[1]);
  return TYPE_NUMBERS[text] ?? null;
}

export function readInteger(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) ? value : null;
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return Number(value);
  return null;
}

/** An address as text, canonical when it parses; text that is no address is kept for the guard to refuse. */
function canonicalAddress(data: string): string {
  const text = data.trim().replace(/\.$/, "");
  const ip = parseIpLiteral(text);
  return ip ? formatAddress(ip) : text;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
