/**
 * The secrets the service issues (sign-in tokens, session tokens, DNS challenges, provider keys,
 * monitor confirmation and unsubscribe tokens):
 * 256 random bits in unpadded base64url behind a prefix that names the kind, so a leaked value is
 * recognisable (secret scanners match on the prefix). Only their SHA-256 is ever stored.
 */

export const SECRET_PREFIXES = {
  signIn: "svcsi_",
  session: "svcss_",
  challenge: "svc-domain-verification=",
  providerKey: "svcpk_",
  priorityKey: "svcpri_",
  monitorConfirm: "svcmc_",
  monitorUnsubscribe: "svcmu_",
} as const;

/** Unpadded base64url of `bytes`. */
export function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A new secret of this kind: its prefix and 32 random bytes. */
export function newSecret(kind: keyof typeof SECRET_PREFIXES): string {
  return `${SECRET_PREFIXES[kind]}${base64Url(crypto.getRandomValues(new Uint8Array(32)))}`;
}
