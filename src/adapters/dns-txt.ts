/**
 * TXT lookups over DNS over HTTPS (the JSON API, as for addresses), for ownership proofs. With
 * two resolvers configured a proof needs both to answer and agree — the multi-perspective idea
 * behind Let's Encrypt's validation: one poisoned or captured resolver cannot prove a claim alone.
 */
import {
  DnsLookupError,
  isRecord,
  NO_ERROR,
  NXDOMAIN,
  RCODE_NAMES,
  readInteger,
  readRecordType,
} from "./outbound/dns-over-https.ts";

/** A name's TXT values, each record's strings joined; [] when the name or its TXT records do not exist. */
export type TxtLookup = (name: string) => Promise<string[]>;

const TXT = 16;

/**
 * One TXT record's text. Cloudflare gives the wire form (each character-string quoted, escapes
 * with a backslash, strings separated by spaces); Google gives the text unquoted. The strings of
 * one record are joined, as a long value split into 255-byte strings is meant to be read.
 */
export function readTxtData(data: string): string {
  const text = data.trim();
  if (!text.startsWith('"')) return text;
  let value = "";
  let index = 0;
  while (index < text.length) {
    if (text[index] === " ") {
      index++;
      continue;
    }
    if (text[index] !== '"') throw new DnsLookupError("malformed TXT data");
    index++;
    while (index < text.length && text[index] !== '"') {
      if (text[index] === "\\") {
        const decimal = /^\d{3}/.exec(text.slice(index + 1));
        if (decimal) {
          value += String.fromCharCode(Number(decimal[0]));
          index += 4;
          continue;
        }
        index++;
      }
      value += text[index] ?? "";
      index++;
    }
    if (text[index] !== '"') throw new DnsLookupError("malformed TXT data");
    index++;
  }
  return value;
}

export function createDohTxtLookup(options: { url: string; fetchImpl?: typeof fetch; timeoutMs?: number }): TxtLookup {
  const fetchImpl = options.fetchImpl ?? globalThis.fetch.bind(globalThis);
  return async (name) => {
    const url = new URL(options.url);
    url.searchParams.set("name", name);
    url.searchParams.set("type", "TXT");
    let payload: unknown;
    try {
      const response = await fetchImpl(url.href, {
        headers: { accept: "application/dns-json" },
        signal: AbortSignal.timeout(options.timeoutMs ?? 3000),
      });
      if (!response.ok) throw new DnsLookupError(`the resolver answered HTTP ${response.status}`);
      payload = await response.json();
    } catch (error) {
      if (error instanceof DnsLookupError) throw error;
      throw new DnsLookupError(`the resolver could not be reached (${error instanceof Error ? error.name : "error"})`);
    }
    if (!isRecord(payload)) throw new DnsLookupError("malformed resolver answer");
    const status = readInteger(payload.Status);
    if (status === NXDOMAIN) return [];
    if (status !== NO_ERROR)
      throw new DnsLookupError(`the resolver answered ${RCODE_NAMES[status ?? -1] ?? `status ${status}`}`);
    if (payload.TC === true) throw new DnsLookupError("truncated resolver answer");
    const records = payload.Answer ?? [];
    if (!Array.isArray(records)) throw new DnsLookupError("malformed resolver answer");
    const values: string[] = [];
    for (const record of records) {
      if (!isRecord(record)) throw new DnsLookupError("malformed resolver answer");
      if (readRecordType(record.type) !== TXT) continue;
      if (typeof record.data !== "string") throw new DnsLookupError("malformed TXT record");
      values.push(readTxtData(record.data));
    }
    return [...new Set(values)].sort();
  };
}

/**
 * Asks every resolver; answers only when all of them answer the same set of values, else throws
 * a DnsLookupError saying they disagree (a failed check, never a pass).
 */
export function createAgreeingTxtLookup(lookups: TxtLookup[]): TxtLookup {
  if (lookups.length === 0) throw new Error("at least one TXT resolver is needed");
  return async (name) => {
    const answers = await Promise.all(lookups.map((lookup) => lookup(name)));
    const [first = [], ...others] = answers;
    const same = others.every(
      (answer) => answer.length === first.length && answer.every((value, i) => value === first[i]),
    );
    if (!same) throw new DnsLookupError("the DNS resolvers disagree about this record");
    return first;
  };
}
