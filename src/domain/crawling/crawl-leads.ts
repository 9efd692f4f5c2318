/**
 * Seed imports: sites learnt from public lists (table crawl_leads, db/schema/crawl-leads.ts).
 *
 * - `parseImportFile` reads a plain list (one domain or URL a line; blank lines and `#` comments
 *   skipped) or the MCP Registry's server list JSON (`{servers: [{server: {remotes: [{type,
 *   url}]}}]}`, a bare array of such entries, or one server.json): each remote's URL names the
 *   site at its host, and the URL itself is kept as a lead for that site's MCP signal. Every line
 *   or entry becomes a lead, a skip (with why) or an invalid item (with why); nothing throws.
 * - `recordImportLeads` writes one batch of leads: a domain already indexed or already imported is
 *   skipped (a registry endpoint is still remembered for it); a new one waits for its crawl at the
 *   import's rate (`crawl_after`). The table's primary key makes a second import queue nothing.
 * - `queueDueLeads` (the checks group's cron) sends the due leads to the crawl queue.
 * - `loadMcpLeads` gives the crawl consumer the endpoints leads name.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import { DomainError } from "../errors.ts";
import { parseCrawlTarget } from "./crawl-target.ts";
import { type CrawlContext, requestCrawls } from "./request-crawls.ts";

export type LeadSource = "list" | "mcp-registry";

/** One site an import names. */
export interface ImportLead {
  /** Where it came from: "line 12", or "server io.example/weather". */
  at: string;
  domain: string;
  origin: string;
  mcpEndpoint: string | null;
}

export type ImportItem =
  | ({ kind: "lead" } & ImportLead)
  | { kind: "skip"; at: string; reason: string }
  | { kind: "invalid"; at: string; reason: string };

export interface ParsedImport {
  source: LeadSource;
  items: ImportItem[];
}

