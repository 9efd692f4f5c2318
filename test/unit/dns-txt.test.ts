import { describe, expect, it } from "vitest";
import { createAgreeingTxtLookup, createDohTxtLookup, readTxtData } from "../../src/adapters/dns-txt.ts";

const resolver = (answer: unknown) =>
  createDohTxtLookup({
    url: "https://doh.test/dns-query",
    fetchImpl: (async () =>
      new Response(JSON.stringify(answer), { headers: { "content-type": "application/dns-json" } })) as typeof fetch,
  });

describe("TXT data", () => {
  it("reads Cloudflare's quoted strings (joined) and Google's unquoted text", () => {
    expect(readTxtData('"svc-domain-verification=abc"')).toBe("svc-domain-verification=abc");
    expect(readTxtData('"first part" "second"')).toBe("first partsecond");
    expect(readTxtData('"with \\"quote\\" and \\092 backslash"')).toBe('with "quote" and \\ backslash');
    expect(readTxtData("v=spf1 -all")).toBe("v=spf1 -all");
  });

  it("refuses a quoted string that never closes", () => {
    expect(() => readTxtData('"open')).toThrow(/malformed/);
  });
});

describe("TXT lookups", () => {
  it("gives every TXT value, skipping other records, and [] for a name that does not exist", async () => {
    const lookup = resolver({
      Status: 0,
      Answer: [
        { name: "x.example", type: 5, TTL: 60, data: "y.example." },
        { name: "y.example", type: "16", TTL: 60, data: '"b"' },
        { name: "y.example", type: "TXT", TTL: 60, data: '"a"' },
      ],
    });
    expect(await lookup("x.example")).toEqual(["a", "b"]);
    expect(await resolver({ Status: 3 })("gone.example")).toEqual([]);
  });

  it("fails on SERVFAIL, truncation and malformed answers rather than reading them as absent", async () => {
    await expect(resolver({ Status: 2 })("x.example")).rejects.toThrow(/SERVFAIL/);
    await expect(resolver({ Status: 0, TC: true, Answer: [] })("x.example")).rejects.toThrow(/truncated/);
    await expect(resolver({ Status: 0, Answer: [{ type: 16, data: 7 }] })("x.example")).rejects.toThrow(/malformed/);
  });

  it("needs every resolver to agree", async () => {
    const one = async () => ["token"];
    const other = async () => ["other"];
    expect(await createAgreeingTxtLookup([one, one])("x.example")).toEqual(["token"]);
    await expect(createAgreeingTxtLookup([one, other])("x.example")).rejects.toThrow(/disagree/);
    await expect(createAgreeingTxtLookup([one, async () => []])("x.example")).rejects.toThrow(/disagree/);
  });
});
