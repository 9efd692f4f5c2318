/**
 * Which URLs and network addresses a crawl may reach: every numeric spelling of an IP address,
 * the non-public address classes, and the static checks made on a URL before any fetch.
 * Runtime-agnostic (workerd and Node): no I/O, no Node modules.
 */

/** An IP address: IPv4 as one unsigned 32-bit number, IPv6 as eight 16-bit pieces. */
export type IpAddress = { family: 4; value: number } | { family: 6; pieces: readonly number[] };

/** Every class of address a crawl must not reach. */
export type NonPublicClass =
  | "loopback"
  | "private"
  | "link-local"
  | "metadata"
  | "cgnat"
  | "ula"
  | "unspecified"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "documentation"
  | "benchmark"
  | "tunnel"
  | "invalid";

/** "public", or the reason an address is out of bounds. */
export type AddressClass = "public" | NonPublicClass;

/**
 * The outcome of the static checks on a target URL. A refusal is `malformed` when the URL could
 * never name a reachable site (no host, an empty or overlong label), as opposed to a well-formed
 * URL the rules do not allow.
 */
export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string; malformed: boolean };

const CLASS_PHRASES: Record<NonPublicClass, string> = {
  loopback: "a loopback address",
  private: "private",
  "link-local": "link-local",
  metadata: "a cloud metadata address",
  cgnat: "in the carrier-grade NAT range",
  ula: "a unique local (private) IPv6 address",
  unspecified: "unspecified",
  multicast: "multicast",
  broadcast: "the broadcast address",
  reserved: "reserved",
  documentation: "reserved for documentation",
  benchmark: "reserved for benchmarking",
  tunnel: "a 6to4 or Teredo tunnel address",
  invalid: "not a valid IP address",
};

type Ipv4Rule = { base: number; prefix: number; kind: NonPublicClass };
type Ipv6Rule = { pieces: readonly number[]; prefix: number; kind: NonPublicClass };

// First match wins, so single addresses and narrow ranges come before the ranges holding them.
const IPV4_RULES: readonly Ipv4Rule[] = [
  ["169.254.169.254/32", "metadata"],
  ["100.100.100.200/32", "metadata"],
  ["255.255.255.255/32", "broadcast"],
  ["0.0.0.0/8", "unspecified"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "cgnat"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "reserved"],
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "reserved"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmark"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
].map(([cidr, kind]) => toIpv4Rule(cidr as string, kind as NonPublicClass));

const IPV6_RULES: readonly Ipv6Rule[] = [
  ["fd00:ec2::254/128", "metadata"],
  ["2001::/32", "tunnel"],
  ["2001:2::/48", "benchmark"],
  ["2001:db8::/32", "documentation"],
  ["2001::/23", "reserved"],
  ["2002::/16", "tunnel"],
  ["3fff::/20", "documentation"],
  ["fc00::/7", "ula"],
  ["fe80::/10", "link-local"],
  ["fec0::/10", "private"],
  ["ff00::/8", "multicast"],
].map(([cidr, kind]) => toIpv6Rule(cidr as string, kind as NonPublicClass));

const PRIVATE_NETWORK = "belongs to a private network";

/**
 * Names that are not public sites, by their last labels, with why. The special-use names of the
 * IANA registry that never reach a public site (RFC 6761 localhost and invalid, RFC 6762 local,
 * RFC 8375 home.arpa, RFC 7686 onion, RFC 9476 alt), the rest of arpa (reverse DNS and protocol
 * names, never a site), ICANN's private-use internal (2024), and the suffixes private networks
 * use in practice (Kubernetes' svc, routers' lan and home, Windows' corp, ...). Public DNS can
 * vouch for none of them, and a resolver that fails must not let one pass. RFC 6761's example and
 * test are not here: applications are asked not to treat them specially, the demo and the tests
 * use them, and in production public DNS has no answer for them (example.com's own is public).
 */
