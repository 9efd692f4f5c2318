/**
 * The signatures of the provider exchange: attribution bearers are compact JWS (HS256, via
 * `jose`) bound to one ticket, offer version and terms hash; outcome receipts are HMAC-SHA256
 * over their exact RFC 8785 canonical JSON (via `canonicalize`), unpadded base64url. Each kind
 * has its own key ring with key ids, so keys rotate without breaking what older keys signed.
 */
import canonicalize from "canonicalize";
import { base64url, compactVerify, errors, SignJWT } from "jose";
import type { KeyRing, SigningKey } from "../config.ts";

/** The JWS `typ` of an attribution bearer: an agent or provider can tell it from other tokens. */
export const ATTRIBUTION_TOKEN_TYPE = "svc-attribution+jwt";
/** The audience every bearer names: the provider action it authorizes. */
export const ATTRIBUTION_AUDIENCE = "svc-provider-action";
/** The receipt signature algorithm, named in every signed receipt. */
export const RECEIPT_SIGNATURE_ALGORITHM = "HMAC-SHA256" as const;

/** What a bearer binds: the ticket, the offer version and its commercial-terms hash, its lifetime. */
export interface AttributionClaims {
  ticketId: string;
  offerId: string;
  offerVersion: number;
  termsSha256: string;
  /** Seconds since the epoch. */
  issuedAt: number;
  /** Seconds since the epoch; the bearer is expired from this second on. */
  expiresAt: number;
}

export type BearerVerification =
  /** Signed by one of our keys, well-formed, not yet expired. */
  | { status: "valid"; claims: AttributionClaims }
  /** Signed by one of our keys and well-formed, but past its `exp`. */
  | { status: "expired"; claims: AttributionClaims }
  /** Not a compact JWS, an unknown key id, a wrong signature, type or algorithm, or bad claims. */
  | { status: "invalid" };

export interface SignedReceipt {
  /** The exact canonical JSON text that was signed. */
  signedReceipt: string;
  /** HMAC-SHA256 of that text's UTF-8 bytes, unpadded base64url. */
  signature: string;
  keyId: string;
}

/** Signs and verifies attribution bearers and outcome receipts. */
export interface Signing {
  signBearer(claims: AttributionClaims): Promise<string>;
  verifyBearer(token: string, now: Date): Promise<BearerVerification>;
  /** Canonicalizes `receipt` (which must carry its `key_id`: see `receiptKeyId`) and signs the text. */
  signReceipt(receipt: Record<string, unknown>): Promise<SignedReceipt>;
  /** True when `signature` is the HMAC of `text` under the ring's key `keyId`. */
  verifyReceipt(text: string, signature: string, keyId: string): Promise<boolean>;
  /** The key id that signs new receipts (written into the receipt before it is signed). */
  receiptKeyId: string;
  attributionTtlSeconds: number;
  receiptValiditySeconds: number;
}

export interface SigningOptions {
  attributionKeys: KeyRing;
  receiptKeys: KeyRing;
  attributionTtlSeconds: number;
  receiptValiditySeconds: number;
}

const encoder = new TextEncoder();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const RECEIPT_SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

function findKey(ring: KeyRing, kid: unknown): SigningKey | undefined {
  return typeof kid === "string" ? ring.keys.find((key) => key.kid === kid) : undefined;
}

async function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

/** The bound claims of a verified payload, or null when any is missing or malformed. */
function readClaims(payload: Record<string, unknown>): AttributionClaims | null {
  const { tid, oid, ver, ths, iat, exp, aud } = payload;
  if (aud !== ATTRIBUTION_AUDIENCE) return null;
  if (typeof tid !== "string" || !UUID.test(tid) || typeof oid !== "string" || !UUID.test(oid)) return null;
  if (typeof ver !== "number" || !Number.isSafeInteger(ver) || ver < 1) return null;
  if (typeof ths !== "string" || !SHA256_HEX.test(ths)) return null;
  if (typeof iat !== "number" || typeof exp !== "number" || !Number.isSafeInteger(iat) || !Number.isSafeInteger(exp)) {
    return null;
  }
  return { ticketId: tid, offerId: oid, offerVersion: ver, termsSha256: ths, issuedAt: iat, expiresAt: exp };
}

/** The signing capability from its key rings (see the `signing` section of src/config.ts). */
export function createSigning(options: SigningOptions): Signing {
  const { attributionKeys, receiptKeys } = options;
  return {
    receiptKeyId: receiptKeys.current.kid,
    attributionTtlSeconds: options.attributionTtlSeconds,
    receiptValiditySeconds: options.receiptValiditySeconds,

    async signBearer(claims) {
      const key = attributionKeys.current;
      // Deterministic: HS256 over the same header and claims gives the same token, so a replayed
      // ticket's bearer is rebuilt byte for byte from its stored snapshot (while the key is current).
      return new SignJWT({
        tid: claims.ticketId,
        oid: claims.offerId,
        ver: claims.offerVersion,
        ths: claims.termsSha256,
      })
        .setProtectedHeader({ alg: "HS256", kid: key.kid, typ: ATTRIBUTION_TOKEN_TYPE })
        .setAudience(ATTRIBUTION_AUDIENCE)
        .setIssuedAt(claims.issuedAt)
        .setExpirationTime(claims.expiresAt)
        .sign(encoder.encode(key.secret));
    },

    async verifyBearer(token, now) {
      if (token.length > 4096 || token.split(".").length !== 3) return { status: "invalid" };
      let payload: Record<string, unknown>;
      try {
        // The signature first (with the key its header names), then the claims by hand: an
        // expired bearer must still be told apart from a forged one (410 against 400, and credits
        // after expiry).
        const verified = await compactVerify(
          token,
          (header) => {
            const key = findKey(attributionKeys, header.kid);
            if (!key || header.typ !== ATTRIBUTION_TOKEN_TYPE) throw new errors.JWSSignatureVerificationFailed();
            return encoder.encode(key.secret);
          },
          { algorithms: ["HS256"] },
        );
        payload = JSON.parse(new TextDecoder().decode(verified.payload));
      } catch {
        return { status: "invalid" };
      }
      if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return { status: "invalid" };
      const claims = readClaims(payload);
      if (!claims) return { status: "invalid" };
      return now.getTime() / 1000 >= claims.expiresAt ? { status: "expired", claims } : { status: "valid", claims };
    },

    async signReceipt(receipt) {
      const key = receiptKeys.current;
      if (receipt.key_id !== key.kid) throw new Error("a receipt must name the key that signs it");
      const text = canonicalize(receipt);
      if (text === undefined) throw new Error("a receipt must be a JSON object");
      const mac = await crypto.subtle.sign("HMAC", await hmacKey(key.secret, "sign"), encoder.encode(text));
      return { signedReceipt: text, signature: base64url.encode(new Uint8Array(mac)), keyId: key.kid };
    },

    async verifyReceipt(text, signature, keyId) {
      const key = findKey(receiptKeys, keyId);
      if (!key || !RECEIPT_SIGNATURE.test(signature)) return false;
      let mac: Uint8Array;
      try {
        mac = base64url.decode(signature);
      } catch {
        return false;
      }
      // One spelling per signature: a last character with stray low bits decodes to the same
      // bytes, and is refused rather than accepted as a second valid form.
      if (base64url.encode(mac) !== signature) return false;
      // crypto.subtle.verify compares in constant time.
      return crypto.subtle.verify("HMAC", await hmacKey(key.secret, "verify"), mac, encoder.encode(text));
    },
  };
}
