/**
 * The local stack's DNS over HTTPS endpoint: the JSON API of Cloudflare's and Google's resolvers
 * (`GET /dns-query?name=&type=` with `accept: application/dns-json`), answering from a local zone
 * that people and tests edit, so a domain claim's TXT proof can be completed on one machine:
 *
 *   PUT /records {name, type, value}     adds a record (A, AAAA, TXT, CNAME, SVCB or HTTPS)
 *   DELETE /records?name=&type=          removes that name's records of that type (all types without type)
 *   GET /records                         the whole zone
 *
 * Names the zone does not hold are forwarded to an upstream resolver when one is configured
 * (SERVFAIL when it cannot be reached, as a resolver that cannot recurse answers); without an
 * upstream the zone is the whole namespace and other names are NXDOMAIN. SVCB and HTTPS records
 * (RFC 9460) are kept in presentation form (`1 mcp.example.com. alpn="h2" port=443`), as the JSON
 * APIs give their data, so the checklist's DNS discovery (DNS-AID records under
 * `_agents.<domain>`) can be tried locally. Reserved names
 * (`.example`, `.test`, `.invalid`, `.localhost`: the demo index lives under `.example`) are never
 * forwarded: outside the zone they do not exist.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { BadRequest, readJson, sendJson } from "./http.ts";

export const RECORD_TYPES = { A: 1, CNAME: 5, TXT: 16, AAAA: 28, SVCB: 64, HTTPS: 65 } as const;
export type RecordType = keyof typeof RECORD_TYPES;

const TYPE_BY_NUMBER = new Map<number, RecordType>(
  Object.entries(RECORD_TYPES).map(([name, code]) => [code, name as RecordType]),
);
const NOERROR = 0;
const SERVFAIL = 2;
const NXDOMAIN = 3;
const TTL_SECONDS = 60;
const MAX_CNAME_CHAIN = 8;
/** RFC 2606 / 6761 names that never exist in public DNS: answered here, never forwarded. */
const RESERVED_SUFFIXES = [".example", ".test", ".invalid", ".localhost"];

const TYPE_PROBLEM = "type must be A, AAAA, TXT, CNAME, SVCB or HTTPS";

const isReserved = (name: string) => RESERVED_SUFFIXES.some((suffix) => `.${normalizeName(name)}`.endsWith(suffix));

export interface ZoneRecord {
  name: string;
  type: RecordType;
  value: string;
}

export interface DnsZoneOptions {
  /** Records present from the start. */
  records?: ZoneRecord[];
  /** JSON DoH endpoint for names outside the zone; undefined: answer SERVFAIL for them. */
  upstream?: string;
  fetchImpl?: typeof fetch;
}

/** Lower case, no trailing dot: how the zone keys names. */
export const normalizeName = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");

/** A record type from a query's `type`, given as a mnemonic or a number; undefined if unsupported. */
function parseType(value: string | null): RecordType | undefined {
  if (!value) return "A";
  if (/^\d+$/.test(value)) return TYPE_BY_NUMBER.get(Number(value));
  const upper = value.toUpperCase();
  return upper in RECORD_TYPES ? (upper as RecordType) : undefined;
}

/** Why a record cannot be added, or undefined when it can. */
export function invalidRecord(record: Partial<ZoneRecord>): string | undefined {
  if (
    typeof record.name !== "string" ||
    !/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/i.test(record.name)
  ) {
    return "name must be a DNS name such as _svc-challenge.example.com";
  }
  if (typeof record.type !== "string" || !(record.type.toUpperCase() in RECORD_TYPES)) return TYPE_PROBLEM;
  if (typeof record.value !== "string" || record.value.length === 0 || record.value.length > 2048) {
    return "value must be a non-empty string of at most 2048 characters";
  }
  return undefined;
}

export class DnsZone {
  private readonly records = new Map<string, Map<RecordType, string[]>>();

  add(record: ZoneRecord): void {
    const name = normalizeName(record.name);
    const byType = this.records.get(name) ?? new Map<RecordType, string[]>();
    const values = byType.get(record.type) ?? [];
    if (!values.includes(record.value)) values.push(record.value);
    byType.set(record.type, values);
    this.records.set(name, byType);
  }

  remove(name: string, type?: RecordType): number {
    const byType = this.records.get(normalizeName(name));
    if (!byType) return 0;
    if (!type) {
      this.records.delete(normalizeName(name));
      return [...byType.values()].reduce((sum, values) => sum + values.length, 0);
    }
    const removed = byType.get(type)?.length ?? 0;
    byType.delete(type);
    if (byType.size === 0) this.records.delete(normalizeName(name));
    return removed;
  }

  has(name: string): boolean {
    return this.records.has(normalizeName(name));
  }

  lookup(name: string, type: RecordType): string[] {
    return this.records.get(normalizeName(name))?.get(type) ?? [];
  }