const NON_PUBLIC_NAMES: readonly { suffix: string; reason: string }[] = [
  { suffix: "localhost", reason: "is reserved for the local machine (RFC 6761)" },
  { suffix: "invalid", reason: "is reserved as a name that never exists (RFC 6761)" },
  { suffix: "local", reason: "belongs to multicast DNS on a local network (RFC 6762)" },
  { suffix: "home.arpa", reason: "belongs to a home network (RFC 8375)" },
  { suffix: "arpa", reason: "belongs to the infrastructure domain arpa (reverse DNS), not a site" },
  { suffix: "onion", reason: "is a Tor onion service, not reachable over DNS (RFC 7686)" },
  { suffix: "alt", reason: "is reserved for name systems other than DNS (RFC 9476)" },
  { suffix: "internal", reason: PRIVATE_NETWORK },
  { suffix: "localdomain", reason: PRIVATE_NETWORK },
  { suffix: "lan", reason: PRIVATE_NETWORK },
  { suffix: "intranet", reason: PRIVATE_NETWORK },
  { suffix: "private", reason: PRIVATE_NETWORK },
  { suffix: "corp", reason: PRIVATE_NETWORK },
  { suffix: "home", reason: PRIVATE_NETWORK },
  { suffix: "svc", reason: `${PRIVATE_NETWORK} (a cluster's service names)` },
];

/**
 * Parses an IP address in any spelling WHATWG URL hosts and libc's inet_aton accept: IPv4 as one
 * to four parts in decimal, octal (leading 0) or hex (0x), with an optional trailing dot; IPv6
 * with or without brackets, compressed, with an embedded dotted IPv4 tail. Null when the text is
 * not an address, and for IPv6 zone ids, which never name a public host.
 */
export function parseIpLiteral(host: string): IpAddress | null {
  if (host.startsWith("[") || host.endsWith("]")) {
    if (!(host.startsWith("[") && host.endsWith("]"))) return null;
    const pieces = parseIpv6(host.slice(1, -1));
    return pieces ? { family: 6, pieces } : null;
  }
  if (host.includes(":")) {
    const pieces = parseIpv6(host);
    return pieces ? { family: 6, pieces } : null;
  }
  const value = parseIpv4(host);
  return value === null ? null : { family: 4, value };
}

/** The canonical text of an address: dotted decimal, or compressed lower-case IPv6 (RFC 5952). */
export function formatAddress(ip: IpAddress): string {
  if (ip.family === 4) return formatIpv4(ip.value);
  const pieces = ip.pieces;
  if (pieces.slice(0, 5).every((piece) => piece === 0) && pieces[5] === 0xffff) {
    return `::ffff:${formatIpv4(embeddedIpv4(pieces))}`;
  }
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && pieces[start + length] === 0) length++;
    if (length > bestLength) {
      bestStart = start;
      bestLength = length;
    }
  }
  const hex = pieces.map((piece) => piece.toString(16));
  if (bestStart === -1) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

/**
 * The class of an address. IPv4-mapped, IPv4-compatible, SIIT and NAT64 (64:ff9b::/96) IPv6
 * addresses are classified by the IPv4 address they carry; 6to4 and Teredo are refused whole,
 * as is all IPv6 outside 2000::/3. Text that is not an address is "invalid".
 */
