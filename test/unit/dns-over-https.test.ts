import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCheckResolver,
  createDohLookup,
  createDohResolver,
  type DnsAnswer,
  DnsAnswerChangedError,
  type DnsLookup,
  DnsLookupError,
} from "../../src/adapters/outbound/dns-over-https.ts";
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

/** A resolver fetch answering every query with this JSON payload. */
const answering =
  (payload: unknown): typeof fetch =>
  async () =>
    Response.json(payload);

const noError = (answer: unknown[]) => ({ Status: 0, TC: false, RD: true, RA: true, Answer: answer });

describe("reading DoH JSON answers in every documented spelling", () => {
  const resolveWith = (payload: unknown) =>
    createDohResolver({ url: "https://resolver.test/dns-query", fetchImpl: answering(payload) })("spelled.test");

  it("keeps a private address whose type is a numeric string beside a public one", async () => {
    const payload = noError([
      { name: "spelled.test.", type: 1, TTL: 60, data: "93.184.216.34" },
      { name: "spelled.test.", type: "1", TTL: 60, data: "10.0.0.8" },
    ]);
    await expect(resolveWith(payload)).resolves.toEqual(["93.184.216.34", "10.0.0.8"]);
  });

  it("reads types given as numbers, numeric strings, mnemonics in any case and RFC 3597 TYPEn", async () => {
    const payload = noError([
      { name: "spelled.test.", type: "CNAME", TTL: 60, data: "edge.spelled.test." },
      { name: "edge.spelled.test.", type: "A", TTL: 60, data: "93.184.216.34" },
      { name: "edge.spelled.test.", type: "aaaa", TTL: 60, data: "2606:2800:220:1:248:1893:25c8:1946" },
      { name: "edge.spelled.test.", type: " 28 ", TTL: 60, data: "fd00::1" },
      { name: "edge.spelled.test.", type: "TYPE1", TTL: 60, data: "192.168.0.10" },
      { name: "edge.spelled.test.", type: 5, TTL: 60, data: "other.spelled.test." },
    ]);
    await expect(resolveWith(payload)).resolves.toEqual([
      "93.184.216.34",
      "2606:2800:220:1:248:1893:25c8:1946",
      "fd00::1",
      "192.168.0.10",
    ]);
  });

  it("reads data with surrounding space or a trailing dot, in canonical form", async () => {
    const payload = noError([
      { name: "spelled.test.", type: 1, TTL: 60, data: " 93.184.216.34. " },
      { name: "spelled.test.", type: 28, TTL: 60, data: "2606:2800:0220:0001::0001." },
    ]);
    await expect(resolveWith(payload)).resolves.toEqual(["93.184.216.34", "2606:2800:220:1::1"]);
  });

  it("accepts a Status given as a numeric string", async () => {
    await expect(
      resolveWith({ Status: "0", Answer: [{ name: "spelled.test.", type: 1, TTL: 5, data: "93.184.216.34" }] }),
    ).resolves.toEqual(["93.184.216.34"]);
  });

  it.each([
    ["a type it cannot read", noError([{ name: "spelled.test.", type: "BOGUS", TTL: 60, data: "10.0.0.8" }])],
    ["a record without a type", noError([{ name: "spelled.test.", TTL: 60, data: "10.0.0.8" }])],
    ["address data that is not text", noError([{ name: "spelled.test.", type: 1, TTL: 60, data: 167772168 }])],
    ["a record that is not an object", noError(["10.0.0.8"])],
    [
      "a truncated answer",
      { ...noError([{ name: "spelled.test.", type: 1, TTL: 60, data: "93.184.216.34" }]), TC: true },
    ],
    ["a body that is not JSON", "not json"],
  ])("fails the lookup, rather than skip what it cannot read, on %s", async (_what, payload) => {
    const fetchImpl: typeof fetch =
      typeof payload === "string" ? async () => new Response(payload) : answering(payload);
    await expect(
      createDohResolver({ url: "https://resolver.test/dns-query", fetchImpl })("spelled.test"),
    ).rejects.toThrow(/malformed resolver answer/);
  });

  it("gives the smallest TTL of the chain and the addresses", async () => {
    const payload = noError([
      { name: "spelled.test.", type: 5, TTL: 30, data: "edge.spelled.test." },
      { name: "edge.spelled.test.", type: 1, TTL: 120, data: "93.184.216.34" },
    ]);
    const lookup = createDohLookup({ url: "https://resolver.test/dns-query", fetchImpl: answering(payload) });
    await expect(lookup("spelled.test")).resolves.toEqual({ addresses: ["93.184.216.34"], ttlSeconds: 30 });
  });
});

