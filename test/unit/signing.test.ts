/**
 * The exchange's signatures checked against an independent implementation (node:crypto and a
 * hand-written canonical form), with fixed vectors anyone can recompute.
 */
import { createHmac } from "node:crypto";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { ATTRIBUTION_TOKEN_TYPE, createSigning } from "../../src/adapters/signing.ts";

const ATTRIBUTION_SECRET = "attribution-test-secret-0123456789abcdef";
const RECEIPT_SECRET = "receipt-test-secret-0123456789abcdefghij";
const OLD_RECEIPT_SECRET = "old-receipt-test-secret-0123456789abcdef";

const signing = createSigning({
  attributionKeys: {
    current: { kid: "att-1", secret: ATTRIBUTION_SECRET },
    keys: [{ kid: "att-1", secret: ATTRIBUTION_SECRET }],
  },
  receiptKeys: {
    current: { kid: "rcpt-2", secret: RECEIPT_SECRET },
    keys: [
      { kid: "rcpt-2", secret: RECEIPT_SECRET },
      { kid: "rcpt-1", secret: OLD_RECEIPT_SECRET },
    ],
  },
  attributionTtlSeconds: 3600,
  receiptValiditySeconds: 86400,
});

const b64url = (bytes: Buffer) => bytes.toString("base64url");
const hmac = (secret: string, text: string) => b64url(createHmac("sha256", secret).update(text, "utf8").digest());

