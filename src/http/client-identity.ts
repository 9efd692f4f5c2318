/**
 * Who a free-tier limit counts against, and the keyed hash that stands for it in Redis.
 *
 * The caller's address comes from CF-Connecting-IP, which Cloudflare sets on every request it
 * hands to a Worker, replacing any value the client sent; nothing else in the request is trusted
 * for identity. Locally, `npm start` puts an edge in front of `wrangler dev` that does the same
 * from the TCP peer (scripts/local-edge.ts), and the integration tests, which call the Worker
 * directly, set the header as the platform would. An IPv6 caller is counted by its /64, the block
 * one host usually controls, so rotating addresses inside it does not reset a limit.
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

// Importing a key is the costly part of an HMAC; one deployment has one secret.
const hmacKeys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    hmacKeys.set(secret, key);
  }
  return key;
}

/**
 * The name an identity goes by in Redis: HMAC-SHA256 under `secret`, its first 128 bits in
 * unpadded base64url. Redis then holds no address, and without the secret a key cannot be tied to
 * one (an IPv4 address alone could be found by hashing all 2^32 of them, were the hash unkeyed).
 *
 * @example await hashedIdentity(config.RATE_LIMIT_KEY_SECRET, "ip4:203.0.113.9") // "q3V…" (22 characters)
 */
export async function hashedIdentity(secret: string, identity: string): Promise<string> {
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", await hmacKey(secret), new TextEncoder().encode(identity)),
  );
  const text = btoa(String.fromCharCode(...mac.subarray(0, 16)));
  return text.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
