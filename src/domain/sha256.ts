/**
 * The one SHA-256 of the service: lower-case hex of a text's UTF-8 bytes. Secrets are stored only
 * in this form; request fingerprints, content digests and ticket contexts use it too.
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