/** The longest line or URL read; a longer one is invalid rather than a site. */
const MAX_INPUT_LENGTH = 2048;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One domain or URL as a lead, or why it is not one. */
function readTarget(input: string, at: string, allowPrivate: boolean, mcpEndpoint: string | null = null): ImportItem {
  if (input.length > MAX_INPUT_LENGTH) return { kind: "invalid", at, reason: "longer than 2048 characters" };
  // A bare domain (or domain/path) is read as the https site it names.
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`;
  try {
    const target = parseCrawlTarget(url, allowPrivate);
    return { kind: "lead", at, domain: target.domain, origin: target.origin, mcpEndpoint };
  } catch (error) {
    if (error instanceof DomainError) {
      return { kind: "invalid", at, reason: error.message.replace(/^url (is not usable|is not allowed): /, "") };
    }
    throw error;
  }
}

/** The remotes of one registry entry: `{server: {…}}` (the list API) or a bare server.json. */
function readRegistryEntry(entry: unknown, index: number, allowPrivate: boolean): ImportItem[] {
  const server = isRecord(entry) && isRecord(entry.server) ? entry.server : entry;
  if (!isRecord(server)) return [{ kind: "invalid", at: `entry ${index + 1}`, reason: "not a server object" }];
  const at = typeof server.name === "string" ? `server ${server.name.slice(0, 120)}` : `entry ${index + 1}`;
  const remotes = Array.isArray(server.remotes) ? server.remotes : [];
  if (remotes.length === 0) {
    return [{ kind: "skip", at, reason: "no remote endpoint (a package run locally names no site)" }];
  }
  return remotes.map((remote, r): ImportItem => {
    const where = remotes.length > 1 ? `${at} remote ${r + 1}` : at;
    if (!isRecord(remote) || typeof remote.url !== "string") {
      return { kind: "invalid", at: where, reason: "a remote without a url" };
    }
    // A URL with variables ("https://{tenant}.example.com/mcp") names no site until filled in.
    if (/[{}]/.test(remote.url)) return { kind: "skip", at: where, reason: "a URL template names no one site" };
    const item = readTarget(remote.url.trim(), where, allowPrivate);
    return item.kind === "lead" ? { ...item, mcpEndpoint: new URL(remote.url.trim()).href } : item;
  });
}

/**
 * Reads an import file (see the module comment). JSON is recognised by its first character
 * (`{` or `[`); anything else is a plain list.
 */
export function parseImportFile(text: string, { allowPrivate = false } = {}): ParsedImport {
  const body = text.replace(/^\uFEFF/, "");
  const first = body.trimStart()[0];
  if (first === "{" || first === "[") {
    let document: unknown;
    try {
      document = JSON.parse(body);
    } catch (error) {
      return {
        source: "mcp-registry",
        items: [{ kind: "invalid", at: "the file", reason: `not valid JSON (${(error as Error).message})` }],
      };
    }
    const entries = Array.isArray(document)
      ? document
      : isRecord(document) && Array.isArray(document.servers)
        ? document.servers
        : isRecord(document) && (Array.isArray(document.remotes) || isRecord(document.server))
          ? [document]
          : null;
    if (!entries) {
      return {
        source: "mcp-registry",
        items: [{ kind: "invalid", at: "the file", reason: "JSON without a `servers` list or `remotes`" }],
      };
    }
    return {
      source: "mcp-registry",
      items: entries.flatMap((entry, index) => readRegistryEntry(entry, index, allowPrivate)),
    };
  }
  const items: ImportItem[] = [];
  body.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    if (/\s/.test(line)) {
      items.push({ kind: "invalid", at: `line ${index + 1}`, reason: "more than one word on the line" });
      return;
    }
    items.push(readTarget(line, `line ${index + 1}`, allowPrivate));
  });
  return { source: "list", items };
}

export interface LeadBatchOutcome {
  /** Leads written that wait for a crawl. */
  queued: ImportLead[];
  /** Leads not queued, with why. */
  skipped: { lead: ImportLead; reason: "already indexed" | "already imported" }[];
}

/** When the first crawl of a new import may be queued: after the leads still waiting, or now. */
export async function importStart(db: Database, now: Date): Promise<Date> {
  const result = await db.execute(
    sql`select max(crawl_after) as last from crawl_leads where queued_at is null and crawl_after is not null`,
  );
  const last = result.rows[0]?.last as string | Date | null | undefined;
  const lastTime = last ? new Date(last).getTime() : 0;
  return new Date(Math.max(now.getTime(), lastTime));
}

/**
 * Writes one batch of distinct leads in one statement: new domains get their `crawl_after` at
 * `start` + i / `perMinute` minutes (i counting from `offset`, in the batch's order); indexed or
 * imported ones are skipped, their registry endpoint kept when none was known.
 */
export async function recordImportLeads(
  db: Database,
  input: { leads: ImportLead[]; source: LeadSource; start: Date; offset: number; perMinute: number },
): Promise<LeadBatchOutcome> {
  if (input.leads.length === 0) return { queued: [], skipped: [] };
  const rows = JSON.stringify(
    input.leads.map((lead, ord) => ({ ord, domain: lead.domain, origin: lead.origin, endpoint: lead.mcpEndpoint })),
  );
  const spacingMs = 60_000 / input.perMinute;
  const result = await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${rows}::jsonb) as t(ord int, domain text, origin text, endpoint text)
    ),
    known as (
      select i.ord, i.domain, i.origin, i.endpoint,
        exists (select 1 from sites s where s.domain = i.domain) as indexed,
        exists (select 1 from crawl_leads l where l.domain = i.domain) as imported
      from input i
    ),
    fresh as (
      select k.*, row_number() over (order by k.ord) - 1 as position
      from known k where not k.indexed and not k.imported
    ),
    inserted as (
      insert into crawl_leads (domain, origin, mcp_endpoint, source, crawl_after)
      select domain, origin, endpoint, ${input.source},
        ${input.start.toISOString()}::timestamptz
          + make_interval(secs => (${input.offset} + position) * ${spacingMs}::float8 / 1000)
      from fresh
      union all
      -- An indexed site never imported: its registry endpoint is remembered, no crawl is wanted.
      select domain, origin, endpoint, ${input.source}, null
      from known where indexed and not imported and endpoint is not null
      on conflict (domain) do nothing
      returning domain, crawl_after is not null as queued
    ),
    remembered as (
      update crawl_leads l set mcp_endpoint = k.endpoint
      from known k
      where l.domain = k.domain and k.imported and l.mcp_endpoint is null and k.endpoint is not null
      returning l.domain
    )
    select k.domain, k.indexed, coalesce(ins.queued, false) as queued
    from known k left join inserted ins on ins.domain = k.domain
    order by k.ord
  `);
  const byDomain = new Map(input.leads.map((lead) => [lead.domain, lead]));
  const outcome: LeadBatchOutcome = { queued: [], skipped: [] };
  for (const row of result.rows as { domain: string; indexed: boolean; queued: boolean }[]) {
    const lead = byDomain.get(row.domain)!;
    if (row.queued) outcome.queued.push(lead);
    else outcome.skipped.push({ lead, reason: row.indexed ? "already indexed" : "already imported" });
  }
  return outcome;
}

/** The MCP endpoints leads name for these domains (crawl consumer). */
export async function loadMcpLeads(db: Database, domains: string[]): Promise<Map<string, string[]>> {
  const leads = new Map<string, string[]>();
  if (domains.length === 0) return leads;
  const result = await db.execute(sql`
    select domain, mcp_endpoint from crawl_leads
    where domain in (select jsonb_array_elements_text(${JSON.stringify(domains)}::jsonb)) and mcp_endpoint is not null`);
  for (const row of result.rows as { domain: string; mcp_endpoint: string }[]) {
    leads.set(row.domain, [row.mcp_endpoint]);
  }
  return leads;
}

/**
 * Queues the crawls of at most `limit` due leads (soonest first). The leads are claimed first
 * (`queued_at`, skipping rows another run holds), so two runs at once queue each lead once; a
 * failed queue send releases the claim, so the next run tries them again. A lead whose site was
 * indexed meanwhile (submitted by someone) is claimed but not crawled again.
 */
export async function queueDueLeads({
  ctx,
  input,
}: {
  ctx: CrawlContext;
  input: { limit: number };
}): Promise<{ due: number; queued: number }> {
  const claimed = await ctx.db.execute(sql`
    update crawl_leads l set queued_at = now()
    where l.domain in (
      select domain from crawl_leads
      where queued_at is null and crawl_after is not null and crawl_after <= now()
      order by crawl_after limit ${input.limit}
      for update skip locked)
    returning l.domain, l.origin, exists (select 1 from sites s where s.domain = l.domain) as indexed,
      l.queued_at::text as claimed_at`);
  const rows = claimed.rows as { domain: string; origin: string; indexed: boolean; claimed_at: string }[];
  const targets = rows.filter((row) => !row.indexed).map((row) => ({ domain: row.domain, origin: row.origin }));
  if (targets.length === 0) return { due: rows.length, queued: 0 };
  try {
    const outcomes = await requestCrawls({ ctx, input: { targets, reason: "import" } });
    return { due: rows.length, queued: outcomes.filter((outcome) => outcome.queued).length };
  } catch (error) {
    await ctx.db.execute(sql`
      update crawl_leads set queued_at = null
      where domain in (select jsonb_array_elements_text(${JSON.stringify(targets.map((t) => t.domain))}::jsonb))
        and queued_at = ${rows[0]!.claimed_at}::timestamptz`);
    throw error;
  }
}

/** The counts an import reports as it goes, and at the end. */
export interface ImportProgress {
  /** Lines or registry entries read so far (of `total`). */
  done: number;
  total: number;
  queued: number;
  /** Every item not queued for a reason other than being invalid (already indexed included). */
  skipped: number;
  /** Of the skipped, those already in the index (the count ARCHITECTURE.md's contract names). */
  alreadyIndexed: number;
  invalid: number;
}

export interface ImportSummary extends ImportProgress {
  source: LeadSource;
  /** Why items were skipped, by reason. */
  skippedBy: Record<string, number>;
  /** When the first and last crawl this import queued may be sent, or null when it queued none. */
  firstCrawlAfter: string | null;
  lastCrawlAfter: string | null;
  perMinute: number;
}

/** A skipped or invalid item, as the import reports it. */
export interface ImportNote {
  kind: "skip" | "invalid";
  at: string;
  reason: string;
}

export const IMPORT_DEFAULT_PER_MINUTE = 60;
export const IMPORT_BATCH_SIZE = 500;

/**
 * Imports a file's leads (see the module comment): parsed whole, deduplicated (the first line
 * naming a domain wins), written in batches of `batchSize`, each new site's crawl spread at
 * `perMinute`. Reports every skipped or invalid item to `onNote` and the counts after each batch
 * to `onProgress`. Bad items are counted, never fatal; only the database failing stops it.
 */
export async function importLeads({
  db,
  text,
  now = new Date(),
  perMinute = IMPORT_DEFAULT_PER_MINUTE,
  batchSize = IMPORT_BATCH_SIZE,
  allowPrivate = false,
  onProgress = () => undefined,
  onNote = () => undefined,
}: {
  db: Database;
  text: string;
  now?: Date;
  perMinute?: number;
  batchSize?: number;
  allowPrivate?: boolean;
  onProgress?: (progress: ImportProgress) => void;
  onNote?: (note: ImportNote) => void;
}): Promise<ImportSummary> {
  const parsed = parseImportFile(text, { allowPrivate });
  const summary: ImportSummary = {
    source: parsed.source,
    done: 0,
    total: parsed.items.length,
    queued: 0,
    skipped: 0,
    alreadyIndexed: 0,
    invalid: 0,
    skippedBy: {},
    firstCrawlAfter: null,
    lastCrawlAfter: null,
    perMinute,
  };
  const skip = (at: string, reason: string) => {
    summary.skipped++;
    if (reason === "already indexed") summary.alreadyIndexed++;
    summary.skippedBy[reason] = (summary.skippedBy[reason] ?? 0) + 1;
    onNote({ kind: "skip", at, reason });
  };
  const start = await importStart(db, now);
  const seen = new Set<string>();
  let batch: ImportLead[] = [];
  let pending = 0;
  const flush = async () => {
    const outcome = await recordImportLeads(db, {
      leads: batch,
      source: parsed.source,
      start,
      offset: summary.queued,
      perMinute,
    });
    summary.queued += outcome.queued.length;
    for (const { lead, reason } of outcome.skipped) skip(lead.at, reason);
    summary.done += pending;
    batch = [];
    pending = 0;
    onProgress({ ...summary });
  };
  for (const item of parsed.items) {
    pending++;
    if (item.kind === "invalid") {
      summary.invalid++;
      onNote(item);
    } else if (item.kind === "skip") skip(item.at, item.reason);
    else if (seen.has(item.domain)) skip(item.at, "named earlier in the file");
    else {
      seen.add(item.domain);
      batch.push(item);
    }
    if (pending >= batchSize) await flush();
  }
  if (pending > 0 || summary.total === 0) await flush();
  if (summary.queued > 0) {
    const spacingMs = 60_000 / perMinute;
    summary.firstCrawlAfter = start.toISOString();
    summary.lastCrawlAfter = new Date(start.getTime() + (summary.queued - 1) * spacingMs).toISOString();
  }
  return summary;
}