/** RFC 8785 for what receipts hold (objects, arrays, strings, safe integers, booleans, null). */
function independentCanonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(independentCanonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${independentCanonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const claims = {
  ticketId: "0b7f9c52-5d0e-4d8e-9f5a-2f1b6a3c4d5e",
  offerId: "6a1c2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  offerVersion: 3,
  termsSha256: "a".repeat(64),
  issuedAt: 1_790_000_000,
  expiresAt: 1_790_003_600,
};

describe("RFC 8785 canonical JSON (the canonicalize package)", () => {
  it("matches the RFC's own example: sorted keys, ECMAScript numbers, minimal string escapes", () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    );
    expect(canonicalize(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it("sorts keys by UTF-16 code units, not by locale", () => {
    expect(canonicalize({ b: 1, a: { d: [], c: "é" }, A: true, "\u00e9": 0, z: null })).toBe(
      '{"A":true,"a":{"c":"é","d":[]},"b":1,"z":null,"é":0}',
    );
  });
});

describe("outcome receipts: HMAC-SHA256 over the canonical JSON, unpadded base64url", () => {
  const receipt = {
    receipt_id: "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d",
    key_id: "rcpt-2",
    outcome: "converted",
    charge_status: "charged",
    billed_cents: 2500,
    issued_at: "2026-11-23T04:00:00.000Z",
    valid_from: "2026-11-23T04:00:00.000Z",
    valid_until: "2026-11-24T04:00:00.000Z",
  };

  it("signs the canonical text with the current key, as node:crypto computes it", async () => {
    const signed = await signing.signReceipt(receipt);
    expect(signed.signedReceipt).toBe(independentCanonical(receipt));
    expect(signed.keyId).toBe("rcpt-2");
    expect(signed.signature).toBe(hmac(RECEIPT_SECRET, signed.signedReceipt));
    expect(signed.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A fixed vector (docs/exchange-tickets.md), so that another implementation can be checked.
    const vectorKey = { kid: "v1", secret: "k".repeat(32) };
    const vector = await createSigning({
      attributionKeys: { current: vectorKey, keys: [vectorKey] },
      receiptKeys: { current: vectorKey, keys: [vectorKey] },
      attributionTtlSeconds: 3600,
      receiptValiditySeconds: 3600,
    }).signReceipt({ key_id: "v1", a: 1 });
    expect(vector).toEqual({
      signedReceipt: '{"a":1,"key_id":"v1"}',
      signature: "n6-VA5QUvymrYV4lzVAHHgXoExE23TJGjzj4-2jlA8A",
      keyId: "v1",
    });
    expect(await signing.verifyReceipt('{"a":1}', hmac(RECEIPT_SECRET, '{"a":1}'), "rcpt-2")).toBe(true);
  });

  it("verifies with earlier keys of the ring and refuses anything else", async () => {
    const text = independentCanonical({ ...receipt, key_id: "rcpt-1" });
    const oldSignature = hmac(OLD_RECEIPT_SECRET, text);
    expect(await signing.verifyReceipt(text, oldSignature, "rcpt-1")).toBe(true);
    expect(await signing.verifyReceipt(text, oldSignature, "rcpt-2")).toBe(false);
    expect(await signing.verifyReceipt(text, oldSignature, "unknown")).toBe(false);
    expect(await signing.verifyReceipt(`${text} `, oldSignature, "rcpt-1")).toBe(false);
    expect(await signing.verifyReceipt(text, `${oldSignature}=`, "rcpt-1")).toBe(false);
    expect(await signing.verifyReceipt(text, Buffer.from(oldSignature, "base64url").toString("base64"), "rcpt-1")).toBe(
      false,
    );
    // The same bytes spelled with stray low bits in the last character are not a second valid form.
    const last = oldSignature.at(-1) as string;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const twin = oldSignature.slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 1];
    expect(Buffer.from(twin, "base64url").equals(Buffer.from(oldSignature, "base64url"))).toBe(true);
    expect(await signing.verifyReceipt(text, twin, "rcpt-1")).toBe(false);
  });

  it("refuses to sign a receipt that names another key", async () => {
    await expect(signing.signReceipt({ ...receipt, key_id: "rcpt-1" })).rejects.toThrow(/name the key/);
  });
});

describe("attribution bearers: compact JWS, HS256, with a key id, bound and expiring", () => {
  it("is a JWS whose signature node:crypto recomputes, with the bound claims", async () => {
    const token = await signing.signBearer(claims);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    expect(JSON.parse(Buffer.from(header, "base64url").toString())).toEqual({
      alg: "HS256",
      kid: "att-1",
      typ: ATTRIBUTION_TOKEN_TYPE,
    });
    expect(JSON.parse(Buffer.from(payload, "base64url").toString())).toEqual({
      tid: claims.ticketId,
      oid: claims.offerId,
      ver: 3,
      ths: claims.termsSha256,
      aud: "svc-provider-action",
      iat: claims.issuedAt,
      exp: claims.expiresAt,
    });
    expect(signature).toBe(hmac(ATTRIBUTION_SECRET, `${header}.${payload}`));
    // Deterministic: the same snapshot rebuilds the same bearer.
    expect(await signing.signBearer(claims)).toBe(token);
  });

  it("tells valid, expired and forged bearers apart", async () => {
    const token = await signing.signBearer(claims);
    expect(await signing.verifyBearer(token, new Date((claims.expiresAt - 1) * 1000))).toEqual({
      status: "valid",
      claims,
    });
    expect(await signing.verifyBearer(token, new Date(claims.expiresAt * 1000))).toEqual({ status: "expired", claims });

    const [header, payload] = token.split(".") as [string, string];
    const forge = (h: object, p: object, secret = ATTRIBUTION_SECRET) => {
      const head = b64url(Buffer.from(JSON.stringify(h)));
      const body = b64url(Buffer.from(JSON.stringify(p)));
      return `${head}.${body}.${hmac(secret, `${head}.${body}`)}`;
    };
    const goodHeader = { alg: "HS256", kid: "att-1", typ: ATTRIBUTION_TOKEN_TYPE };
    const goodPayload = JSON.parse(Buffer.from(payload, "base64url").toString());
    const now = new Date((claims.issuedAt + 1) * 1000);
    // The independent forge with the right key is accepted: it is the same construction.
    expect((await signing.verifyBearer(forge(goodHeader, goodPayload), now)).status).toBe("valid");
    for (const bad of [
      "",
      "not-a-token",
      `${header}.${payload}.`,
      `${header}.${payload}.${"A".repeat(43)}`,
      forge(goodHeader, goodPayload, "another-secret-of-at-least-32-characters"),
      forge({ ...goodHeader, kid: "att-9" }, goodPayload),
      forge({ ...goodHeader, typ: "JWT" }, goodPayload),
      forge({ ...goodHeader, alg: "none" }, goodPayload),
      forge(goodHeader, { ...goodPayload, aud: "other" }),
      forge(goodHeader, { ...goodPayload, ver: 0 }),
      forge(goodHeader, { ...goodPayload, tid: "not-a-uuid" }),
      forge(goodHeader, { ...goodPayload, ths: "A".repeat(64) }),
      forge(goodHeader, { ...goodPayload, exp: undefined }),
    ]) {
      expect(await signing.verifyBearer(bad, now), bad).toEqual({ status: "invalid" });
    }
  });
});
