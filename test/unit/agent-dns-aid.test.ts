/**
 * dns_agent_discovery against the AID standard's own implementation: records written by the
 * AID project's generator (`@agentcommunity/aid-engine`'s `buildTxtRecordVariant`, keys in full
 * and as one-letter aliases, a PKA key from its `generateEd25519KeyPair`), judged valid or not by
 * its reference parser (`@agentcommunity/aid`'s `parse`), served from the project's own local DNS
 * zone (scripts/local-stack/dns-zone.ts, the JSON DoH endpoint `npm start` runs), for sites of the
 * farm built with the real implementations of each protocol a record names: the official MCP SDK
 * v2 (mcp), the A2A JS SDK's card handler (a2a), fastify-swagger (openapi).
 *
 * Each farm site is given a DNS name under `.test` (never forwarded by the zone): the crawl's
 * fetcher sends `http(s)://<name>.aid.test:<port>` to the site's 127.0.0.1 port over plain HTTP, as
 * a TLS-terminating proxy in front of it would, so an AID record can name the `https://` URL the
 * standard requires. The reference parser and the check must agree on every record; a valid record
 * naming a live surface passes, a malformed one fails, a resolver that fails is `error`.
 */

import { createServer, type Server } from "node:http";
import { parse } from "@agentcommunity/aid";
import { type AidGeneratorData, buildTxtRecordVariant, generateEd25519KeyPair } from "@agentcommunity/aid-engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Each test crawls sites one after another: a minute leaves room on a loaded machine. */
const CRAWLS_TIMEOUT_MS = 60_000;

import { createDnsZoneServer, type DnsZone } from "../../scripts/local-stack/dns-zone.ts";
import { close, listen } from "../../scripts/local-stack/http.ts";
import { createDohRecordLookup } from "../../src/adapters/dns-records.ts";
import type { CheckResult } from "../../src/domain/checklist/checklist-definition.ts";
import { createConcurrencyLimiter } from "../../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite } from "../../src/domain/crawling/crawl-site.ts";
import { readAidRecord } from "../../src/domain/readers/agent-dns.ts";
import type { SiteFetcher } from "../../src/domain/signals/types.ts";
import { type Farm, type FarmSiteName, startFarm } from "../fixtures/farm/farm.ts";
import { createPlainFetcher } from "../support/plain-fetcher.ts";

const SITES = {
  modern: "sdk2-modern",
  dual: "sdk2-dual",
  agent: "a2a-agent",
  books: "fastify-swagger",
} as const satisfies Record<string, FarmSiteName>;
type SiteLabel = keyof typeof SITES;

let farm: Farm;
let zoneServer: Server;
let zone: DnsZone;
let dohUrl: string;
/** The 127.0.0.1 port of each named site. */
const ports = new Map<string, string>();

const hostOf = (label: SiteLabel) => `${label}.aid.test`;
const originOf = (label: SiteLabel, scheme = "http") => `${scheme}://${hostOf(label)}:${ports.get(hostOf(label))}`;

beforeAll(async () => {
  farm = await startFarm();
  for (const [label, name] of Object.entries(SITES))
    ports.set(hostOf(label as SiteLabel), new URL(farm.origins[name]).port);
  const created = createDnsZoneServer();
  zoneServer = created.server;
  zone = created.zone;
  dohUrl = `http://127.0.0.1:${await listen(zoneServer, 0)}/dns-query`;
}, 30_000);

afterAll(async () => {
  if (zoneServer) await close(zoneServer);
  await farm?.stop();
});

/** The plain fetcher, with the sites' names sent to their farm ports (https ended as by a proxy). */
function namedFetcher(): SiteFetcher {
  const plain = createPlainFetcher(5000);
  return async (url, request) => {
    const parsed = new URL(url);
    const port = ports.get(parsed.hostname);
    if (!port || parsed.port !== port) return plain(url, request);
    const local = `http://127.0.0.1:${port}${parsed.pathname}${parsed.search}`;
    const response = await plain(local, request);
    const back = (each: string) => each.replace(`http://127.0.0.1:${port}`, `${parsed.protocol}//${parsed.host}`);
    return {
      ...response,
      url,
      finalUrl: back(response.finalUrl),
      redirects: response.redirects.map(back),
    };
  };
}

/** The dns_agent_discovery verdict of a crawl of `origin`, its records looked up through `resolver`. */
async function crawlCheck(origin: string, resolver: string, timeoutMs = 1000): Promise<CheckResult> {
  const result = await crawlSite({
    origin,
    fetcher: namedFetcher(),
    limiter: createConcurrencyLimiter(6),
    dnsRecords: createDohRecordLookup({ url: resolver, timeoutMs }),
  });
  return result.checklist!.checks.find((check) => check.id === "dns_agent_discovery")!;
}

