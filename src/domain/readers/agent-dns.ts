/**
 * The DNS records that announce agent surfaces, as a DNS-over-HTTPS JSON answer carries them.
 *
 * - AID (Agent Identity & Discovery): one TXT record at `_agent.<exact host>`, semicolon-separated
 *   `key=value` pairs (keys case-insensitive, each with a one-letter alias that must not appear
 *   beside its full key): `v`/`version` (`aid1`; `aid2` is the later wire format), `u`/`uri` (an
 *   absolute `https://` URL for a remote agent, a locator for a local one), `p`/`proto` (the
 *   protocol token: mcp, a2a, openapi…), optional `a`/`auth`, `s`/`desc`, `d`/`docs`, `e`/`dep`,
 *   `k`/`pka`, `i`/`kid`. Exactly one valid record must be present at the name (more is ambiguous).
 *   The value rules are those of the standard's own reference library (`@agentcommunity/aid`'s
 *   `parse`, which the tests hold this reader to): no empty value; `auth` a token of the registry;
 *   `desc` at most 60 UTF-8 bytes; `docs` an https URL; `dep` an ISO 8601 UTC time; `pka` only
 *   with a `kid`; the `uri` of a remote protocol https (`wss` for websocket), of `local` a
 *   `docker:`, `npx:` or `pip:` locator, of `zeroconf` a `zeroconf:` one.
 * - DNS-AID (DNS for AI Discovery): SVCB or HTTPS records (RFC 9460) at `_<service>._agents.<domain>`
 *   (`_index`, `_mcp`, `_a2a`), in ServiceMode (priority ≥ 1) with a TargetName, `alpn` and `port`.
 *   Resolvers give the record data in presentation form (`1 mcp.example.com. alpn="h2" port=443`)
 *   or in RFC 3597's generic form (`\# 23 0001…`); both are read.
 *
 * No parser of these records is a dependency of the service: the AID reference library
 * (`@agentcommunity/aid`) brings its own DNS client (fixed public resolvers, not DOH_URL), and SVCB
 * parsers are wire-format only; it is a dev dependency that the tests compare this reader with.
 */

/** The AID protocol tokens of its registry that a crawler can reach over HTTPS. */
export const AID_REMOTE_PROTOCOLS = ["mcp", "a2a", "openapi", "graphql", "grpc", "websocket"] as const;

/** The `uri` schemes the protocols that are not reached over https take (AID's protocol registry). */
const AID_URI_SCHEMES: Record<string, { schemes: readonly string[]; say: string }> = {
  local: { schemes: ["docker:", "npx:", "pip:"], say: "a docker:, npx: or pip: locator" },
  zeroconf: { schemes: ["zeroconf:"], say: "a zeroconf: locator" },
  websocket: { schemes: ["wss://"], say: "a wss:// URL" },
};

/** AID's registry of authentication hint tokens (`auth`). */
const AID_AUTH_TOKENS = new Set(["none", "pat", "apikey", "basic", "oauth2_device", "oauth2_code", "mtls", "custom"]);

const AID_DESC_MAX_BYTES = 60;

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
    const value = part.slice(equals + 1).trim();
    if (!written || !value) return { problem: `"${part.trim()}" has an empty key or value`, isAid: true };
    fields[key] = value;
  }
  const version = fields.version;
  if (!version || !/^aid\d+$/i.test(version)) return { problem: "it has no v=aid1 version", isAid: false };
  for (const required of ["uri", "proto"] as const) {
    if (!fields[required]) return { problem: `it lacks the required key ${required}`, isAid: true };
  }
  const { version: _v, uri, proto, ...rest } = fields;
  const token = proto!.toLowerCase();
  const problem = aidValueProblem(token, uri!, rest);
  if (problem) return { problem, isAid: true };
  return { version: version.toLowerCase(), uri: uri!, proto: token, fields: rest };
}

function isHttpsUrl(text: string): boolean {
  if (!/^https:\/\//i.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** What breaks the reference parser's rules for the values of a record, or null. */
function aidValueProblem(proto: string, uri: string, rest: Record<string, string>): string | null {
  const other = AID_URI_SCHEMES[proto];
  if (other) {
    if (!other.schemes.some((scheme) => uri.toLowerCase().startsWith(scheme)))
      return `its uri (${uri}) is not ${other.say}, which the ${proto} protocol takes`;
  } else if (!isHttpsUrl(uri)) return `its uri (${uri}) is not an https:// URL, which a remote agent's must be`;
  if (rest.auth !== undefined && !AID_AUTH_TOKENS.has(rest.auth))
    return `its auth hint "${rest.auth}" is not a token of AID's registry (${[...AID_AUTH_TOKENS].join(", ")})`;
  if (rest.desc !== undefined && new TextEncoder().encode(rest.desc).length > AID_DESC_MAX_BYTES)
    return `its desc is longer than ${AID_DESC_MAX_BYTES} bytes`;
  if (rest.docs !== undefined && !isHttpsUrl(rest.docs)) return `its docs (${rest.docs}) is not an https:// URL`;
  if (rest.dep !== undefined && (!/Z$/.test(rest.dep) || Number.isNaN(Date.parse(rest.dep))))
    return `its dep (${rest.dep}) is not an ISO 8601 UTC time such as 2027-01-01T00:00:00Z`;
  if (rest.pka !== undefined && rest.kid === undefined) return "it gives a pka key without the kid that names it";
  return null;
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
