/**
 * Record lookups over DNS over HTTPS (the JSON API, the same resolver as address vetting:
 * DOH_URL) for the checklist's DNS discovery: TXT, SVCB and HTTPS records of names under the
 * crawled site. An answer is the list of record data of the asked type (TXT strings joined, as
 * for ownership proofs); [] when the name or the type does not exist (NXDOMAIN, NODATA). Any
 * other outcome (the resolver unreachable, an HTTP error, SERVFAIL, a truncated or malformed
 * answer, a timeout) throws DnsLookupError: the checklist reports it as undecided, never absent.
 */
import { readTxtData } from "./dns-txt.ts";
import {
  DnsLookupError,
  isRecord,
  NO_ERROR,
  NXDOMAIN,
  RCODE_NAMES,
  readInteger,
  readRecordType,
} from "./outbound/dns-over-https.ts";

/** The record types the checklist asks for. */
export type DnsRecordType = "TXT" | "SVCB" | "HTTPS";

/** Looks up a name's records of one type; [] when there are none. Throws DnsLookupError when undecided. */
export type DnsRecordLookup = (name: string, type: DnsRecordType) => Promise<string[]>;

const TYPE_NUMBERS: Record<DnsRecordType, number> = { TXT: 16, SVCB: 64, HTTPS: 65 };

export function createDohRecordLookup(options: {
  url: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}): DnsRecordLookup {
  const fetchImpl = options.fetchImpl ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 2000;
  return async (name, type) => {
    const url = new URL(options.url);
    url.searchParams.set("name", name);
    url.searchParams.set("type", type);
    let payload: unknown;
    try {
      const response = await fetchImpl(url.href, {
        headers: { accept: "application/dns-json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new DnsLookupError(`the resolver answered HTTP ${response.status} for ${name} (${type})`);
      }
      payload = JSON.parse(await response.text());
    } catch (error) {
      if (error instanceof DnsLookupError) throw error;
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new DnsLookupError(
        timedOut
          ? `the DNS lookup of ${name} (${type}) timed out after ${timeoutMs} ms`
          : `the DNS lookup of ${name} (${type}) failed: the resolver could not be reached or gave no JSON`,
      );
    }
    if (!isRecord(payload)) throw new DnsLookupError(`malformed resolver answer for ${name} (${type})`);
    const status = readInteger(payload.Status);
    if (status === NXDOMAIN) return [];
    if (status !== NO_ERROR)
      throw new DnsLookupError(
        `the resolver answered ${RCODE_NAMES[status ?? -1] ?? `status ${status}`} for ${name} (${type})`,
      );
    if (payload.TC === true) throw new DnsLookupError(`truncated resolver answer for ${name} (${type})`);
    const records = payload.Answer ?? [];
    if (!Array.isArray(records)) throw new DnsLookupError(`malformed resolver answer for ${name} (${type})`);
    const values: string[] = [];
    for (const record of records) {
      if (!isRecord(record) || typeof record.data !== "string") continue;
      // A CNAME chain comes first; only records of the type asked count.
      if (readRecordType(record.type) !== TYPE_NUMBERS[type]) continue;
      values.push(type === "TXT" ? readTxtData(record.data) : record.data.trim());
    }
    return [...new Set(values)];
  };
}