  list(): ZoneRecord[] {
    return [...this.records].flatMap(([name, byType]) =>
      [...byType].flatMap(([type, values]) => values.map((value) => ({ name, type, value }))),
    );
  }
}

/** A TXT record's data as DoH JSON gives it: the string quoted, split into 255-byte strings. */
function txtData(value: string): string {
  const chunks = value.match(/[\s\S]{1,255}/g) ?? [""];
  return chunks.map((chunk) => JSON.stringify(chunk)).join(" ");
}

interface DohAnswer {
  name: string;
  type: number;
  TTL: number;
  data: string;
}

/** Answers a question from the zone, following CNAMEs inside it; undefined when the zone lacks the name. */
export function answerFromZone(zone: DnsZone, name: string, type: RecordType) {
  if (!zone.has(name)) return undefined;
  const answers: DohAnswer[] = [];
  let current = normalizeName(name);
  for (let hop = 0; hop < MAX_CNAME_CHAIN; hop++) {
    const [target] = type === "CNAME" ? [] : zone.lookup(current, "CNAME");
    if (!target) break;
    answers.push({ name: current, type: RECORD_TYPES.CNAME, TTL: TTL_SECONDS, data: `${normalizeName(target)}.` });
    current = normalizeName(target);
    if (!zone.has(current)) return { status: NOERROR, answers };
  }
  for (const value of zone.lookup(current, type)) {
    answers.push({
      name: current,
      type: RECORD_TYPES[type],
      TTL: TTL_SECONDS,
      data: type === "TXT" ? txtData(value) : value,
    });
  }
  return { status: NOERROR, answers };
}

function dohBody(name: string, type: RecordType, status: number, answers: DohAnswer[]) {
  return {
    Status: status,
    TC: false,
    RD: true,
    RA: true,
    AD: false,
    CD: false,
    Question: [{ name: normalizeName(name), type: RECORD_TYPES[type] }],
    ...(answers.length > 0 ? { Answer: answers } : {}),
  };
}

export function createDnsZoneServer(options: DnsZoneOptions = {}): { server: Server; zone: DnsZone } {
  const zone = new DnsZone();
  for (const record of options.records ?? []) zone.add(record);
  const fetchImpl = options.fetchImpl ?? fetch;

  const forward = async (name: string, type: RecordType) => {
    if (!options.upstream) return undefined;
    const url = new URL(options.upstream);
    url.searchParams.set("name", name);
    url.searchParams.set("type", type);
    try {
      const response = await fetchImpl(url, {
        headers: { accept: "application/dns-json" },
        signal: AbortSignal.timeout(2000),
      });
      return response.ok ? ((await response.json()) as unknown) : undefined;
    } catch {
      return undefined;
    }
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://dns.local");
    if (url.pathname === "/dns-query" && (request.method === "GET" || request.method === "HEAD")) {
      const name = url.searchParams.get("name");
      const type = parseType(url.searchParams.get("type"));
      if (!name || !type) return sendJson(response, 400, { error: `name is required; ${TYPE_PROBLEM}` });
      const local = answerFromZone(zone, name, type);
      if (local) return sendDns(response, dohBody(name, type, local.status, local.answers));
      const upstream = isReserved(name) ? undefined : await forward(name, type);
      const failed = options.upstream && !isReserved(name);
      return sendDns(response, upstream ?? dohBody(name, type, failed ? SERVFAIL : NXDOMAIN, []));
    }
    if (url.pathname === "/records" && request.method === "PUT") {
      const record = (await readJson(request)) as Partial<ZoneRecord>;
      const problem = invalidRecord(record);
      if (problem) return sendJson(response, 400, { error: problem });
      const added = {
        name: normalizeName(record.name as string),
        type: (record.type as string).toUpperCase() as RecordType,
        value: record.value as string,
      };
      zone.add(added);
      return sendJson(response, 201, added);
    }
    if (url.pathname === "/records" && request.method === "DELETE") {
      const name = url.searchParams.get("name");
      const typeParam = url.searchParams.get("type");
      const type = typeParam ? parseType(typeParam) : undefined;
      if (!name || (typeParam && !type)) return sendJson(response, 400, { error: `name is required; ${TYPE_PROBLEM}` });
      return sendJson(response, 200, { removed: zone.remove(name, type) });
    }
    if (url.pathname === "/records" && request.method === "GET") return sendJson(response, 200, zone.list());
    sendJson(response, 404, { error: "not found" });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      sendJson(response, error instanceof BadRequest ? 400 : 500, {
        error: error instanceof BadRequest ? error.message : "internal error",
      });
    });
  });
  return { server, zone };
}

function sendDns(response: ServerResponse, body: unknown) {
  const payload = JSON.stringify(body);
  response.writeHead(200, { "content-type": "application/dns-json", "content-length": Buffer.byteLength(payload) });
  response.end(payload);
}
