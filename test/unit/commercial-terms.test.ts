/**
 * The commercial-terms hash against fixed vectors: the canonical text and its SHA-256 are written
 * out here, so a change of field list, key order, number formatting or library shows up.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  COMMERCIAL_TERMS_FIELDS,
  type CommercialTermsInput,
  canonicalJson,
  commercialTermsObject,
  commercialTermsSha256,
} from "../../src/domain/offers/commercial-terms.ts";

const TERMS: CommercialTermsInput = {
  offerId: "0b6f1f5e-4a43-4c53-9a57-0d2b8f7a9e11",
  providerClaimId: "5f0c2d7a-1111-4e8e-9b5c-3a2d1e0f9c88",
  providerDomain: "acme.example",
  actionType: "demo",
  actionUrl: "https://www.acme.example/demo",
  chargeEvent: "converted",
  bountyCents: 2500,
  currency: "usd",
  principalPriceMode: "free",
  principalPriceCents: null,
  principalCurrency: "usd",
  billingMode: "terms",
  termsCreditLimitCents: 100000,
  termsPeriodDays: 30,
};

const CANONICAL =
  '{"action_type":"demo","action_url":"https://www.acme.example/demo","billing_mode":"terms","bounty_cents":2500,' +
  '"charge_event":"converted","contract_version":"svc-provider-commercial-terms-v1","currency":"usd",' +
  '"offer_id":"0b6f1f5e-4a43-4c53-9a57-0d2b8f7a9e11","principal_currency":"usd","principal_price_cents":null,' +
  '"principal_price_mode":"free","provider_claim_id":"5f0c2d7a-1111-4e8e-9b5c-3a2d1e0f9c88",' +
  '"provider_domain":"acme.example","terms_credit_limit_cents":100000,"terms_period_days":30}';

describe("commercial terms hash", () => {
  it("hashes the canonical JSON of exactly the published fields", async () => {
    expect(Object.keys(commercialTermsObject(TERMS)).sort()).toEqual([...COMMERCIAL_TERMS_FIELDS].sort());
    expect(canonicalJson(commercialTermsObject(TERMS))).toBe(CANONICAL);
    expect(await commercialTermsSha256(TERMS)).toBe("7015770d76ab3a2d76e896da21132864491cc3d2e8d0fc19e591458796a01905");
    expect(createHash("sha256").update(CANONICAL).digest("hex")).toBe(await commercialTermsSha256(TERMS));
  });

  it("does not depend on the order the fields were written in", async () => {
    const reversed = Object.fromEntries(Object.entries(commercialTermsObject(TERMS)).reverse());
    expect(canonicalJson(reversed)).toBe(CANONICAL);
  });

  it("changes with any commercial term, absent optional terms included", async () => {
    const base = await commercialTermsSha256(TERMS);
    const variants: Partial<CommercialTermsInput>[] = [
      { bountyCents: 2501 },
      { chargeEvent: "accepted" },
      { actionUrl: "https://www.acme.example/demo/" },
      { termsPeriodDays: null },
      { termsCreditLimitCents: null },
      { principalPriceCents: 0 },
      { providerDomain: "www.acme.example" },
    ];
    const hashes = await Promise.all(variants.map((variant) => commercialTermsSha256({ ...TERMS, ...variant })));
    expect(new Set([base, ...hashes]).size).toBe(variants.length + 1);
  });

  it("formats numbers and strings as RFC 8785 says (the RFC's own number examples)", () => {
    // RFC 8785 section 3.2.2.3 and its appendix: shortest round-trip form, exponent from 1e21.
    expect(
      canonicalJson([JSON.parse("333333333.33333329") as number, 1e30, 4.5, 2e-3, 0.000000000000000000000000001]),
    ).toBe("[333333333.3333333,1e+30,4.5,0.002,1e-27]");
    expect(canonicalJson({ b: 1e21, a: 100000000, c: -0, d: 1e20 })).toBe(
      '{"a":100000000,"b":1e+21,"c":0,"d":100000000000000000000}',
    );
    // Keys sort by UTF-16 code units; only the required characters are escaped.
    expect(canonicalJson({ "\u20ac": 1, "\r": 2, a: "\u00e9\u001f/" })).toBe('{"\\r":2,"a":"é\\u001f/","€":1}');
  });

  it("refuses what JSON cannot carry", () => {
    expect(() => canonicalJson({ bad: Number.NaN })).toThrow();
    expect(() => canonicalJson(undefined)).toThrow();
  });
});
