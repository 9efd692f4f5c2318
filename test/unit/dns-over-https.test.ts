import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDohResolver } from "../../src/adapters/dns-over-https.ts";
import { type FakeDoh, startFakeDoh } from "../support/fake-doh.ts";

describe("createDohResolver", () => {
  let doh: FakeDoh;

  beforeAll(async () => {
    doh = await startFakeDoh({
      "dual.test": { A: ["93.184.216.34", "93.184.216.35"], AAAA: ["2606:2800:220:1:248:1893:25c8:1946"] },
      "www.alias.test": { cname: "edge.alias.test" },
      "edge.alias.test": { cname: "origin.alias.test" },
      "origin.alias.test": { A: ["198.51.100.7"], AAAA: ["2001:db8::7"] },
      "v4only.test": { A: ["93.184.216.34"] },
      "dangling.test": { cname: "gone.test" },
      "servfail.test": { status: 2 },
      "refused.test": { status: 5 },
      "broken.test": { httpStatus: 500 },
      "slow.test": { hang: true },
    });
  });

  afterAll(async () => {
    await doh.stop();
  });

  it("asks for A and AAAA with the DNS JSON media type and merges both answers", async () => {
    const resolve = createDohResolver({ url: doh.url });
    const before = doh.queries.length;
    await expect(resolve("dual.test")).resolves.toEqual([
      "93.184.216.34",
      "93.184.216.35",
      "2606:2800:220:1:248:1893:25c8:1946",
    ]);
    const queries = doh.queries.slice(before);
    expect(queries.map((query) => query.type).sort()).toEqual(["A", "AAAA"]);
    for (const query of queries) {
      expect(query.name).toBe("dual.test");
      expect(query.accept).toBe("application/dns-json");
    }
  });

  it("keeps only the addresses at the end of a CNAME chain", async () => {
    const resolve = createDohResolver({ url: doh.url });
    await expect(resolve("www.alias.test")).resolves.toEqual(["198.51.100.7", "2001:db8::7"]);
  });

  it("returns the addresses of one family when the other has none", async () => {
    await expect(createDohResolver({ url: doh.url })("v4only.test")).resolves.toEqual(["93.184.216.34"]);
  });

  it("treats NXDOMAIN, directly or at the end of a chain, as no addresses", async () => {
    const resolve = createDohResolver({ url: doh.url });
    await expect(resolve("nowhere.test")).resolves.toEqual([]);
    await expect(resolve("dangling.test")).resolves.toEqual([]);
  });

  it("throws on SERVFAIL and other error statuses", async () => {
    const resolve = createDohResolver({ url: doh.url });
    await expect(resolve("servfail.test")).rejects.toThrow(/SERVFAIL/);
    await expect(resolve("refused.test")).rejects.toThrow(/REFUSED/);
  });

  it("throws when the resolver answers with an HTTP error", async () => {
    await expect(createDohResolver({ url: doh.url })("broken.test")).rejects.toThrow(/HTTP 500/);
  });

  it("throws when the resolver does not answer in time", async () => {
    const started = Date.now();
    await expect(createDohResolver({ url: doh.url, timeoutMs: 200 })("slow.test")).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("throws on a payload that is not a DNS JSON answer", async () => {
    const fetchImpl: typeof fetch = async () => Response.json({ hello: "world" });
    await expect(createDohResolver({ url: doh.url, fetchImpl })("dual.test")).rejects.toThrow(/malformed/);
  });

  it("answers IP literals itself, canonicalised, without a query", async () => {
    const resolve = createDohResolver({ url: doh.url });
    const before = doh.queries.length;
    await expect(resolve("0x7f.1")).resolves.toEqual(["127.0.0.1"]);
    await expect(resolve("[::ffff:7f00:1]")).resolves.toEqual(["::ffff:127.0.0.1"]);
    expect(doh.queries.length).toBe(before);
  });
});