/** Crawls a named site with the zone's `_agent` TXT record set to `records`. */
async function dnsCheck(label: SiteLabel, records: string[], resolver: string = dohUrl, timeoutMs = 1000) {
  const name = `_agent.${hostOf(label)}`;
  zone.remove(name);
  for (const value of records) zone.add({ name, type: "TXT", value });
  return crawlCheck(originOf(label), resolver, timeoutMs);
}

/** What the reference parser says of a record. */
function referenceVerdict(record: string): "valid" | "invalid" {
  try {
    parse(record);
    return "valid";
  } catch {
    return "invalid";
  }
}

const ourVerdict = (record: string) => ("uri" in readAidRecord(record) ? "valid" : "invalid");

/** Records for the MCP site, each with the verdict the reference parser must give. */
async function mcpRecords(): Promise<{ what: string; record: string; valid: boolean }[]> {
  const uri = `${originOf("modern", "https")}/mcp`;
  const base: AidGeneratorData = { uri, proto: "mcp", auth: "", desc: "", domain: hostOf("modern") };
  const { publicKey } = await generateEd25519KeyPair();
  // Values outside the generator's types on purpose: the invalid records.
  const build = (data: Partial<Record<keyof AidGeneratorData, string>>, aliases = false) =>
    buildTxtRecordVariant({ ...base, ...data } as AidGeneratorData, aliases);
  return [
    { what: "uri and proto in full", record: build({}), valid: true },
    { what: "the one-letter aliases", record: build({ auth: "pat", desc: "Modern tools" }, true), valid: true },
    {
      what: "every optional key",
      record: build({
        auth: "oauth2_code",
        desc: "Modern tools",
        docs: "https://docs.aid.test/modern",
        dep: "2030-01-01T00:00:00Z",
      }),
      valid: true,
    },
    { what: "a PKA key with its kid", record: build({ pka: publicKey, kid: "g1" }, true), valid: true },
    { what: "an http:// uri", record: build({ uri: uri.replace("https:", "http:") }), valid: false },
    { what: "an auth hint outside the registry", record: build({ auth: "oauth" }), valid: false },
    { what: "a desc of 61 bytes", record: build({ desc: "x".repeat(61) }), valid: false },
    { what: "docs over http", record: build({ docs: "http://docs.aid.test/modern" }), valid: false },
    { what: "dep without a UTC time", record: build({ dep: "2030-01-01" }), valid: false },
    { what: "a PKA key without its kid", record: build({ pka: publicKey }), valid: false },
    { what: "uri and its alias u", record: `${build({})};u=${uri}`, valid: false },
    { what: "no proto", record: build({ proto: "" }), valid: false },
    { what: "an empty value", record: `${build({})};s=`, valid: false },
  ];
}

