/**
 * The MCP Registry's HTTP namespace proof (the registry's "HTTP authentication"): a plain-text
 * file at `/.well-known/mcp-registry-auth`, one record a line in the same form as the DNS proof,
 * `v=MCPv1; k=<algorithm>; p=<standard base64 public key>`. The registry reads every line that
 * matches that form and decodes `p`: an Ed25519 key is the raw 32-byte key, an `ecdsap384` key
 * the 49-byte compressed point (leading 0x02 or 0x03). A line that does not match is ignored by
 * the registry; here it is listed so the check can say why nothing matched.
 *
 * No maintained parser exists on npm for this format (the registry and its publisher are Go);
 * the rules are the registry's own, read from its source.
 */

/** One proof record of the file. */
export interface McpRegistryKey {
  /** The algorithm as written (`ed25519`, `ecdsap384`…). */
  algorithm: string;
  /** The public key's base64 text. */
  key: string;
  /** Why the key does not parse for its algorithm, or null when it does. */
  problem: string | null;
}

export interface McpRegistryAuth {
  keys: McpRegistryKey[];
  /** The non-empty lines that are not a `v=MCPv1` record. */
  otherLines: string[];
}

const RECORD = /v=MCPv1;\s*k=([^;]+);\s*p=([A-Za-z0-9+/=]+)/;

/** The decoded bytes of standard (padded or unpadded) base64, or null when it is not base64. */
function decodeBase64(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.replace(/=+$/, "").length % 4 === 1) return null;
  try {
    const binary = atob(text.padEnd(Math.ceil(text.length / 4) * 4, "="));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

function keyProblem(algorithm: string, key: string): string | null {
  const bytes = decodeBase64(key);
  if (!bytes) return "the key is not base64";
  if (algorithm === "ed25519")
    return bytes.length === 32 ? null : `an Ed25519 public key is 32 bytes, this one ${bytes.length}`;
  if (algorithm === "ecdsap384") {
    if (bytes.length !== 49) return `a compressed P-384 public key is 49 bytes, this one ${bytes.length}`;
    return bytes[0] === 2 || bytes[0] === 3 ? null : "a compressed P-384 public key starts with 0x02 or 0x03";
  }
  return `the registry knows no key algorithm "${algorithm}"`;
}

/** Reads the text of `/.well-known/mcp-registry-auth`. */
export function readMcpRegistryAuth(text: string): McpRegistryAuth {
  const keys: McpRegistryKey[] = [];
  const otherLines: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const match = RECORD.exec(line);
    if (!match) {
      otherLines.push(line);
      continue;
    }
    const algorithm = match[1]!.trim();
    keys.push({ algorithm, key: match[2]!, problem: keyProblem(algorithm, match[2]!) });
  }
  return { keys, otherLines };
}
