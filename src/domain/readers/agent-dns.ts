/**
 * The DNS records that announce agent surfaces, as a DNS-over-HTTPS JSON answer carries them.
 *
 * - AID (Agent Identity & Discovery): one TXT record at `_agent.<exact host>`, semicolon-separated
 *   `key=value` pairs (keys case-insensitive, each with a one-letter alias that must not appear
 *   beside its full key): `v`/`version` (`aid1`; `aid2` is the later wire format), `u`/`uri` (an
 *   absolute `https://` URL for a remote agent, a locator for a local one), `p`/`proto` (the
 *   protocol token: mcp, a2a, openapi…), optional `a`/`auth`, `s`/`desc`, `d`/`docs`, `e`/`dep`,
 *   `k`/`pka`, `i`/`kid`. Exactly one valid record must be present at the name (more is ambiguous).
 * - DNS-AID (DNS for AI Discovery): SVCB or HTTPS records (RFC 9460) at `_<service>._agents.<domain>`
 *   (`_index`, `_mcp`, `_a2a`), in ServiceMode (priority ≥ 1) with a TargetName, `alpn` and `port`.
 *   Resolvers give the record data in presentation form (`1 mcp.example.com. alpn="h2" port=443`)
 *   or in RFC 3597's generic form (`\# 23 0001…`); both are read.
 *
 * No parser of these records is a dependency here: the AID reference library on npm
 * (`@agentcommunity/aid`) brings its own DNS client, and SVCB parsers are wire-format only; the
 * rules above are the drafts' own.
 */

/** The AID protocol tokens of its registry that a crawler can reach over HTTPS. */
export const AID_REMOTE_PROTOCOLS = ["mcp", "a2a", "openapi", "graphql", "grpc", "websocket"] as const;

/** The protocol tokens whose `uri` is not a URL (a package or a local service). */
const AID_LOCAL_PROTOCOLS = new Set(["local", "zeroconf"]);

const AID_KEYS: Record<string, string> = {
  v: "version",
  u: "uri",
  p: "proto",
  a: "auth",
  s: "desc",
  d: "docs",
  e: "dep",
  k: "pka",
  i: "kid",
};

export interface AidRecord {
  version: string;
  uri: string;
  proto: string;
  /** The other keys, by full name. */
  fields: Record<string, string>;
}

