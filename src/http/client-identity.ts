/**
 * Who a free-tier limit counts against. Cloudflare puts the caller's address in
 * CF-Connecting-IP; an IPv6 caller is counted by its /64, the block one host usually controls,
 * so rotating addresses inside it does not reset a limit.
 */
export function clientIdentity(headers: Headers): string {
  const address = headers.get("cf-connecting-ip")?.trim();
  if (!address) return "unknown";
  if (!address.includes(":")) return `ip4:${address}`;
  return `ip6:${ipv6Prefix64(address)}`;
}

/** The first four 16-bit groups of an IPv6 address, expanded and lower-cased. */
export function ipv6Prefix64(address: string): string {
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = address.includes("::") && tail ? tail.split(":") : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array(Math.max(missing, 0)).fill("0"), ...tailGroups];
  return groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":");
}