export function classifyAddress(ip: IpAddress | string): AddressClass {
  const address = typeof ip === "string" ? parseIpLiteral(ip) : ip;
  if (!address) return "invalid";
  if (address.family === 4) return classifyIpv4(address.value);
  const pieces = address.pieces;
  const zeroUpTo = (end: number) => pieces.slice(0, end).every((piece) => piece === 0);
  if (zeroUpTo(8)) return "unspecified";
  if (zeroUpTo(7) && pieces[7] === 1) return "loopback";
  const carriesIpv4 =
    (zeroUpTo(5) && pieces[5] === 0xffff) ||
    zeroUpTo(6) ||
    (zeroUpTo(4) && pieces[4] === 0xffff && pieces[5] === 0) ||
    (pieces[0] === 0x64 && pieces[1] === 0xff9b && pieces.slice(2, 6).every((piece) => piece === 0));
  if (carriesIpv4) return classifyIpv4(embeddedIpv4(pieces));
  const rule = IPV6_RULES.find((candidate) => matchesIpv6(pieces, candidate));
  if (rule) return rule.kind;
  // Only 2000::/3 is allocated for global unicast; everything else is special or unassigned.
  return ((pieces[0] ?? 0) & 0xe000) === 0x2000 ? "public" : "reserved";
}

/** How a refusal names an address class, e.g. "private" in "the address 10.0.0.8 is private". */
export function describeAddressClass(kind: NonPublicClass): string {
  return CLASS_PHRASES[kind];
}

/**
 * The checks on a target URL that need no network: an absolute http(s) URL, no credentials,
 * ports 80 and 443 only, and no host that is a non-public IP literal or a private-network name.
 * With allowPrivate (local development and tests), only the scheme and credential rules apply.
 */
export function checkTargetUrl(input: string, options: { allowPrivate: boolean }): TargetCheck {
  const malformed = (reason: string): TargetCheck => ({ ok: false, reason, malformed: true });
  const refused = (reason: string): TargetCheck => ({ ok: false, reason, malformed: false });
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return malformed("the URL is not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return refused(`the scheme ${url.protocol} is not allowed, only http: and https:`);
  }
  if (url.username !== "" || url.password !== "") return refused("URLs with credentials are not allowed");
  const literal = parseIpLiteral(url.hostname);
  // A broken name is broken in development too: no resolver or server could ever answer for it.
  const nameProblem = literal ? null : describeHostNameProblem(url.hostname);
  if (nameProblem) return malformed(nameProblem);
  if (options.allowPrivate) return { ok: true, url };
  if (url.port !== "" && url.port !== "80" && url.port !== "443") {
    return refused(`the port ${url.port} is not allowed, only 80 and 443`);
  }
  if (literal) {
    const kind = classifyAddress(literal);
    if (kind === "public") return { ok: true, url };
    return refused(`the address ${formatAddress(literal)} is ${describeAddressClass(kind)}`);
  }
  const refusal = describeNonPublicName(url.hostname);
  return refusal ? refused(refusal) : { ok: true, url };
}

/**
 * What makes a host name impossible in DNS (RFC 1035 §2.3.4): no name at all, an empty label
 * (".example.com", "shop..example.com"), a label over 63 characters or a name over 253. Null
 * when the name is well formed. URL parsing accepts all of these, and a resolver would only
 * answer with an error that hides the cause.
 */
export function describeHostNameProblem(hostname: string): string | null {
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  if (name === "") return "the URL has no host";
  if (name.split(".").some((label) => label === "")) {
    return `the host name ${hostname} has an empty label (a leading dot or two dots in a row)`;
  }
  if (name.split(".").some((label) => label.length > 63)) {
    return `the host name ${hostname} has a label longer than 63 characters`;
  }
  if (name.length > 253) return `the host name ${hostname} is longer than 253 characters`;
  return null;
}

/**
 * Why a host name (not an IP literal) names no public site, or null: a special-use or private
 * suffix (NON_PUBLIC_NAMES) or a single label. The one rule of every entry point that takes a
 * URL or a domain (checks, submissions, MCP probes, crawls, monitors, claims, checkout hosts).
 */
export function describeNonPublicName(hostname: string): string | null {
  const name = (hostname.endsWith(".") ? hostname.slice(0, -1) : hostname).toLowerCase();
  const match = NON_PUBLIC_NAMES.find(({ suffix }) => name === suffix || name.endsWith(`.${suffix}`));
  if (match) return `the host name ${name} ${match.reason}`;
  if (!name.includes(".")) return `the single-label host name ${name} is not allowed`;
  // URL parsing has already refused names whose last label is numeric but not a valid address.
  return null;
}