describe("AID records from the AID project's generator, on the project's DNS zone", () => {
  it(
    "the check's reader and the reference parser agree on every record",
    async () => {
      const records = await mcpRecords();
      const disagreements = records
        .map(({ what, record }) => ({ what, record, reference: referenceVerdict(record), ours: ourVerdict(record) }))
        .filter((each) => each.reference !== each.ours);
      expect(disagreements).toEqual([]);
      // The table means what it says of the reference parser.
      expect(records.map(({ what, record }) => [what, referenceVerdict(record) === "valid"])).toEqual(
        records.map(({ what, valid }) => [what, valid]),
      );
    },
    CRAWLS_TIMEOUT_MS,
  );

  it(
    "a valid record naming the SDK v2 server passes; a malformed one fails, as the reference parser rules",
    async () => {
      for (const { what, record, valid } of await mcpRecords()) {
        const check = await dnsCheck("modern", [record]);
        expect({ what, status: check.status }, check.reason).toEqual({ what, status: valid ? "pass" : "fail" });
        if (valid) expect(check.reason).toContain("is the MCP server this crawl reached");
      }
    },
    CRAWLS_TIMEOUT_MS,
  );

  it(
    "a record naming another site's MCP endpoint is probed live, in the era it speaks",
    async () => {
      const record = buildTxtRecordVariant(
        { uri: `${originOf("dual", "https")}/mcp`, proto: "mcp", auth: "", desc: "", domain: hostOf("modern") },
        true,
      );
      const check = await dnsCheck("modern", [record]);
      expect(check.status, check.reason).toBe("pass");
      expect(check.reason).toMatch(/answered as an MCP server \(the 2026-07-28 era\)/);
      expect(check.evidence.some((each) => each.url.startsWith(originOf("dual", "https")))).toBe(true);
    },
    CRAWLS_TIMEOUT_MS,
  );

  it(
    "names an A2A card served by the A2A JS SDK and an OpenAPI document served by fastify-swagger",
    async () => {
      const a2a = buildTxtRecordVariant(
        { uri: `${originOf("agent", "https")}/`, proto: "a2a", auth: "none", desc: "", domain: hostOf("agent") },
        false,
      );
      expect(referenceVerdict(a2a)).toBe("valid");
      const card = await dnsCheck("agent", [a2a]);
      expect(card.status, card.reason).toBe("pass");
      expect(card.reason).toContain("/.well-known/agent-card.json is an A2A agent card");

      const openapi = buildTxtRecordVariant(
        {
          uri: `${originOf("books", "https")}/openapi.json`,
          proto: "openapi",
          auth: "",
          desc: "Bookshelf",
          domain: hostOf("books"),
        },
        true,
      );
      expect(referenceVerdict(openapi)).toBe("valid");
      const document = await dnsCheck("books", [openapi]);
      expect(document.status, document.reason).toBe("pass");
    },
    CRAWLS_TIMEOUT_MS,
  );

  it(
    "a valid record whose surface does not answer its protocol fails; two valid records are ambiguous",
    async () => {
      const wrongPath = buildTxtRecordVariant(
        { uri: `${originOf("modern", "https")}/tools`, proto: "mcp", auth: "", desc: "", domain: hostOf("modern") },
        true,
      );
      expect(referenceVerdict(wrongPath)).toBe("valid");
      expect((await dnsCheck("modern", [wrongPath])).status).toBe("fail");
      // The MCP server is not an A2A agent: its host has no card.
      const notAgent = buildTxtRecordVariant(
        { uri: `${originOf("modern", "https")}/`, proto: "a2a", auth: "", desc: "", domain: hostOf("modern") },
        true,
      );
      expect((await dnsCheck("modern", [notAgent])).status).toBe("fail");
      const right = buildTxtRecordVariant(
        { uri: `${originOf("modern", "https")}/mcp`, proto: "mcp", auth: "", desc: "", domain: hostOf("modern") },
        true,
      );
      const check = await dnsCheck("modern", [right, wrongPath]);
      expect(check.status).toBe("fail");
      expect(check.reason).toMatch(/holds 2 AID records/);
    },
    CRAWLS_TIMEOUT_MS,
  );

  it(
    "a DNS-AID HTTPS record on the same zone names the SDK v2 server's host",
    async () => {
      const name = `_mcp._agents.${hostOf("modern")}`;
      zone.add({ name, type: "HTTPS", value: `1 ${hostOf("modern")}. alpn="h2" port=${ports.get(hostOf("modern"))}` });
      try {
        const check = await dnsCheck("modern", []);
        expect(check.status, check.reason).toBe("pass");
        expect(check.reason.toLowerCase()).toContain(`the dns-aid https record at ${name}`);
        zone.remove(name);
        zone.add({ name, type: "HTTPS", value: `0 ${hostOf("dual")}.` });
        expect((await dnsCheck("modern", [])).status).toBe("fail");
      } finally {
        zone.remove(name);
      }
    },
    CRAWLS_TIMEOUT_MS,
  );

  it(
    "no record is neutral; a resolver that cannot be reached, times out or answers SERVFAIL is error",
    async () => {
      expect((await dnsCheck("modern", [])).status).toBe("neutral");
      // Nothing listens on port 9 of the loopback: the resolver cannot be reached.
      const unreachable = await dnsCheck("modern", [], "http://127.0.0.1:9/dns-query");
      expect(unreachable.status, unreachable.reason).toBe("error");
      expect(unreachable.reason).toMatch(/could not be decided/);
      // The same site under a name outside the reserved ones, on a zone whose upstream is down:
      // the zone answers SERVFAIL for the names it must forward.
      const forwarding = createDnsZoneServer({ upstream: "http://127.0.0.1:9/dns-query" });
      const forwardingPort = await listen(forwarding.server, 0);
      const hanging = createServer(() => {});
      const hangingPort = await listen(hanging, 0);
      const publicHost = "modern.aid-farm.example.com";
      ports.set(publicHost, ports.get(hostOf("modern"))!);
      try {
        const servfail = await crawlCheck(
          `http://${publicHost}:${ports.get(publicHost)}`,
          `http://127.0.0.1:${forwardingPort}/dns-query`,
        );
        expect(servfail.status, servfail.reason).toBe("error");
        expect(servfail.reason).toMatch(/SERVFAIL/);
        const timedOut = await dnsCheck("modern", [], `http://127.0.0.1:${hangingPort}/dns-query`, 300);
        expect(timedOut.status, timedOut.reason).toBe("error");
        expect(timedOut.reason).toMatch(/timed out/);
      } finally {
        hanging.closeAllConnections();
        await close(hanging);
        await close(forwarding.server);
      }
    },
    CRAWLS_TIMEOUT_MS,
  );
});
