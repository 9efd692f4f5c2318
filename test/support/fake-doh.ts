/**
 * A local DNS-over-HTTPS resolver speaking the JSON API (Node only), so lookups can be tested
 * without the internet. Names not listed answer NXDOMAIN.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake resolver answers for one name. */
export interface FakeZone {
  A?: string[];
  AAAA?: string[];
  /** Answer with a CNAME to this name, followed by that name's records, as real resolvers do. */
  cname?: string;
  /** A DNS RCODE other than NOERROR, e.g. 2 for SERVFAIL. */
  status?: number;
  /** Answer with this HTTP status and no DNS payload. */
  httpStatus?: number;
  /** Never answer. */
  hang?: boolean;
  /** The TTL of every record; 300 unless given. */
  ttl?: number;
  /**
   * Answers that change from one query to the next: the n-th query of a type answers the n-th
   * entry's addresses (the last entry repeats). A and AAAA are ignored when this is given.
   */
  sequence?: { A?: string[]; AAAA?: string[] }[];
  /**
   * How the address records spell their `type`, in turn (cycling): 1, "1" or "A". The JSON DoH
   * format has no RFC, so a resolver may use any of them. Numbers unless given.
   */
  typeSpellings?: ("number" | "numeric-string" | "mnemonic")[];
  /** Write address data with a trailing dot ("93.184.216.34."). */
  dataTrailingDot?: boolean;
}

/** One query the fake resolver received. */
export interface FakeDohQuery {
  name: string;
  type: string;
  accept: string | undefined;
}

/** A running fake resolver. */
export interface FakeDoh {
  url: string;
  queries: FakeDohQuery[];
  stop(): Promise<void>;
}

const TYPE_NUMBERS: Record<string, number> = { A: 1, AAAA: 28, CNAME: 5 };

/**
 * Starts a fake resolver on 127.0.0.1 (on `port`, or any free one); names are matched
 * case-insensitively, trailing dot ignored.
 */
export async function startFakeDoh(zones: Record<string, FakeZone>, port = 0): Promise<FakeDoh> {
  const lookup = (name: string): FakeZone | undefined => zones[name.toLowerCase().replace(/\.$/, "")];
  const queries: FakeDohQuery[] = [];
  const queryCounts = new Map<string, number>();
  const spellType = (type: string, index: number, zone: FakeZone | undefined): number | string => {
    const spellings = zone?.typeSpellings ?? ["number"];
    const spelling = spellings[index % spellings.length];
    const number = TYPE_NUMBERS[type] ?? 0;
    return spelling === "mnemonic" ? type : spelling === "numeric-string" ? String(number) : number;
  };
  const server: Server = createServer((request, response) => {
    const params = new URL(request.url ?? "/", "http://fake-doh").searchParams;
    const name = params.get("name") ?? "";
    const type = params.get("type") ?? "";
    queries.push({ name, type, accept: request.headers.accept });
    const zone = lookup(name);
    if (zone?.hang) return;
    if (zone?.httpStatus) {
      response.writeHead(zone.httpStatus, { "content-type": "text/plain" });
      response.end("resolver trouble");
      return;
    }
    const answer: { name: string; type: number | string; TTL: number; data: string }[] = [];
    let status = zone ? (zone.status ?? 0) : 3;
    let current = zone;
    let currentName = name;
    // Follows the chain so the payload looks like a recursive resolver's.
    for (let depth = 0; current?.cname && depth < 8; depth++) {
      answer.push({
        name: `${currentName}.`,
        type: TYPE_NUMBERS.CNAME ?? 5,
        TTL: current.ttl ?? 300,
        data: `${current.cname}.`,
      });
      currentName = current.cname;
      current = lookup(currentName);
      if (!current) status = 3;
    }
    const countKey = `${currentName.toLowerCase()} ${type}`;
    const count = queryCounts.get(countKey) ?? 0;
    queryCounts.set(countKey, count + 1);
    const step = current?.sequence ? current.sequence[Math.min(count, current.sequence.length - 1)] : current;
    const records = type === "A" ? step?.A : type === "AAAA" ? step?.AAAA : undefined;
    for (const [index, address] of (records ?? []).entries()) {
      answer.push({
        name: `${currentName}.`,
        type: spellType(type, index, current),
        TTL: current?.ttl ?? 300,
        data: current?.dataTrailingDot ? `${address}.` : address,
      });
    }
    const payload = {
      Status: status,
      TC: false,
      RD: true,
      RA: true,
      AD: false,
      CD: false,
      Question: [{ name: `${name}.`, type: TYPE_NUMBERS[type] ?? 0 }],
      ...(answer.length > 0 ? { Answer: answer } : {}),
    };
    response.writeHead(200, { "content-type": "application/dns-json" });
    response.end(JSON.stringify(payload));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: boundPort } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${boundPort}/dns-query`,
    queries,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