function classifyIpv4(value: number): AddressClass {
  const rule = IPV4_RULES.find((candidate) => ipv4Mask(candidate.prefix, value) === candidate.base);
  return rule ? rule.kind : "public";
}

function ipv4Mask(prefix: number, value: number): number {
  if (prefix === 0) return 0;
  return (value & (0xffffffff << (32 - prefix))) >>> 0;
}

function matchesIpv6(pieces: readonly number[], rule: Ipv6Rule): boolean {
  for (let index = 0; index * 16 < rule.prefix; index++) {
    const bits = Math.min(16, rule.prefix - index * 16);
    const mask = (0xffff << (16 - bits)) & 0xffff;
    if (((pieces[index] ?? 0) & mask) !== ((rule.pieces[index] ?? 0) & mask)) return false;
  }
  return true;
}

function embeddedIpv4(pieces: readonly number[]): number {
  return ((pieces[6] ?? 0) * 0x10000 + (pieces[7] ?? 0)) >>> 0;
}

function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join(".");
}

function parseIpv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  if (parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const number = parseIpv4Number(part);
    if (number === null) return null;
    numbers.push(number);
  }
  const last = numbers.pop();
  if (last === undefined || numbers.some((number) => number > 255)) return null;
  // The last part fills every byte the earlier parts left: "127.1" is 127.0.0.1.
  if (last >= 256 ** (4 - numbers.length)) return null;
  return numbers.reduce((total, number, index) => total + number * 256 ** (3 - index), last);
}

function parseIpv4Number(part: string): number | null {
  if (part === "") return null;
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    radix = 16;
  } else if (part.length > 1 && part.startsWith("0")) {
    digits = part.slice(1);
    radix = 8;
  }
  // WHATWG reads a bare "0x" as zero.
  if (digits === "") return 0;
  const pattern = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits)) return null;
  // Long digit strings lose precision here, but they are far out of range either way.
  return Number.parseInt(digits, radix);
}

function parseIpv6(text: string): number[] | null {
  if (text.includes("%")) return null;
  let body = text;
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const value = parseStrictDottedQuad(tail);
    if (value === null) return null;
    body = `${text.slice(0, lastColon + 1)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const gap = body.indexOf("::");
  if (gap !== body.lastIndexOf("::")) return null;
  const split = (part: string) => (part === "" ? [] : part.split(":"));
  let groups: string[];
  if (gap === -1) {
    groups = body.split(":");
    if (groups.length !== 8) return null;
  } else {
    const head = split(body.slice(0, gap));
    const rest = split(body.slice(gap + 2));
    if (head.length + rest.length > 7) return null;
    groups = [...head, ...Array<string>(8 - head.length - rest.length).fill("0"), ...rest];
  }
  const pieces: number[] = [];
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    pieces.push(Number.parseInt(group, 16));
  }
  return pieces;
}

function parseStrictDottedQuad(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return null;
    const number = Number(part);
    if (number > 255) return null;
    value = value * 256 + number;
  }
  return value;
}

function toIpv4Rule(cidr: string, kind: NonPublicClass): Ipv4Rule {
  const [address = "", prefix = ""] = cidr.split("/");
  const value = parseIpv4(address);
  if (value === null) throw new Error(`bad IPv4 rule ${cidr}`);
  return { base: ipv4Mask(Number(prefix), value), prefix: Number(prefix), kind };
}

function toIpv6Rule(cidr: string, kind: NonPublicClass): Ipv6Rule {
  const [address = "", prefix = ""] = cidr.split("/");
  const pieces = parseIpv6(address);
  if (!pieces) throw new Error(`bad IPv6 rule ${cidr}`);
  return { pieces, prefix: Number(prefix), kind };
}