/** Reads one TXT value as an AID record, or says why it is not a valid one. */
export function readAidRecord(text: string): AidRecord | { problem: string; isAid: boolean } {
  const fields: Record<string, string> = {};
  const seenAs = new Map<string, string>();
  for (const part of text.split(";")) {
    if (!part.trim()) continue;
    const equals = part.indexOf("=");
    if (equals < 0)
      return { problem: `"${part.trim()}" is not a key=value pair`, isAid: /v(ersion)?\s*=\s*aid/i.test(text) };
    const written = part.slice(0, equals).trim().toLowerCase();
    const key = AID_KEYS[written] ?? written;
    const earlier = seenAs.get(key);
    if (earlier !== undefined)
      return { problem: `the key ${key} is given twice (${earlier} and ${written})`, isAid: true };
    seenAs.set(key, written);
    fields[key] = part.slice(equals + 1).trim();
  }
  const version = fields.version;
  if (!version || !/^aid\d+$/i.test(version)) return { problem: "it has no v=aid1 version", isAid: false };
  for (const required of ["uri", "proto"] as const) {
    if (!fields[required]) return { problem: `it lacks the required key ${required}`, isAid: true };
  }
  const { version: _v, uri, proto, ...rest } = fields;
  const token = proto!.toLowerCase();
  if (!AID_LOCAL_PROTOCOLS.has(token) && !/^https:\/\//i.test(uri!))
    return { problem: `its uri (${uri}) is not an https:// URL, which a remote agent's must be`, isAid: true };
  return { version: version.toLowerCase(), uri: uri!, proto: token, fields: rest };
}

/** One SVCB/HTTPS record, read. */
export interface SvcbRecord {
  priority: number;
  /** The TargetName without its trailing dot; "." stays ".". */
  target: string;
  /** The SvcParams by mnemonic (`alpn`, `port`…) or `key<N>`, values unquoted. */
  params: Record<string, string>;
}

const PARAM_NAMES: Record<number, string> = {
  0: "mandatory",
  1: "alpn",
  2: "no-default-alpn",
  3: "port",
  4: "ipv4hint",
  5: "ech",
  6: "ipv6hint",
  7: "dohpath",
};

function readGeneric(data: string): SvcbRecord | null {
  const match = /^\\#\s+(\d+)\s*([0-9a-f\s]*)$/i.exec(data);
  if (!match) return null;
  const hex = match[2]!.replace(/\s+/g, "");
  if (hex.length !== Number(match[1]) * 2 || hex.length < 6) return null;
  const bytes = Uint8Array.from(hex.match(/../g)!, (pair) => Number.parseInt(pair, 16));
  const view = new DataView(bytes.buffer);
  const priority = view.getUint16(0);
  let offset = 2;
  const labels: string[] = [];
  while (offset < bytes.length) {
    const length = bytes[offset]!;
    offset++;
    if (length === 0) break;
    if (length > 63 || offset + length > bytes.length) return null;
    labels.push(String.fromCharCode(...bytes.slice(offset, offset + length)));
    offset += length;
  }
  const params: Record<string, string> = {};
  while (offset + 4 <= bytes.length) {
    const key = view.getUint16(offset);
    const length = view.getUint16(offset + 2);
    offset += 4;
    if (offset + length > bytes.length) return null;
    const value = bytes.slice(offset, offset + length);
    offset += length;
    const name = PARAM_NAMES[key] ?? `key${key}`;
    if (key === 1) {
      const ids: string[] = [];
      for (let i = 0; i < value.length; ) {
        const size = value[i]!;
        ids.push(String.fromCharCode(...value.slice(i + 1, i + 1 + size)));
        i += 1 + size;
      }
      params[name] = ids.join(",");
    } else if (key === 3 && value.length === 2) params[name] = String((value[0]! << 8) | value[1]!);
    else params[name] = String.fromCharCode(...value);
  }
  return { priority, target: labels.length ? labels.join(".") : ".", params };
}

/** Reads the data of an SVCB or HTTPS record in presentation or generic form; null when it is neither. */
export function readSvcbRecord(data: string): SvcbRecord | null {
  const text = data.trim();
  if (text.startsWith("\\#")) return readGeneric(text);
  const tokens = text.match(/(?:[^\s"]+(?:="[^"]*")?|"[^"]*")+/g) ?? [];
  const [priorityText, targetText, ...rest] = tokens;
  if (!priorityText || !/^\d+$/.test(priorityText) || !targetText) return null;
  const params: Record<string, string> = {};
  for (const token of rest) {
    const equals = token.indexOf("=");
    const key = (equals < 0 ? token : token.slice(0, equals)).toLowerCase();
    params[key] = equals < 0 ? "" : token.slice(equals + 1).replace(/^"|"$/g, "");
  }
  const target = targetText === "." ? "." : targetText.replace(/\.$/, "").toLowerCase();
  return { priority: Number(priorityText), target, params };
}

/** The DNS-AID service labels looked up under `_agents.<domain>`, with the protocol each announces. */
export const DNS_AID_SERVICES = [
  { label: "_index", proto: "index" },
  { label: "_mcp", proto: "mcp" },
  { label: "_a2a", proto: "a2a" },
] as const;

/** The URL a ServiceMode record points at: https://<target>[:port]/ (the owner name when the target is "."). */
export function svcbEndpoint(record: SvcbRecord, ownerName: string): string | null {
  if (record.priority === 0) return null;
  const host = record.target === "." ? ownerName.replace(/\.$/, "") : record.target;
  if (!/^[a-z0-9.-]+$/i.test(host) || host.split(".").some((label) => label.startsWith("_"))) return null;
  const port = record.params.port && record.params.port !== "443" ? `:${record.params.port}` : "";
  return `https://${host}${port}/`;
}
