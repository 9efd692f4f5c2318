/** Search ids: 128 random bits in unpadded base64url (22 characters). */

export const SEARCH_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export function newSearchId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