describe("createCheckResolver", () => {
  /** A lookup answering from a script, one entry per call (the last repeats), counting its calls. */
  function scripted(answers: (DnsAnswer | Error)[]) {
    let calls = 0;
    const lookup: DnsLookup = async () => {
      const answer = answers[Math.min(calls, answers.length - 1)]!;
      calls++;
      if (answer instanceof Error) throw answer;
      return answer;
    };
    return { lookup, calls: () => calls };
  }
  const clock = () => {
    let time = 1_000_000;
    return { now: () => time, advance: (ms: number) => (time += ms) };
  };
  const A = (addresses: string[], ttlSeconds = 60): DnsAnswer => ({ addresses, ttlSeconds });

  it("reuses an answer while its TTL lasts, and asks again once it ran out", async () => {
    const { lookup, calls } = scripted([A(["93.184.216.34"], 30)]);
    const time = clock();
    const resolve = createCheckResolver(lookup, time.now);
    await resolve("site.test");
    time.advance(29_000);
    await resolve("SITE.test.");
    expect(calls()).toBe(1);
    time.advance(1_000);
    await expect(resolve("site.test")).resolves.toEqual(["93.184.216.34"]);
    expect(calls()).toBe(2);
  });

  it("asks before every use when the TTL is 0", async () => {
    const { lookup, calls } = scripted([A(["93.184.216.34"], 0)]);
    const resolve = createCheckResolver(lookup, clock().now);
    for (let i = 0; i < 3; i++) await resolve("site.test");
    expect(calls()).toBe(3);
  });

  it("refuses a name whose later answer holds an address the first did not", async () => {
    const { lookup } = scripted([A(["93.184.216.34"], 0), A(["93.184.216.35"], 0)]);
    const resolve = createCheckResolver(lookup, clock().now);
    await resolve("rebind.test");
    const refusal = resolve("rebind.test");
    await expect(refusal).rejects.toBeInstanceOf(DnsAnswerChangedError);
    await expect(refusal).rejects.toThrow(
      "the DNS answer for rebind.test changed during the check (first 93.184.216.34, then 93.184.216.35)",
    );
  });

  it("accepts a later answer that only drops addresses", async () => {
    const { lookup } = scripted([A(["93.184.216.34", "93.184.216.35"], 0), A(["93.184.216.35"], 0)]);
    const resolve = createCheckResolver(lookup, clock().now);
    await resolve("shrink.test");
    await expect(resolve("shrink.test")).resolves.toEqual(["93.184.216.35"]);
  });

  it("shares one query among concurrent lookups of a name", async () => {
    const { lookup, calls } = scripted([A(["93.184.216.34"], 0)]);
    const resolve = createCheckResolver(lookup, clock().now);
    await Promise.all([resolve("site.test"), resolve("site.test"), resolve("site.test")]);
    expect(calls()).toBe(1);
  });

  it("keeps no failed lookup", async () => {
    const { lookup, calls } = scripted([new DnsLookupError("SERVFAIL"), A(["93.184.216.34"])]);
    const resolve = createCheckResolver(lookup, clock().now);
    await expect(resolve("flaky.test")).rejects.toThrow("SERVFAIL");
    await expect(resolve("flaky.test")).resolves.toEqual(["93.184.216.34"]);
    expect(calls()).toBe(2);
  });
});
